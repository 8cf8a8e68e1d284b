// The framework examples, as `npm run check:apps` built them, against the real worker and sandbox
// (test/ssr/run.mjs started them, RENDER_TOKEN included): the Astro site (demo/ssr-astro, served by its serve.mjs)
// and the plain Node renderer (demo/ssr-node/server.mjs), each rendering a playlist, a player and a "europe" gate on
// the server for its visitor. Visitors come from Berlin and New York (the sandbox's geo fixtures) through
// X-Forwarded-For, which the example servers trust here (TRUST_PROXY=1) and forward to the worker with the token.
// Required: the cards (and the gate's decision) are in the HTML before any script runs; hydration keeps the server's
// DOM, moves nothing and throws nothing; a refused visitor's HTML names no title of the gated shelf, and their browser
// asks nothing of it.
/* global document, customElements */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { devVars } from '../support/dev-workers.mjs';
import { launchChromium, markNodes, marksKept, openHeld, pause, shiftsSince, snapshot, untilUpdated } from './support.mjs';

const worker = process.env.REELGATE_TEST_WORKER?.replace(/\/$/, '');
const root = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = devVars().RENDER_TOKEN;

const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';
const SITE = 'vbQmzoYd';
const SHELF = 'DGRTLuft';
const EUROPE_SITE = '93QufRA9';
const LIVE_MUSIC = 'TwZWDpHr';

const EXAMPLES = [
  { name: 'Astro (demo/ssr-astro)', script: 'demo/ssr-astro/serve.mjs', client: /\/_astro\// },
  { name: 'Node + @lit-labs/ssr (demo/ssr-node)', script: 'demo/ssr-node/server.mjs', client: /\/client\.js$|\/chunk-/ },
];

/** The worker's answer for `path` as `visitor` sees it, asked as a render server does (the token, the address). */
async function asVisitor(path, visitor) {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${worker}${path}`, {
      headers: { authorization: `Bearer ${TOKEN}`, 'x-reelgate-visitor-ip': visitor },
    });
    const body = await response.text();
    if (response.ok) return JSON.parse(body);
    // The worker's budget is small and shared by the run: a cold miss may wait its turn (apps.test.ts does the same).
    if (response.status !== 429 || attempt === 4) throw new Error(`${path} as ${visitor}: ${response.status} ${body}`);
    await pause(1000 * Number(response.headers.get('retry-after') ?? 1));
  }
}

/** Starts an example server on a free port; resolves with its origin once it listens. */
function start(script) {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { ...process.env, PORT: '0', TRUST_PROXY: '1', REELGATE_ENDPOINT: worker, REELGATE_RENDER_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${log}`)), 30_000);
    child.stderr.on('data', (chunk) => { log += chunk; });
    child.stdout.on('data', (chunk) => {
      log += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(log)?.[0];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child, log: () => log });
      }
    });
    child.on('exit', (code) => reject(new Error(`${script} exited (${code}):\n${log}`)));
  });
}

/** The page's HTML as `visitor` gets it. */
async function html(url, visitor) {
  const response = await fetch(url, { headers: { 'x-forwarded-for': visitor } });
  assert.equal(response.status, 200, `${url} as ${visitor}`);
  assert.match(response.headers.get('cache-control') ?? '', /private/, 'a page rendered for its visitor is private');
  return response.text();
}

/** The HTML of an element's declarative shadow root, found by a unique attribute of the element. */
function shadowOf(page, marker) {
  const start = page.indexOf(marker);
  assert.ok(start >= 0, `${marker} is in the page`);
  const open = page.indexOf('<template shadowroot', start);
  return page.slice(open, page.indexOf('</template>', open));
}

/** Text as Lit SSR writes it into HTML (@lit-labs/ssr's escapeHtml). */
const plain = (text) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

