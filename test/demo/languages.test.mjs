// The demo page in the visitor's language, as a publisher's German page shows it: opened with `?lang=de` (its
// <html lang="de">), every element speaks German (the gate's refusal, the shelf, the player's controls and menus,
// the configuration panel); switched to Arabic with its "Video language" menu, they render again, right to left, with
// no reload. The words expected are the packs' own (test/demo/packs.mjs). This machine's own address is one the
// worker cannot place, so the page's Europe gate refuses it (location_unknown).
/* global document, getComputedStyle */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openChromium } from '../support/chromium-page.mjs';
import { pack, said } from './packs.mjs';

const WORKER = (process.env.REELGATE_TEST_WORKER ?? '').replace(/\/$/, '');
if (!WORKER) throw new Error('REELGATE_TEST_WORKER unset: run this suite with `npm run test:demo`.');

let browser;
let page;
const errors = [];

/**
 * What the page shows at `selector` (a `>>>` path through shadow roots), or null: its text, or its own text only (a
 * label's, without the control inside it).
 */
const read = (selector, property = 'textContent') => page.$(selector)
  .then((el) => el?.evaluate((node, p) => (p === 'ownText'
    ? [...node.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('') : node.textContent).trim(),
  property) ?? null);

/** Waits until `selector` shows `expected` (polled from here: the page's CSP refuses `new Function`). */
async function shows(selector, expected, property = 'textContent', timeout = 30_000) {
  let last;
  for (const deadline = Date.now() + timeout; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    last = await read(selector, property);
    if (last === expected) return;
  }
  assert.fail(`${selector} showed ${JSON.stringify(last)}, not ${JSON.stringify(expected)}`);
}

before(async () => {
  ({ browser, page } = await openChromium());
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
});

after(async () => {
  await browser?.close();
});

describe('the demo page in the visitor\'s language', () => {
  it('?lang=de: the gate\'s refusal, the shelf, the player\'s controls and the settings panel speak German', async () => {
    const german = await pack('de');
    await page.goto(`${WORKER}/?lang=de`, { waitUntil: 'load' });
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
    await shows('#europe reel-geo-gate >>> [part="reason"]', said(german.location_unknown));
    await shows('#europe reel-geo-gate >>> [part="denied"] p', said(german.notHere));
    await shows('#food-shelf >>> [part="load-more"]', said(german.loadMore));
    // The player's playback kit (a chunk of its own) brings its controls: the speed menu, labelled in German.
    await shows('reel-player[for="food-shelf"] >>> [part="toolbar"] label', said(german.speed), 'ownText');
    const { release_channel: channel } = await (await fetch(`${WORKER}/api/sites/vbQmzoYd/players/RkWDvjNV`)).json();
    await shows('reel-player-config >>> [part="channel"]', said(german.releaseChannel, { channel }));
    assert.deepEqual(errors, [], 'nothing thrown, no console error');
  });

  it('switched to Arabic with the page\'s menu: the elements render again in Arabic, right to left, with no reload', async () => {
    const arabic = await pack('ar');
    const loaded = await page.evaluate(() => performance.timeOrigin);
    await page.select('#page-lang', 'ar');
    await shows('#food-shelf >>> [part="load-more"]', said(arabic.loadMore));
    await shows('#europe reel-geo-gate >>> [part="reason"]', said(arabic.location_unknown));
    await shows('reel-player[for="food-shelf"] >>> [part="toolbar"] label', said(arabic.speed), 'ownText');
    assert.equal(await page.evaluate(() => performance.timeOrigin), loaded, 'the page was not reloaded');
    const directions = await page.$$eval('reel-playlist, reel-player, reel-player-config, reel-geo-gate',
      // An element no slot shows (the content of a gate that refused) has no style at all: left out.
      (els) => [...new Set(els.map((el) => getComputedStyle(el).direction).filter(Boolean))]);
    assert.deepEqual(directions, ['rtl']);
    assert.match(await page.url(), /[?&]lang=ar\b/);
    assert.deepEqual(errors, [], 'nothing thrown, no console error');
  });
});
