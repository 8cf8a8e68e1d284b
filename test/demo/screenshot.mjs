#!/usr/bin/env node
// `npm run screenshot:demo`: the demo page in German and in Arabic (demo/screenshot-de.png, demo/screenshot-ar.png),
// next to the English one (demo/screenshot.png), as the components README shows them. Starts the worker and sandbox
// as the demo suite does and photographs the page's first 2000 px (as the English one) once every element has
// settled. Not a test: run it by hand when the page or the elements change.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { startDevWorkers } from '../support/dev-workers.mjs';
import { CHROMIUM_ARGS, findBrowser } from '../support/find-browser.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const workers = await startDevWorkers({ label: 'screenshot', workerPort: 24987, sandboxPort: 24988, inspectorPort: 25087,
  statePrefix: 'reelgate-demo-shot-' });
let browser;
try {
  browser = await puppeteer.launch({ executablePath: findBrowser().path, headless: true,
    args: [...CHROMIUM_ARGS, '--window-size=1280,2000'] });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 2000 });
  for (const lang of ['de', 'ar']) {
    await page.goto(`${workers.workerUrl}/?lang=${lang}`, { waitUntil: 'networkidle0' });
    // Every element decided and the player's kit in (its toolbar), then a moment for posters to paint.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await pause(200)) {
      const states = await page.$$eval('reel-playlist, reel-player, reel-player-config, reel-geo-gate',
        (els) => els.map((el) => el.getAttribute('state')));
      if (states.every((s) => s && !['loading', 'pending'].includes(s)) && await page.$('reel-player >>> [part="toolbar"] label')) break;
    }
    await pause(1500);
    const out = join(root, `demo/screenshot-${lang}.png`);
    await page.screenshot({ path: out });
    console.log(`screenshot: ${out}`);
  }
} finally {
  await browser?.close();
  await workers.stop();
}
