// The harness itself: Firefox, driven by Puppeteer over WebDriver BiDi, loads the worker's demo page and its embed.
/* global document, customElements, location */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openDemoPage, openFirefox, workerUrl } from './support.mjs';

let browser;
before(async () => {
  browser = await openFirefox();
});
after(async () => {
  await browser?.close();
});

test('Firefox loads the demo page from the worker and defines <reel-player> from /embed/reelgate.js', { timeout: 60_000 }, async () => {
  const page = await openDemoPage(browser);
  try {
    assert.match(await browser.version(), /^firefox\//i);
    const seen = await page.evaluate(() => ({
      origin: location.origin,
      player: typeof customElements.get('reel-player'),
      embed: performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname === '/embed/reelgate.js'),
      players: document.querySelectorAll('reel-player').length,
    }));
    assert.deepEqual(seen, { origin: workerUrl(), player: 'function', embed: true, players: seen.players });
    assert.ok(seen.players > 0, 'the demo page shows at least one <reel-player>');
  } finally {
    await page.close();
  }
});
