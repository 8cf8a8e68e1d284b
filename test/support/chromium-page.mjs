// A headless Chromium and one page of the given size, for the suites that drive the worker's own pages with Puppeteer
// (the console, the demo). The browser is the one the suite's runner found (REELGATE_CHROMIUM_PATH).
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS } from './find-browser.mjs';

export async function openChromium({ width = 1280, height = 1000 } = {}) {
  const browser = await puppeteer.launch({
    executablePath: process.env.REELGATE_CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, `--window-size=${width},${height}`],
    protocolTimeout: 60_000,
  });
  const page = await browser.newPage();
  await page.setViewport({ width, height });
  return { browser, page };
}
