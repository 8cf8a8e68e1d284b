#!/usr/bin/env node
// `npm run screenshot:console`: the README's picture of the operator console (components/console/screenshot.png).
// Starts the worker and sandbox as the console suite does, sends a few minutes of mixed traffic (feeds, geo gates from
// allowed and refused places, playback, gateway calls under a key), signs in and photographs the overview. Not a test:
// run it by hand when the console changes. CONSOLE_SHOT_MINUTES (default 4) sets how long the traffic runs.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { devVars, startDevWorkers } from '../support/dev-workers.mjs';
import { CHROMIUM_ARGS, findBrowser } from '../support/find-browser.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(root, 'components/console/screenshot.png');
const MINUTES = Number(process.env.CONSOLE_SHOT_MINUTES ?? 4);
const ADMIN = { authorization: `Bearer ${devVars().ADMIN_TOKEN}` };
const VISITORS = ['192.0.2.30', '192.0.2.10', '192.0.2.21', '192.0.2.50', '198.51.100.13', '203.0.113.250'];
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * The element at a `>>>` (shadow-piercing) selector, polled from here: page.waitForSelector polls with `new Function()`
 * in the page, which the console's CSP (no 'unsafe-eval') refuses.
 */
async function element(page, selector, timeout = 30_000) {
  for (const deadline = Date.now() + timeout; Date.now() < deadline; await pause(200)) {
    const found = await page.$(selector);
    if (found) return found;
  }
  throw new Error(`no ${selector} within ${timeout / 1000} s`);
}

const workers = await startDevWorkers({ label: 'screenshot', workerPort: 22987, sandboxPort: 22988, inspectorPort: 23087,
  statePrefix: 'reelgate-shot-', migrate: true });
let browser;
try {
  const { workerUrl } = workers;
  const visit = (path, ip) => fetch(path.startsWith('http') ? path : `${workerUrl}${path}`, { headers: { 'x-reelgate-dev-ip': ip } })
    .then((r) => r.arrayBuffer()).catch(() => undefined);
  const made = await (await fetch(`${workerUrl}/admin/keys`, {
    method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'CMS importer', scopes: ['read', 'write'], sites: ['*'] }),
  })).json();
  const key = { authorization: `Bearer ${made.key}` };
  const end = Date.now() + MINUTES * 60_000;
  for (let round = 0; Date.now() < end; round += 1) {
    const ip = VISITORS[round % VISITORS.length];
    await visit('/api/sites/vbQmzoYd/playlists/DGRTLuft', ip);
    const feed = await fetch(`${workerUrl}/api/sites/93QufRA9/playlists/TwZWDpHr`, { headers: { 'x-reelgate-dev-ip': ip } })
      .then((r) => (r.ok ? r.json() : null)).catch(() => null);
    const poster = feed?.items?.find((item) => item.thumbnail)?.thumbnail;
    if (poster) await visit(poster, ip);
    await visit('/api/gate/europe', ip);
    if (round % 3 === 0) await fetch(`${workerUrl}/v2/sites/vbQmzoYd/media/?page_length=2`, { headers: key }).then((r) => r.arrayBuffer());
    if (round % 7 === 0) await fetch(`${workerUrl}/v2/sites/vbQmzoYd/media/ZZZZZZZZ/`, { headers: key }).then((r) => r.arrayBuffer());
    await pause(1500);
  }
  browser = await puppeteer.launch({ executablePath: findBrowser().path, headless: true, args: [...CHROMIUM_ARGS] });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900, deviceScaleFactor: 1 });
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  await page.goto(`${workerUrl}/admin/`, { waitUntil: 'load' });
  await (await element(page, 'reel-console >>> #token')).type(devVars().ADMIN_TOKEN);
  await (await element(page, 'reel-console >>> form button[type=submit]')).click();
  await element(page, 'reel-console >>> [data-chart="upstream_calls"] reel-chart');
  await pause(1500);
  await page.screenshot({ path: OUT, fullPage: true });
  console.log(`screenshot: ${OUT}`);
} finally {
  await browser?.close();
  await workers.stop();
}
