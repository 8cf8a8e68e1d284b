// Section 3, the player's chunks: what `npm run build` wrote beside the embed (dist/reelgate-kit.<hash>.js,
// the playback kit every page with a player loads with its first media; dist/reelgate-hls.<hash>.js, hls.js, loaded
// only by a player that plays HLS through MSE), their weight (min, gzip, brotli), and how long a page takes to load
// and run each one with a dynamic import() in Chromium: at loopback speed (parse and evaluation alone) and under the
// network Lighthouse's mobile audit simulates (slow 4G: 1.6 Mbit/s down, 150 ms round trip; DevTools throttling).
// Each is the median of `runs` fresh loads (the server sends no-store; a new page each time), gzip on the wire.
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../support/find-browser.mjs';

const SLOW_4G = { download: (1.6 * 1024 * 1024) / 8, upload: (750 * 1024) / 8, latency: 150 };

/** The chunks in dist/, by part. */
export function chunkFiles(dist) {
  const files = readdirSync(dist);
  const find = (part) => files.find((name) => new RegExp(`^reelgate-${part}\\.[A-Za-z0-9_-]+\\.js$`).test(name));
  return { kit: find('kit'), hls: find('hls') };
}

/**
 * Every file name the embed imports, as components/build-options.mjs `embedPlugins` takes them: the player's chunks,
 * the configuration panel's and the refusal's, and the language packs (one hash for the set).
 */
export function embedChunkNames(dist) {
  const files = readdirSync(dist);
  const find = (part) => files.find((name) => new RegExp(`^reelgate-${part}\\.[A-Za-z0-9_-]+\\.js$`).test(name));
  const packs = files.map((name) => /^reelgate-lang-([\w-]+)\.([A-Za-z0-9_-]+)\.js$/.exec(name)).filter(Boolean);
  return {
    ...chunkFiles(dist), panel: find('panel'), refusal: find('refusal'),
    lang: { hash: packs[0]?.[2], languages: packs.map((match) => match[1]).sort() },
  };
}

export function chunkSizes(dist) {
  const out = {};
  for (const [part, file] of Object.entries(chunkFiles(dist))) {
    if (!file) throw new Error(`dist/ has no reelgate-${part}.<hash>.js (npm run build)`);
    const bytes = readFileSync(join(dist, file));
    out[part] = {
      file: `dist/${file}`,
      min_bytes: bytes.length,
      min_gzip_bytes: gzipSync(bytes, { level: 9 }).length,
      min_brotli_bytes: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
  }
  return out;
}

function serve(dist) {
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, 'http://x').pathname.slice(1));
    if (name === '') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>chunk load</title>');
      return;
    }
    if (!/^reelgate-(kit|hls)\.[A-Za-z0-9_-]+\.js$/.test(name)) return void res.writeHead(404).end();
    const body = gzipSync(readFileSync(join(dist, name)), { level: 9 });
    res.writeHead(200, { 'content-type': 'text/javascript', 'content-encoding': 'gzip', 'cache-control': 'no-store' });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value) => Math.round(value * 10) / 10;

export async function chunkLoad({ dist, chromium, runs = 5 }) {
  const files = chunkFiles(dist);
  const server = await serve(dist);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const profile = mkdtempSync(join(tmpdir(), 'reelgate-bench-chunks-'));
  let browser;
  try {
    browser = await puppeteer.launch({ executablePath: chromium, headless: true, userDataDir: profile,
      args: [...CHROMIUM_ARGS], protocolTimeout: 120_000 });
    const out = {};
    for (const [network, conditions] of [['loopback', null], ['slow_4g', SLOW_4G]]) {
      for (const [part, file] of Object.entries(files)) {
        const times = [];
        for (let i = 0; i < runs; i++) {
          const page = await browser.newPage();
          await page.goto(`${origin}/`);
          await page.emulateNetworkConditions(conditions);
          times.push(await page.evaluate(async (url) => {
            const start = performance.now();
            await import(url);
            return performance.now() - start;
          }, `${origin}/${file}`));
          await page.close();
        }
        (out[part] ??= {})[`${network}_median_ms`] = round(median(times));
      }
    }
    return { runs, slow_4g: SLOW_4G, ...out };
  } finally {
    await browser?.close().catch(() => {});
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
