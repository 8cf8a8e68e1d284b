// What the Firefox tests share: the browser (one per test file, launched through test/support/find-firefox.mjs), pages
// on the worker's own origin, bounded waits that fail with a message saying what never happened, and the media under
// test, chosen at runtime from the worker's public API. test/firefox/run.mjs starts the worker and hands its address
// and the Firefox to use over REELGATE_TEST_WORKER and REELGATE_FIREFOX_PATH.
/* global document, window, customElements, HTMLVideoElement */
import { launchFirefox } from '../support/find-firefox.mjs';

export const SITE = 'vbQmzoYd';
export const HLS = 'application/vnd.apple.mpegurl';
/** The embed's lazily loaded hls.js chunk, a versioned file beside the bundle. */
export const HLS_CHUNK = /\/embed\/(?:reelgate-)?hls[.-][A-Za-z0-9_-]+\.js$/;

/** The worker under test, e.g. http://127.0.0.1:19787 (no trailing slash). */
export function workerUrl() {
  const url = process.env.REELGATE_TEST_WORKER;
  if (!url) throw new Error('REELGATE_TEST_WORKER is not set: run the Firefox suite with `npm run test:firefox`.');
  return url.replace(/\/$/, '');
}

export async function openFirefox() {
  const path = process.env.REELGATE_FIREFOX_PATH;
  if (!path) throw new Error('REELGATE_FIREFOX_PATH is not set: run the Firefox suite with `npm run test:firefox`.');
  return launchFirefox(path);
}

/**
 * Runs `fn` in the page every 100 ms until it returns something truthy, and resolves with that; after `timeout` ms
 * fails with `message` (and what `describe`, run in the page, reports at that moment). Polled from here rather than
 * with page.waitForFunction, which builds its poller with `new Function()` in the page: the demo page's CSP (no
 * 'unsafe-eval') forbids that, while Puppeteer's own evaluate calls are not subject to it.
 */
export async function waitFor(page, fn, { timeout, message, describe, args = [] }) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const left = deadline - Date.now();
    const value = left > 0 ? await within(page.evaluate(fn, ...args), Math.max(left, 1000), `${message} (the page did not answer)`) : null;
    if (value) return value;
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let state = '';
  if (describe) {
    try {
      state = ` (${JSON.stringify(await within(page.evaluate(describe, ...args), 5000, 'describe'))})`;
    } catch (inner) {
      state = ` (its state could not be read: ${inner.message})`;
    }
  }
  throw new Error(`${message} within ${timeout / 1000} s${state}`);
}

/** A promise that rejects with `message` after `ms`, for awaits outside the page. */
export function within(promise, ms, message) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${message} within ${ms / 1000} s`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

async function json(path) {
  const response = await fetch(`${workerUrl()}${path}`, { signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

let chosen = null;
/**
 * The media the playback tests play: the first of SITE's media on the demo page (its playlists' items, then its
 * players' own media) whose public answer has an HLS source and a duration of at least 60 s. Resolves with
 * `{ id, duration, hls }` (hls: the HLS source's URL as the API gives it).
 */
export async function hlsMedia() {
  if (chosen) return chosen;
  const page = await fetch(`${workerUrl()}/`, { signal: AbortSignal.timeout(15_000) }).then((r) => r.text());
  const attrs = (tag, name) => [...page.matchAll(new RegExp(`<${tag}\\b[^>]*>`, 'g'))]
    .map(([element]) => ({ site: /\bsite="([^"]+)"/.exec(element)?.[1], value: new RegExp(`\\b${name}="([^"]+)"`).exec(element)?.[1] }))
    .filter((a) => a.site === SITE && a.value).map((a) => a.value);
  const onPage = attrs('reel-player', 'media');
  const ids = [];
  for (const playlist of attrs('reel-playlist', 'playlist')) {
    const feed = await json(`/api/sites/${SITE}/playlists/${playlist}?page_length=50`);
    for (const item of feed.items) if (!ids.includes(item.id)) ids.push(item.id);
  }
  // Media the demo page's own players show come last: the page under test is cleared of them, but their requests
  // would still be among its resource entries.
  const ordered = [...ids.filter((id) => !onPage.includes(id)), ...onPage.filter((id) => !ids.includes(id)),
    ...ids.filter((id) => onPage.includes(id))];
  const looked = [];
  for (const id of ordered) {
    const media = await json(`/api/sites/${SITE}/media/${id}`);
    const hls = media.sources.find((s) => s.type === HLS);
    looked.push(`${id}: ${hls ? 'HLS' : 'no HLS'}, ${media.duration} s`);
    if (hls && media.duration >= 60) {
      chosen = { id, duration: media.duration, hls: hls.url };
      return chosen;
    }
  }
  throw new Error(`no media of site ${SITE} on the demo page has an HLS source and lasts 60 s or more: ${looked.join('; ')}`);
}

