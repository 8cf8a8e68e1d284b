// Each of the four elements, from the packed package (test/ssr/run.mjs unpacked `npm pack`'s tarball into a
// throwaway app), rendered on the server with @lit-labs/ssr and hydrated in Chromium with @lit-labs/ssr-client's
// hydration support. For each case, the same markup is served twice by this file's server:
//   - server-rendered: Lit SSR's HTML (declarative shadow DOM), with the hydration script held back until the page's
//     first paint has been measured; then the script runs;
//   - client-only: the markup alone, rendered by the same script.
// Required: nothing thrown (on the server or in the page); declarative shadow DOM painted before any script ran; the
// server's nodes kept by hydration (not rendered again); no layout shift from hydration on, and the same boxes; and,
// once both pages have settled, the same state and shadow DOM as the client-only render. The worker's answers are
// fixtures (test/ssr/fixtures.mjs), given as `data` where the publisher's server had them, else answered here.
/* global document, customElements */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { html } from 'lit';
import { importTs } from '../support/import-ts.mjs';
import * as fixtures from './fixtures.mjs';
import { launchChromium, markNodes, marksKept, openHeld, pause, shiftsSince, snapshot, untilUpdated } from './support.mjs';

const app = process.env.REELGATE_SSR_APP;
if (!app) throw new Error('REELGATE_SSR_APP is not set: run this suite with `npm run test:ssr`.');
const root = fileURLToPath(new URL('../../', import.meta.url));
const { loadLanguage, renderToString } = await import(pathToFileURL(join(app, 'render.mjs')).href);
// A German visitor's elements say `lang="de"`: their server render is German once the pack is loaded, as a publisher's
// server does before rendering (components/docs/languages.md).
await loadLanguage('de');

const { SITE, PLAYLIST, MEDIA, PLAYER } = fixtures;
/** How long the stub worker takes to answer: long enough that hydration is checked before any answer lands. */
const ANSWER_DELAY_MS = 400;

const attr = (value) => JSON.stringify(value).replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;');

/** A Lit template of exactly this markup (what a publisher's template with these attributes would be). */
function template(markup) {
  const strings = [markup];
  strings.raw = [markup];
  return html(strings);
}

/** The cases: each element with the data its server had (or none), as a publisher writes it. */
function cases(origin) {
  const feed = attr(fixtures.feed(origin));
  return [
    ['<reel-playlist> with the feed its server fetched: the cards',
      `<reel-playlist id="shelf" site="${SITE}" playlist="${PLAYLIST}" page-size="4" data='${feed}'></reel-playlist>`],
    ['<reel-playlist> without data: the skeleton, then the cards it fetches',
      `<reel-playlist site="${SITE}" playlist="${PLAYLIST}" page-size="4"></reel-playlist>`],
    ['<reel-player> with its media (and a configuration it loads in the browser)',
      `<reel-player site="${SITE}" media="${MEDIA}" player="${PLAYER}" ratio="16:9" data='${attr(fixtures.media(origin))}'></reel-player>`],
    ['<reel-player> without data: its loading frame, then the media',
      `<reel-player site="${SITE}" media="${MEDIA}"></reel-player>`],
    ['<reel-player> following a playlist, both with their data',
      `<reel-player site="${SITE}" media="${MEDIA}" for="linked" data='${attr(fixtures.media(origin))}'></reel-player>
       <reel-playlist id="linked" site="${SITE}" playlist="${PLAYLIST}" page-size="4" data='${feed}'></reel-playlist>`],
    ['<reel-player-config> with the configuration',
      `<reel-player-config site="${SITE}" player="${PLAYER}" data='${attr(fixtures.player())}'></reel-player-config>`],
    ['<reel-player-config> without data: the skeleton, then the panel',
      `<reel-player-config site="${SITE}" player="${PLAYER}"></reel-player-config>`],
    ['<reel-geo-gate> that allowed, with a playlist inside and its data',
      `<reel-geo-gate policy="europe" data='${attr(fixtures.gate('europe', true))}'>
         <p slot="denied">Europe only.</p>
         <reel-playlist site="${SITE}" playlist="${PLAYLIST}" page-size="2" data='${attr(fixtures.feed(origin, 2))}'></reel-playlist>
       </reel-geo-gate>`],
    ['<reel-geo-gate> that refused, with a playlist inside that asks for nothing',
      `<reel-geo-gate policy="asia" data='${attr(fixtures.gate('asia', false))}'>
         <p slot="denied">Asia only.</p>
         <reel-playlist site="${SITE}" playlist="${PLAYLIST}" page-size="2"></reel-playlist>
       </reel-geo-gate>`,
      // The one difference, and why: on the server a playlist cannot see the gate around it (Lit SSR gives an element no
      // parent), so it renders as one about to load, whose live region says "Loading videos…"; in the browser the gate
      // holds it (it loads nothing) and a client-only render says nothing there. Hydration keeps the server's text (Lit
      // does not compare text) until the region next changes. The playlist is not shown at all (the gate refused), and
      // its state and everything else are the client's.
      (el) => (el.tag === 'reel-playlist'
        ? { ...el, shadow: el.shadow.replace('role="status">Loading videos…</div>', 'role="status"></div>') } : el)],
    ['<reel-playlist> for a German visitor, with its feed: German from the server on, and hydrated as it is',
      `<reel-playlist lang="de" site="${SITE}" playlist="${PLAYLIST}" page-size="4" data='${feed}'></reel-playlist>`],
    ['<reel-geo-gate> that refused a German visitor: the reason in German from the server on',
      `<reel-geo-gate lang="de" policy="asia" data='${attr(fixtures.gate('asia', false))}'><p>Asia only.</p></reel-geo-gate>`],
    ['<reel-geo-gate> without data: pending, then the decision it asks for',
      `<reel-geo-gate policy="europe"><p slot="denied">Europe only.</p><p>Shown in Europe.</p></reel-geo-gate>`],
  ];
}

