// Section 4: time from data in hand to painted for <reel-playlist> with 100 and 1,000 items, next to the same markup
// built with plain DOM calls in the same page (test/bench/render/page.html), in Chromium through puppeteer-core.
/* global window */ // page.evaluate's function runs in the page
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../support/find-browser.mjs';

const PAGE = new URL('../render/page.html', import.meta.url);
// A 1×1 transparent PNG for every thumbnail, so cards look real without any network.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

function serve(bundle) {
  const page = readFileSync(PAGE);
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://bench').pathname;
    if (path === '/') return response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    if (path === '/reelgate.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    if (path.startsWith('/thumb/')) return response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=3600' }).end(PIXEL);
    response.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function renderCost({ bundlePath, chromium, sizes = [100, 1000], runs = 9 }) {
  const bundle = readFileSync(bundlePath);
  const server = await serve(bundle);
  const profile = mkdtempSync(join(tmpdir(), 'reelgate-bench-chromium-'));
  const removeProfile = () => rmSync(profile, { recursive: true, force: true });
  process.once('exit', removeProfile);
  let browser;
  try {
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      userDataDir: profile,
      args: [...CHROMIUM_ARGS, '--window-size=1280,900'],
      protocolTimeout: 120_000,
    });
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'load', timeout: 30_000 });
    await page.waitForFunction('window.benchReady === true', { timeout: 30_000 });
    const results = await page.evaluate((options) => window.runBench(options), { sizes, runs });
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return results.map((r) => ({
      items: r.items,
      runs: r.runs,
      element_median_ms: round(r.element_median_ms),
      plain_dom_median_ms: round(r.plain_median_ms),
      ratio: round(r.element_median_ms / r.plain_median_ms, 2),
      same_markup: r.element_cards === r.items && r.plain_cards === r.items,
      element_nodes: r.element_nodes,
      plain_dom_nodes: r.plain_nodes,
      element_ms: r.element_ms.map((v) => round(v)),
      plain_dom_ms: r.plain_ms.map((v) => round(v)),
    }));
  } finally {
    await browser?.close().catch(() => {});
    server.close();
    removeProfile();
  }
}

const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