/**
 * A new tab on the worker's demo page (`/`, which loads /embed/reelgate.js) once `<reel-player>` is defined. Before
 * any of the page's scripts run, the page keeps every `reel-*` event it sees (window.__reelEvents: type, the
 * element's `id`, mediaId, and the rendition's or progress's fields), every CSP violation (window.__cspViolations),
 * and room for 5000 resource entries.
 */
export async function openDemoPage(browser) {
  const page = await browser.newPage();
  await page.evaluateOnNewDocument(() => {
    performance.setResourceTimingBufferSize(5000);
    window.__cspViolations = [];
    window.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations.push(`${event.effectiveDirective} blocked ${event.blockedURI}`);
    }, true);
    window.__reelEvents = [];
    for (const type of ['reel-rendition', 'reel-play', 'reel-progress']) {
      window.addEventListener(type, (event) => {
        window.__reelEvents.push({
          type, target: event.target?.id ?? null, at: Math.round(performance.now()), mediaId: event.mediaId,
          height: event.height, width: event.width, bitrate: event.bitrate, auto: event.auto, quartile: event.quartile,
        });
      }, true);
    }
  });
  await page.goto(`${workerUrl()}/`, { waitUntil: 'load', timeout: 30_000 });
  await waitFor(page, () => customElements.get('reel-player') !== undefined, {
    timeout: 20_000, message: '<reel-player> was never defined on the demo page (/embed/reelgate.js)',
  });
  return page;
}

/**
 * Replaces the demo page's body with one `<reel-player id="under-test" site=SITE media=id>` in a box `width` px
 * wide, and waits until it has its `<video>` (player.video).
 */
export async function mountPlayer(page, mediaId, { width = 960 } = {}) {
  await page.evaluate((site, media, px) => {
    const box = document.createElement('div');
    box.style.inlineSize = `${px}px`;
    const player = document.createElement('reel-player');
    player.id = 'under-test';
    player.setAttribute('site', site);
    player.setAttribute('media', media);
    box.append(player);
    document.body.replaceChildren(box);
  }, SITE, mediaId, width);
  await waitFor(page, () => document.getElementById('under-test')?.video instanceof HTMLVideoElement, {
    timeout: 20_000, message: 'the player never exposed its <video> as player.video',
    describe: () => {
      const player = document.getElementById('under-test');
      return { state: player?.getAttribute('state'), engine: player?.getAttribute('engine'), video: String(player?.video) };
    },
  });
}

/** What the player under test looks like, for failure messages. */
export const describePlayer = () => {
  const player = document.getElementById('under-test');
  const video = player?.video;
  return {
    engine: player?.engine, engineAttribute: player?.getAttribute('engine'), state: player?.getAttribute('state'),
    src: video?.src, currentTime: video?.currentTime, paused: video?.paused, readyState: video?.readyState,
    error: video?.error ? `${video.error.code} ${video.error.message}` : null,
    renditions: window.__reelEvents.filter((e) => e.type === 'reel-rendition' && e.target === 'under-test')
      .map((e) => `${e.width}x${e.height}@${e.bitrate}${e.auto ? '' : ' pinned'}`),
    cspViolations: window.__cspViolations,
  };
};

/**
 * Starts the player's video muted (`video.muted = true; await video.play()`); rejects with the reason play() gave, or
 * with the player's state when play() has not settled within 20 s (e.g. no media data ever arrived).
 */
export async function playMuted(page) {
  await page.evaluate(() => {
    const video = document.getElementById('under-test').video;
    video.muted = true;
    window.__play = 'pending';
    video.play().then(() => { window.__play = 'playing'; },
      (error) => { window.__play = `play() was refused: ${error.name}: ${error.message}`; });
  });
  const outcome = await waitFor(page, () => window.__play !== 'pending' && window.__play, {
    timeout: 20_000, message: 'video.play() never settled', describe: describePlayer,
  });
  if (outcome !== 'playing') throw new Error(outcome);
}
