// `npm run test:package`: the package as people install it (issue "One house, third pass", item 7). After `npm run
// build`, this file
//   1. runs `npm pack` into a temporary directory and reads the tarball's file list: the embed (dist/reelgate.js) and
//      every chunk it loads (dist/reelgate-kit.<hash>.js, which loads dist/reelgate-hls.<hash>.js) are in it, and
//      nothing of the demo page, the operator console or the build's versioned copies is;
//   2. installs the tarball into a scratch app in that directory by unpacking it into the app's
//      node_modules/reelgate (what `npm install <tarball>` puts there; npm itself would also fetch the package's
//      dependencies, lit and hls.js, for the bundler entry, and CI has no registry to fetch them from: the embed needs
//      neither, which step 1 checks - it imports no bare specifier);
//   3. serves that app's page and the installed copy's files from a server of its own (nothing from this repository's
//      dist/), with a stub of the worker's media answer and a small MP4 of the sandbox's (demo/sandbox/media);
//   4. in headless Chromium (test/support/find-browser.mjs: the same browser as the other suites, nothing downloaded)
//      opens the page and proves that the player loads its kit chunk from the installed copy and plays: `playing`
//      fires and currentTime advances.
/* global document */ // page.evaluate's functions run in the page
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, findBrowser } from '../support/find-browser.mjs';
import { media, MEDIA, SITE } from '../ssr/fixtures.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const VIDEO = join(root, 'demo/sandbox/media/sample.mp4');
/** The chunks a file of the embed loads, relative to itself (`import(new URL('./reelgate-kit.<hash>.js', import.meta.url))`). */
/**
 * The chunks a file loads: the ones it names (`reelgate-kit.<hash>.js`…), and the language packs, which the bundle
 * names by language with one hash for the set (`reelgate-lang-${language}.<hash>.js`: every pack of that hash).
 */
const chunksOf = (code) => {
  const packHash = /reelgate-lang-\$\{\w+\}\.([0-9a-f]+)\.js/.exec(code)?.[1];
  const packs = packHash ? files.map((f) => f.slice(5)).filter((f) => f.startsWith('reelgate-lang-') && f.endsWith(`.${packHash}.js`)) : [];
  return [...new Set([...(code.match(/reelgate-[a-z]+\.[0-9a-f]+\.js/g) ?? []), ...packs])];
};

let work;
let app;
let installed;
let files;
let server;
let origin;
let browser;
/** Every request the server answered: [path, status]. */
const served = [];

