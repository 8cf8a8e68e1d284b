// What the server-side rendering suites share (test/ssr/run.mjs starts them): Chromium through puppeteer-core (the
// browser test/support/find-browser.mjs finds), a page whose hydration script is held back until the test has read
// what the server's HTML alone painted, the layout shifts after that moment, and the shadow DOM as comparable text.
/* global document, window, customElements, Node, NodeFilter */
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, findBrowser } from '../support/find-browser.mjs';

export const TAGS = ['reel-playlist', 'reel-player', 'reel-player-config', 'reel-geo-gate'];

export async function launchChromium() {
  return puppeteer.launch({
    executablePath: process.env.CHROME_PATH || findBrowser().path,
    args: [...CHROMIUM_ARGS],
    headless: true,
    defaultViewport: { width: 1024, height: 900 },
  });
}

/**
 * Opens `url` in a new page with the requests matching `held` (the hydration script) answered only once `release()`
 * is called, and every layout shift recorded from the start. `headers` go with the document's request only (a
 * visitor's address for the page server, never to the worker). Errors thrown in the page are collected.
 */
export async function openHeld(browser, url, { held, headers = {} }) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(message.text());
  });
  await page.evaluateOnNewDocument(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        // Where it happened: whether everything that moved stayed inside a player's toolbar row (see shiftsSince). By
        // the boxes: Chromium names no node for a shift inside a shadow root.
        const bars = [...document.querySelectorAll('reel-player')]
          .map((player) => player.shadowRoot?.querySelector('[part="toolbar"]')?.getBoundingClientRect()).filter(Boolean);
        const inside = (r, bar) => r.left >= bar.left - 1 && r.right <= bar.right + 1 && r.top >= bar.top - 1 && r.bottom <= bar.bottom + 1;
        const toolbar = entry.sources.length > 0 && entry.sources.every((source) =>
          bars.some((bar) => inside(source.previousRect, bar) && inside(source.currentRect, bar)));
        window.__shifts.push({ value: entry.value, at: entry.startTime, toolbar });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  const requests = [];
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    requests.push(request.url());
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      void request.continue({ headers: { ...request.headers(), ...headers } });
    } else if (held.test(request.url())) {
      void released.then(() => request.continue());
    } else {
      void request.continue();
    }
  });
  // A module script delays DOMContentLoaded, so the navigation is not awaited while it is held: the page is read once
  // the parser has reached the script (after the elements, at the end of the body).
  const loaded = page.goto(url, { waitUntil: 'load' });
  loaded.catch(() => {});
  await page.waitForSelector('script[type="module"]', { timeout: 20_000 });
  return {
    page, errors, requests,
    /** Lets the held script load; resolves with the page's clock at that moment. */
    async release() {
      const at = await page.evaluate(() => performance.now());
      release();
      await loaded;
      return at;
    },
  };
}

/** Waits until every reelgate element on the page is defined and has finished its pending update. */
export async function untilUpdated(page, timeout = 20_000) {
  await page.waitForFunction((tags) => tags.every((tag) => customElements.get(tag)), { timeout }, TAGS);
  await page.evaluate(async (tags) => {
    for (const el of document.querySelectorAll(tags.join(','))) await el.updateComplete;
  }, TAGS);
}

/**
 * The layout shifts recorded after `since` (the page's clock). `toolbar: false` leaves out those inside a player's
 * toolbar row: its height is reserved from first paint, but its menus appear one by one as the configuration and the
 * stream's renditions arrive (`justify-content: end`, so an earlier one moves aside), which is the player's own doing
 * in every page, server-rendered or not.
 */
export async function shiftsSince(page, since, { toolbar = true } = {}) {
  return page.evaluate((at, all) => window.__shifts.filter((shift) => shift.at >= at && (all || !shift.toolbar)), since, toolbar);
}

/**
 * Every reelgate element's box and shadow DOM as text: comments (Lit's part markers, which differ between a server's
 * render and a client's) and `<style>` elements (a server render inlines the styles, a client render adopts them)
 * left out, adjacent text joined, and the `muted` attribute dropped from `<video>` (Lit SSR writes the `.muted`
 * property binding as an attribute; the property is the client's on both). `selector` narrows which elements.
 */
export async function snapshot(page, selector = TAGS.join(',')) {
  return page.evaluate((sel) => {
    const text = (root) => {
      const box = document.createElement('div');
      for (const node of root.childNodes) box.append(node.cloneNode(true));
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_COMMENT | NodeFilter.SHOW_ELEMENT);
      const drop = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.nodeType === Node.COMMENT_NODE || node.localName === 'style') drop.push(node);
        else if (node.localName === 'video') node.removeAttribute('muted');
      }
      for (const node of drop) node.remove();
      box.normalize();
      // Attributes in name order: a server's render writes them in the template's order, a client's render writes the
      // bound ones after the static ones.
      for (const el of box.querySelectorAll('*')) {
        // A style as the CSSOM spells it: a server's render writes the template's text, a client's render the CSSOM's.
        if (el.hasAttribute('style')) el.style.cssText = el.getAttribute('style');
        const attributes = [...el.attributes].map((a) => [a.name, a.value]).sort(([a], [b]) => (a < b ? -1 : 1));
        for (const [name] of attributes) el.removeAttribute(name);
        for (const [name, value] of attributes) el.setAttribute(name, value);
      }
      return box.innerHTML;
    };
    return [...document.querySelectorAll(sel)].map((el) => {
      const rect = el.getBoundingClientRect();
      return {
        tag: el.localName, id: el.id, state: el.getAttribute('state'),
        rect: [rect.x, rect.y, rect.width, rect.height].map((n) => Math.round(n * 100) / 100),
        shadow: el.shadowRoot ? text(el.shadowRoot) : null,
      };
    });
  }, selector);
}

/**
 * Marks every element in every reelgate shadow root (a property, not an attribute: invisible to the snapshot), so
 * `marksKept` can tell whether hydration kept the server's nodes or made new ones.
 */
export async function markNodes(page) {
  return page.evaluate((tags) => {
    let n = 0;
    for (const el of document.querySelectorAll(tags.join(','))) {
      for (const node of el.shadowRoot?.querySelectorAll('*') ?? []) node.__ssrMark = ++n;
    }
    return n;
  }, TAGS);
}

/** How many marked nodes are still in a reelgate shadow root, and how many of its elements are unmarked (new). */
export async function marksKept(page, selector = TAGS.join(',')) {
  return page.evaluate((sel) => {
    let kept = 0;
    let fresh = 0;
    for (const el of document.querySelectorAll(sel)) {
      for (const node of el.shadowRoot?.querySelectorAll('*') ?? []) {
        if (node.__ssrMark) kept++;
        else fresh++;
      }
    }
    return { kept, fresh };
  }, selector);
}

export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