describe('the framework examples render on the server and hydrate in Chromium', { skip: !worker && 'no worker (REELGATE_SKIP_INTEGRATION=1)' }, () => {
  let browser;
  let shelf;
  let gated;
  const servers = [];

  before(async () => {
    // What the pages will show, asked one at a time so that the pages' own requests find it cached.
    shelf = await asVisitor(`/api/sites/${SITE}/playlists/${SHELF}?page=1&page_length=5`, BERLIN);
    await asVisitor(`/api/sites/${SITE}/media/${shelf.items[0].id}`, BERLIN);
    await asVisitor('/api/gate/europe', BERLIN);
    await asVisitor(`/api/sites/${SITE}/players/RkWDvjNV`, BERLIN);
    gated = await asVisitor(`/api/sites/${EUROPE_SITE}/playlists/${LIVE_MUSIC}?page=1&page_length=3`, BERLIN);
    assert.ok(shelf.items.length === 5 && gated.items.length === 3, 'the sandbox has the shelves');
    for (const example of EXAMPLES) servers.push(await start(example.script));
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    for (const { child } of servers) child.kill('SIGTERM');
  });

  for (const [index, example] of EXAMPLES.entries()) {
    describe(example.name, () => {
      it('writes the cards, the player and the decision into the HTML, and nothing gated for a refused visitor', async () => {
        const { url } = servers[index];
        const berlin = await html(url, BERLIN);
        const newYork = await html(url, NEW_YORK);
        for (const page of [berlin, newYork]) {
          const cards = shadowOf(page, 'id="food-shelf"');
          for (const item of shelf.items) assert.ok(cards.includes(`part="card-title"><!--lit-part-->${plain(item.title)}`), `card "${item.title}"`);
          assert.ok(shadowOf(page, '<reel-player').includes(plain(shelf.items[0].title)), 'the player names its media');
          assert.match(page, /<script type="application\/ld\+json">/, 'the page has its JSON-LD');
        }
        assert.match(berlin, /<reel-geo-gate[^>]*state="allowed"/, 'Berlin: the gate allowed, in the HTML');
        for (const item of gated.items) assert.ok(berlin.includes(plain(item.title)), `Berlin: the gated card "${item.title}"`);
        assert.match(newYork, /<reel-geo-gate[^>]*state="denied"/, 'New York: the gate refused, in the HTML');
        assert.match(newYork, /not in United States/, 'New York: the reason, in words');
        for (const item of gated.items) {
          assert.ok(!newYork.includes(item.title) && !newYork.includes(plain(item.title)), `New York: no gated title ("${item.title}")`);
          assert.ok(!newYork.includes(item.id), `New York: no gated id (${item.id})`);
        }
        assert.ok(!newYork.includes(gated.playlist.title), 'New York: not the gated shelf\'s title');
      });

      for (const [who, visitor] of [['Berlin', BERLIN], ['New York', NEW_YORK]]) {
        it(`hydrates what the server rendered for ${who} without rendering it again or moving it`, async () => {
          const opened = await openHeld(browser, servers[index].url, { held: example.client, headers: { 'x-forwarded-for': visitor } });
          const { page } = opened;
          // Before any script: every element's declarative shadow DOM, the shelf's five cards in it.
          const painted = await page.evaluate(() => ({
            undefinedTags: [...document.querySelectorAll('reel-playlist, reel-player, reel-geo-gate')]
              .filter((el) => !customElements.get(el.localName) && el.shadowRoot).length,
            cards: document.querySelector('#food-shelf').shadowRoot.querySelectorAll('[part="card"]').length,
          }));
          assert.deepEqual(painted, { undefinedTags: 4, cards: 5 }, 'the server\'s DOM, painted before the script');
          const before = await snapshot(page);
          const marked = await markNodes(page);
          const released = await opened.release();
          await untilUpdated(page);
          const kept = await marksKept(page);
          assert.equal(kept.kept, marked, `hydration kept the server's ${marked} nodes (${kept.kept} left)`);
          const hydrated = await snapshot(page);
          assert.deepEqual(hydrated.map((el) => el.rect), before.map((el) => el.rect), 'hydration moved nothing');
          for (const [i, el] of before.entries()) {
            if (el.tag === 'reel-playlist') assert.equal(hydrated[i].shadow, el.shadow, `${el.id}: the same shadow DOM after hydration`);
          }
          await page.waitForNetworkIdle({ idleTime: 500, timeout: 20_000 });
          assert.deepEqual(await shiftsSince(page, released, { toolbar: false }), [],
            'no layout shift from hydration on (the player\'s toolbar filling its reserved row aside)');
          assert.deepEqual(opened.errors, [], 'nothing thrown in the page');
          const gate = await page.evaluate(() => document.querySelector('reel-geo-gate').getAttribute('state'));
          assert.equal(gate, visitor === BERLIN ? 'allowed' : 'denied');
          const asked = opened.requests.filter((url) => url.includes(`/api/sites/${EUROPE_SITE}/`) || url.includes('/api/gate/'));
          assert.deepEqual(asked, [], 'the gate and the gated shelf came with the page: the browser asked for neither');
          await page.close();
        });
      }
    });
  }
});