before(async () => {
  assert.ok(existsSync(join(root, 'dist/reelgate.js')), 'dist/reelgate.js is missing: run `npm run build` first');
  work = mkdtempSync(join(tmpdir(), 'reelgate-pack-'));
  // 1. The tarball, as `npm pack` makes it (the `files` of package.json decide what is in it).
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: root, encoding: 'utf8' })
    .trim().split('\n').pop();
  files = execFileSync('tar', ['-tzf', join(work, tarball)], { encoding: 'utf8' }).trim().split('\n')
    .map((name) => name.replace(/^package\//, ''));
  // 2. The scratch app, with the package installed in its node_modules.
  app = join(work, 'app');
  installed = join(app, 'node_modules', 'reelgate');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', installed, '--strip-components=1']);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch-app', private: true,
    dependencies: { reelgate: `file:../${tarball}` } }));
  writeFileSync(join(app, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Scratch app</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/node_modules/reelgate/dist/reelgate.css">
<script type="module" src="/node_modules/reelgate/dist/reelgate.js"></script>
</head><body style="margin: 0"><div style="inline-size: 640px">
<reel-player site="${SITE}" media="${MEDIA}"></reel-player></div></body></html>`);

  // 3. The app's server: its own files (the installed copy among them), the worker's media answer, the video.
  const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };
  server = createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const send = (status, headers, body) => {
      served.push([url.pathname, status]);
      res.writeHead(status, { 'cache-control': 'no-store', ...headers });
      res.end(body);
    };
    if (url.pathname === `/api/sites/${SITE}/media/${MEDIA}`) {
      return send(200, { 'content-type': 'application/json' }, JSON.stringify(media(origin)));
    }
    if (url.pathname.startsWith('/img/')) {
      return send(200, { 'content-type': 'image/svg+xml' },
        '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"><rect width="16" height="9" fill="#7a8"/></svg>');
    }
    if (url.pathname === '/video/sample.mp4') {
      const bytes = readFileSync(VIDEO);
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (!range) return send(200, { 'content-type': 'video/mp4', 'accept-ranges': 'bytes' }, bytes);
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
      return send(206, { 'content-type': 'video/mp4', 'accept-ranges': 'bytes',
        'content-range': `bytes ${start}-${end}/${bytes.length}` }, bytes.subarray(start, end + 1));
    }
    const path = normalize(join(app, url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname)));
    if ((path + sep).startsWith(app + sep) && existsSync(path) && !path.endsWith(sep)) {
      try {
        return send(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }, readFileSync(path));
      } catch {
        // a folder
      }
    }
    return send(404, { 'content-type': 'text/plain' }, 'not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH || findBrowser().path,
    args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'],
    headless: true,
  });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the package as people install it (npm pack, a scratch app, Chromium)', () => {
  it('ships the embed with every chunk it loads, and nothing of the demo, the console or the versioned copies', () => {
    const embed = readFileSync(join(installed, 'dist/reelgate.js'), 'utf8');
    const wanted = chunksOf(embed);
    assert.ok(wanted.some((name) => name.startsWith('reelgate-kit.')), `dist/reelgate.js names no kit chunk (${wanted})`);
    for (const chunk of wanted) {
      assert.ok(files.includes(`dist/${chunk}`), `the tarball lacks dist/${chunk}, which dist/reelgate.js loads`);
      // A chunk's own chunks (the kit loads hls.js's).
      for (const next of chunksOf(readFileSync(join(installed, 'dist', chunk), 'utf8'))) {
        assert.ok(files.includes(`dist/${next}`), `the tarball lacks dist/${next}, which dist/${chunk} loads`);
      }
    }
    assert.ok(files.some((name) => /^dist\/reelgate-hls\.[0-9a-f]+\.js$/.test(name)), 'the tarball has no hls.js chunk');
    assert.equal(wanted.filter((name) => name.startsWith('reelgate-lang-')).length, 13, 'a chunk for each language pack');
    // Only the chunks the embed can load: a stale chunk of an earlier build would be dead weight.
    const shipped = files.filter((name) => /^dist\/reelgate-/.test(name)).map((name) => name.slice(5));
    const reachable = new Set(wanted.flatMap((c) => [c, ...chunksOf(readFileSync(join(installed, 'dist', c), 'utf8'))]));
    assert.deepEqual(shipped.filter((name) => !reachable.has(name)), [], 'chunks nothing loads');
    const unintended = files.filter((name) => /^dist\/(index\.html|demo\.|favicon|embed-tag|admin\/)/.test(name)
      || /^dist\/reelgate\.[0-9a-f]+\.js$/.test(name) || name.startsWith('components/console/'));
    assert.deepEqual(unintended, [], 'files of the demo page, the console or the versioned copies are in the tarball');
  });

  it('needs no dependency for the embed: its files import no bare specifier', () => {
    for (const name of ['reelgate.js', ...files.filter((f) => /^dist\/reelgate-/.test(f)).map((f) => f.slice(5))]) {
      const code = readFileSync(join(installed, 'dist', name), 'utf8');
      const bare = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'`]([^"'`]+)["'`]/g)].map((m) => m[1])
        .filter((specifier) => !/^(\.{1,2}\/|\/|https?:|data:|blob:)/.test(specifier) && !specifier.includes('${'));
      assert.deepEqual(bare, [], `dist/${name} imports a package`);
    }
  });

  it('plays in Chromium from the installed copy: the player loads its kit chunk from node_modules/reelgate', async () => {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${origin}/`, { waitUntil: 'load' });
      await page.waitForFunction(() => document.querySelector('reel-player')?.getAttribute('state') === 'complete',
        { timeout: 20_000 });
      const played = await page.evaluate(async () => {
        const video = document.querySelector('reel-player').shadowRoot.querySelector('video');
        let playing = false;
        video.addEventListener('playing', () => { playing = true; });
        video.muted = true;
        await video.play();
        const until = Date.now() + 20_000;
        while (Date.now() < until && !(playing && video.currentTime > 0.5)) await new Promise((r) => setTimeout(r, 100));
        return { playing, currentTime: video.currentTime, error: video.error?.code ?? null };
      });
      assert.equal(played.error, null, 'the video failed');
      assert.equal(played.playing, true, '`playing` never fired');
      assert.ok(played.currentTime > 0.5, `the video never advanced (at ${played.currentTime})`);
      const kit = served.filter(([path]) => /\/reelgate-kit\.[0-9a-f]+\.js$/.test(path));
      assert.equal(kit.length, 1, `the kit chunk was asked for once (${JSON.stringify(served)})`);
      assert.match(kit[0][0], /^\/node_modules\/reelgate\/dist\/reelgate-kit\.[0-9a-f]+\.js$/);
      assert.equal(kit[0][1], 200, 'the installed copy answered the kit chunk');
      assert.deepEqual(served.filter(([, status]) => status >= 400), [], 'every request of the page was answered');
      assert.deepEqual(errors, [], 'nothing thrown in the page');
    } finally {
      await page.close();
    }
  });
});