const page = (body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SSR</title>
<link rel="stylesheet" href="/reelgate.css">
<style>body { margin: 0; font: 16px/1.4 system-ui, sans-serif; } main { inline-size: 720px; margin: 0 auto; }</style>
</head><body><main>${body}<p id="below">What follows the elements.</p></main>
<script type="module" src="/public/client.js"></script></body></html>`;

const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"><rect width="16" height="9" fill="#7a8"/></svg>';

let server;
let origin;
let browser;
/** Pages by path: the test puts them here before opening them. */
const pages = new Map();
/** API requests the stub answered. */
const asked = [];

before(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const send = (status, type, body) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    try {
      if (pages.has(url.pathname)) return send(200, 'text/html; charset=utf-8', pages.get(url.pathname));
      if (url.pathname.startsWith('/public/')) {
        return send(200, 'text/javascript', await readFile(join(app, 'public', url.pathname.slice(8))));
      }
      if (url.pathname.startsWith('/embed/')) {
        // The script-tag bundle and its chunks, as `npm run build` left them (the worker serves the same files).
        return send(200, 'text/javascript', await readFile(join(root, 'dist', url.pathname.slice(7))));
      }
      if (url.pathname === '/reelgate.css') {
        // The geometry before definition, as a publisher links it (the packed package's reelgate/reelgate.css).
        return send(200, 'text/css', await readFile(join(app, 'node_modules/reelgate/dist/reelgate.css')));
      }
      if (url.pathname.startsWith('/img/')) return send(200, 'image/svg+xml', svg);
      if (url.pathname === '/video/sample.mp4') {
        return send(200, 'video/mp4', await readFile(join(root, 'demo/sandbox/media/sample.mp4')));
      }
      if (url.pathname.startsWith('/api/')) {
        asked.push(url.pathname);
        await pause(ANSWER_DELAY_MS);
        const json = (body) => send(200, 'application/json', JSON.stringify(body));
        const parts = url.pathname.split('/');
        if (parts[2] === 'gate') return json(fixtures.gate(parts[3], parts[3] === 'europe'));
        if (parts[4] === 'playlists') return json(fixtures.feed(origin, Number(url.searchParams.get('page_length'))));
        if (parts[4] === 'media') return json(fixtures.media(origin));
        if (parts[4] === 'players') return json(fixtures.player());
      }
      send(404, 'application/json', JSON.stringify({ errors: [{ code: 'not_found', description: 'No such resource.' }] }));
    } catch (error) {
      send(500, 'text/plain', String(error));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Opens `path`, lets it settle (every element updated, the stub's answers in), and reads it. */
async function settled(opened) {
  await untilUpdated(opened.page);
  await opened.page.waitForNetworkIdle({ idleTime: ANSWER_DELAY_MS + 200, timeout: 20_000 });
  await untilUpdated(opened.page);
  return snapshot(opened.page);
}

describe('the packed package rendered with @lit-labs/ssr, hydrated in Chromium', () => {
  it('renders every case on the server without touching a browser global', async () => {
    // Node has no `window`, `document`, `Element`, observers or `matchMedia`: a reference to any of them throws.
    for (const global of ['window', 'document', 'Element', 'ShadowRoot', 'ResizeObserver', 'IntersectionObserver', 'matchMedia']) {
      assert.equal(global in globalThis, false, `${global} is defined in this Node`);
    }
    for (const [name, markup] of cases('http://127.0.0.1:1')) {
      const out = await renderToString(template(markup));
      assert.match(out, /<template shadowroot(mode)?="open"/, name);
    }
  });

  for (const [index, [name]] of cases('').entries()) {
    it(name, async () => {
      const [, markup, known = (el) => el] = cases(origin)[index];
      const ssr = await renderToString(template(markup));
      pages.set(`/ssr/${index}`, page(ssr));
      pages.set(`/client/${index}`, page(markup));
      const elements = (markup.match(/<reel-[a-z-]+/g) ?? []).length;

      // The server-rendered page, its script held back.
      const held = await openHeld(browser, `${origin}/ssr/${index}`, { held: /\/public\// });
      const { page: tab } = held;
      const painted = await tab.evaluate(() => [...document.querySelectorAll('reel-playlist, reel-player, reel-player-config, reel-geo-gate')]
        .map((el) => ({ tag: el.localName, defined: !!customElements.get(el.localName), shadow: el.shadowRoot?.children.length ?? 0 })));
      assert.equal(painted.length, elements, 'every element is in the page');
      for (const el of painted) {
        assert.equal(el.defined, false, `${el.tag} is not defined before the script runs`);
        assert.ok(el.shadow > 0, `${el.tag} has its declarative shadow DOM before any script`);
      }
      const before = await snapshot(tab);
      const marked = await markNodes(tab);
      const released = await held.release();
      await untilUpdated(tab);
      const hydrated = await snapshot(tab);
      const kept = await marksKept(tab);
      assert.equal(kept.kept, marked, `hydration kept the server's ${marked} nodes (${kept.kept} left)`);
      assert.deepEqual(hydrated.map((el) => el.rect), before.map((el) => el.rect), 'hydration moved nothing');
      const afterSsr = await settled(held);
      assert.deepEqual(await shiftsSince(tab, released), [], 'no layout shift from hydration on');
      assert.deepEqual(held.errors, [], 'nothing thrown in the server-rendered page');

      // The same markup rendered in the browser alone.
      const plain = await openHeld(browser, `${origin}/client/${index}`, { held: /^$/ });
      await plain.release();
      const clientOnly = await settled(plain);
      assert.deepEqual(plain.errors, [], 'nothing thrown in the client-only page');
      for (const [i, hydratedEl] of afterSsr.entries()) {
        const el = known(hydratedEl);
        const other = clientOnly[i];
        assert.equal(el.state, other.state, `${el.tag}: the same state as a client-only render`);
        assert.equal(el.shadow, other.shadow, `${el.tag}: the same shadow DOM as a client-only render`);
        assert.deepEqual(el.rect, other.rect, `${el.tag}: the same box as a client-only render`);
      }
      await tab.close();
      await plain.page.close();
    });
  }

  it('a German visitor\'s server render is German: the shelf\'s words and the gate\'s refusal', async () => {
    const { default: german } = await importTs(join(root, 'components/shared/i18n/packs/de.ts'));
    const [shelf, gate] = cases('http://127.0.0.1:1').filter(([name]) => name.includes('German visitor'));
    const shelfHtml = await renderToString(template(shelf[1]));
    assert.ok(shelfHtml.includes(german.loadMore), 'the shelf\'s "Load more" in German');
    assert.ok(!shelfHtml.includes('Load more'), 'no English left on the shelf');
    const gateHtml = await renderToString(template(gate[1]));
    assert.ok(gateHtml.includes(german.notHere), 'the gate\'s refusal in German');
  });

  it('the script-tag embed, which has no hydration, renders a server-rendered page afresh: one copy, nothing moved', async () => {
    // Every case with data but the refused gate's (whose playlist the browser holds: see its case).
    const markup = cases(origin).filter(([name, html]) => /data='/.test(html) && !/refused/.test(name))
      .map(([, html]) => html).join('\n');
    const ssr = await renderToString(template(markup));
    pages.set('/embed-page', page(ssr).replace('/public/client.js', '/embed/reelgate.js'));
    const held = await openHeld(browser, `${origin}/embed-page`, { held: /\/embed\/reelgate\.js$/ });
    const { page: tab } = held;
    const before = await snapshot(tab);
    const released = await held.release();
    await untilUpdated(tab);
    const after = await snapshot(tab);
    assert.deepEqual(after.map((el) => el.rect), before.map((el) => el.rect), 'the embed\'s first render has the server\'s boxes');
    for (const [i, el] of after.entries()) {
      assert.equal(el.state, before[i].state, `${el.tag}: the state the server rendered`);
      // Not a second copy after the server's: `attachShadow` emptied the declarative root (components/build-options.mjs).
      assert.equal(el.shadow.split('part="card"').length, before[i].shadow.split('part="card"').length, `${el.tag}: one copy`);
    }
    assert.deepEqual(await shiftsSince(tab, released), [], 'no layout shift');
    assert.deepEqual(held.errors, [], 'nothing thrown');
    await tab.close();
  });

  it('asked the stub worker only for what no server had', async () => {
    // Each case with data asked for nothing but the player's configuration; the refused gate's playlist nothing at all.
    const feeds = asked.filter((path) => path.includes('/playlists/')).length;
    assert.equal(feeds, 2, `feeds asked for: only the playlist without data, once per page (${asked.join(', ')})`);
    assert.equal(asked.filter((path) => path === '/api/gate/asia').length, 0, 'the refused gate asked nothing');
  });
});
