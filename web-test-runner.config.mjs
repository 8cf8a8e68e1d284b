// Component suites in real Chromium: the one test/support/find-browser.mjs picks (CHROME_PATH, a system Chromium, or
// the one from @sparticuz/chromium). `npm run test:components` (test/run-browser-tests.mjs) starts the edge worker and
// the sandbox for the integration suite, and passes their address in REELGATE_TEST_WORKER; this server then forwards
// /api/* to it, so the elements under test reach the real worker from their own origin.
/* global document, getComputedStyle, innerWidth, innerHeight */ // frame.evaluate's function runs in the page
import { defaultReporter } from '@web/test-runner';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { playbackGate } from './test/components/support/playback-gate.mjs';
import { summaryReporter } from './test/components/support/summary-reporter.mjs';
import { CHROMIUM_ARGS, findBrowser } from './test/support/find-browser.mjs';

const worker = process.env.REELGATE_TEST_WORKER;
const sandbox = process.env.REELGATE_TEST_SANDBOX;
/** `/__reelgate-test/worker/<path>`: a page of the worker (worker/render/ renders it), asked for as a crawler would. */
const WORKER_PAGE = '/__reelgate-test/worker/';
const unit = 'test/components/**/*.test.ts';
const integration = 'test/components/integration/**/*.test.ts';
const bundle = process.env.REELGATE_TEST_BUNDLE === '1';
/**
 * What `npm run test:components:bundle` runs against the shipped bundle (fromBundle, below). The whole component suite
 * runs once against the sources (`npm run test:components`); against the bundle run what can break there at little
 * cost: the bundle smoke test (test/package/bundle-smoke.test.js: every element of the manifest registered with the
 * public members it promises; a playlist, a player, a configuration and a gate rendering and working from dist/, the
 * player's kit chunk loaded from there), every unit suite of test/components (fake worker, about 20 s: each element's
 * templates, states and events on the minified code) and, with the worker, two integration files: every element's
 * flows against the real worker (real-worker.test.ts) and the player's chunks as versioned files (player-chunks.test.ts).
 * The other integration files test the worker and the player together, the same code either way, and take minutes: they
 * run against the sources only.
 */
const bundleSuites = ['test/package/bundle-smoke.test.js', 'test/components/*.test.ts'];
const bundleIntegration = ['test/components/integration/real-worker.test.ts',
  'test/components/integration/player-chunks.test.ts'];

/**
 * Media bytes held on demand, for the stall test (test/components/integration/player-engine.test.ts): a player starves
 * because no segment reaches it, never because the machine is slow. The `reelgate-hold` command (embedFrames, below)
 * with `{ pattern }` (a regular expression's source) holds every later request of the page whose URL path matches it,
 * to whichever origin (the sandbox's delivery URLs come straight from the sandbox, the worker's playback URLs through
 * apiProxy), through the browser's DevTools connection (Fetch interception, before the request leaves the browser),
 * with the page's HTTP cache off, so that a segment an earlier test fetched under the same URL cannot come from the
 * cache instead. A held request waits, unanswered, until the command with `{ release: true }` lets the held requests
 * and every later one through (and turns the cache back on). Both answer `{ held }`: how many requests were held
 * since the hold began.
 */
const holds = new Map();

async function holdCommand(page, sessionId, payload) {
  const current = holds.get(sessionId);
  if (current) {
    holds.delete(sessionId);
    // Held requests go on; one the page gave up on meanwhile (hls.js's own timeout) is gone, and that is fine.
    await Promise.all(current.paused.map((requestId) => current.client.send('Fetch.continueRequest', { requestId }).catch(() => {})));
    await current.client.send('Fetch.disable').catch(() => {});
    await current.client.detach().catch(() => {});
    await page.setCacheEnabled(true);
  }
  if (!payload?.pattern) return { held: current?.held ?? 0 };
  const pattern = new RegExp(payload.pattern);
  const client = await page.createCDPSession();
  const hold = { client, pattern, paused: [], held: 0 };
  client.on('Fetch.requestPaused', (event) => {
    let path = '';
    try {
      path = new URL(event.request.url).pathname;
    } catch {
      // not a URL with a path
    }
    if (holds.get(sessionId) === hold && event.request.method === 'GET' && pattern.test(path)) {
      hold.held++;
      hold.paused.push(event.requestId);
    } else {
      void client.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => {});
    }
  });
  await page.setCacheEnabled(false);
  await client.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
  holds.set(sessionId, hold);
  return { held: 0 };
}

/**
 * Forwards /api/* (and /oembed, which a CMS asks from its server) to the worker started for the integration suite,
 * headers included (x-reelgate-dev-ip); `/__reelgate-test/worker/<path>` to the worker's `<path>` (a page it serves,
 * without the test page's origin, as a crawler asks); `GET /_sandbox/catalog` to the sandbox (which sends no CORS
 * headers on its controls), so the suites find ids there instead of writing them down; and `POST /_sandbox/hostile-media`
 * with its JSON body, from this server, since the sandbox takes no control write from a page of another origin.
 */
function apiProxy() {
  return async (context, next) => {
    let target = null;
    const write = sandbox && context.method === 'POST' && context.path === '/_sandbox/hostile-media';
    if (worker && (context.path.startsWith('/api/') || context.path === '/oembed')) target = new URL(context.url, worker);
    else if (worker && context.path.startsWith(WORKER_PAGE)) target = new URL(context.url.slice(WORKER_PAGE.length - 1), worker);
    else if (sandbox && context.method === 'GET' && context.path === '/_sandbox/catalog') target = new URL(context.url, sandbox);
    else if (write) target = new URL(context.url, sandbox);
    if (!target) return next();
    const headers = {};
    for (const [name, value] of Object.entries(context.request.headers)) {
      if (!['host', 'connection', 'origin', 'referer', 'cookie', 'content-length'].includes(name)) headers[name] = value;
    }
    let body;
    if (write) {
      const chunks = [];
      for await (const chunk of context.req) chunks.push(chunk);
      body = Buffer.concat(chunks);
    }
    const response = await fetch(target, { method: context.method, headers, body });
    context.status = response.status;
    for (const [name, value] of response.headers) {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name)) {
        context.set(name, value);
      }
    }
    context.body = Buffer.from(await response.arrayBuffer());
  };
}

const chrome = chromeLauncher({
  launchOptions: {
    executablePath: findBrowser().path,
    args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'],
  },
});

/**
 * What the page's network did, from the browser's DevTools connection: each request's URL, method and the status
 * the server answered, even where the page cannot read it (a cross-origin answer without CORS headers, a media
 * element's own requests). `sent` and `ended` are DevTools timestamps (seconds, one clock for every request).
 */
const networkLogs = new Map();

async function networkLog(page, sessionId, action) {
  const current = networkLogs.get(sessionId);
  if (action === 'read') {
    return { entries: current ? [...current.entries.values()].map((e) => ({ ...e, status: e.status ?? current.statuses.get(e.id) ?? null })) : [] };
  }
  await current?.client.detach().catch(() => {});
  networkLogs.delete(sessionId);
  if (action !== 'start') return { entries: [] };
  const client = await page.createCDPSession();
  const log = { client, entries: new Map(), statuses: new Map() };
  const entry = (id) => log.entries.get(id);
  client.on('Network.requestWillBeSent', (e) => {
    log.entries.set(e.requestId, { id: e.requestId, url: e.request.url, method: e.request.method, type: e.type ?? null,
      sent: e.timestamp, ended: null, status: null, failed: null });
  });
  // The status on the wire, also sent for answers the page is not allowed to read (a CORS failure).
  client.on('Network.responseReceivedExtraInfo', (e) => { log.statuses.set(e.requestId, e.statusCode); });
  client.on('Network.responseReceived', (e) => {
    const found = entry(e.requestId);
    if (found) { found.status = e.response.status; found.ended ??= e.timestamp; }
  });
  client.on('Network.loadingFailed', (e) => {
    const found = entry(e.requestId);
    if (found) { found.failed = e.corsErrorStatus?.corsError ?? e.blockedReason ?? e.errorText; found.ended ??= e.timestamp; }
  });
  await client.send('Network.enable');
  networkLogs.set(sessionId, log);
  return { entries: [] };
}

/**
 * Server commands of the player suites (`reelgate-throttle`, below) and of the iframe-embed suite (test/components/integration/oembed.test.ts): `reelgate-worker` answers
 * the worker's address; `reelgate-frame` reports what the embed page inside a cross-origin iframe shows, read through
 * the browser's DevTools connection, as a page script cannot look inside another origin's frame; `reelgate-network`
 * (`{ action: 'start' | 'read' | 'stop' }`) records what the page's network did (networkLog, above); `reelgate-hold`
 * holds the page's requests for media the stall test names, until it releases them (holdCommand, above).
 */
function embedFrames() {
  return {
    name: 'reelgate-embed-frames',
    async executeCommand({ command, payload, session }) {
      // Answers are wrapped: a plain null would read as "not handled" to web-test-runner.
      if (command === 'reelgate-worker') return { worker: worker ?? null, sandbox: sandbox ?? null };
      if (command === 'reelgate-network') return networkLog(chrome.getPage(session.id), session.id, payload?.action);
      if (command === 'reelgate-hold') return holdCommand(chrome.getPage(session.id), session.id, payload);
      // The player suites' network: `{ download }` bytes per second (with 20 ms latency), or null for full speed,
      // through DevTools' own throttling, so every request the page makes (hls.js's segments too) is slowed.
      if (command === 'reelgate-throttle') {
        const page = chrome.getPage(session.id);
        await page.emulateNetworkConditions(payload?.download
          ? { download: payload.download, upload: payload.download, latency: 20 } : null);
        return { throttled: Boolean(payload?.download) };
      }
      if (command !== 'reelgate-frame') return undefined;
      const frame = chrome.getPage(session.id).frames().find((f) => f.url() === payload.url);
      if (!frame) return { view: null };
      // The frame may be between documents (its <body> not parsed yet, or its context replaced by a navigation): that
      // is "nothing to see yet", and the test polls again, never a failed command.
      const view = await frame.evaluate((play) => {
        const player = document.querySelector('reel-player');
        const playlist = document.querySelector('reel-playlist');
        const video = player?.shadowRoot?.querySelector('video') ?? null;
        // `play`: start the video (muted, as a viewer's click would with sound) to see it really plays.
        // (Under MSE the video has no source until that play attaches hls.js.)
        if (play && video && player.getAttribute('state') === 'complete' && video.paused) {
          video.muted = true;
          void video.play().catch(() => {});
        }
        return {
          status: document.title,
          text: document.body?.textContent.trim() ?? '',
          height: Math.ceil(document.documentElement.getBoundingClientRect().height),
          // What the frame's posted height is made of (worker/embed/frame-script.ts), and whether its content scrolls.
          width: innerWidth,
          rem: parseFloat(getComputedStyle(document.documentElement).fontSize),
          layout: document.querySelector('meta[name="reelgate-frame"]')?.getAttribute('content') ?? null,
          viewport: innerHeight,
          scrollHeight: document.scrollingElement?.scrollHeight ?? 0,
          player: player && { state: player.getAttribute('state'), media: player.getAttribute('media'),
            src: video?.getAttribute('src') ?? null, readyState: video?.readyState ?? 0 },
          playlist: playlist && { state: playlist.getAttribute('state'),
            cards: playlist.shadowRoot?.querySelectorAll('[part="card"]').length ?? 0 },
        };
      }, Boolean(payload.play)).catch(() => null);
      return { view };
    },
  };
}

/**
 * `REELGATE_TEST_BUNDLE=1` (`npm run test:components:bundle`): the suites of that run (bundleSuites, above) drive the
 * elements of the shipped bundle, dist/reelgate.js as `npm run build` wrote it, instead of the sources: the modules
 * that register the elements (`components/<tag>/define.ts`, `components/index.ts`) answer with an import of the bundle.
 * What the build does to the code (components/build-options.mjs: minified templates, renamed members, a second
 * minifier) is then checked by those tests, without running the slow integration files a second time.
 */
function fromBundle() {
  return {
    name: 'reelgate-from-bundle',
    serve(context) {
      if (/^\/components\/(reel-[a-z-]+\/define|index)\.ts$/.test(context.path)) {
        return { body: "import '/dist/reelgate.js';\n", type: 'js' };
      }
      return undefined;
    },
  };
}

export default {
  rootDir: '.',
  nodeResolve: true,
  files: bundle ? [...bundleSuites, ...(worker ? bundleIntegration : [])] : worker ? [unit] : [unit, `!${integration}`],
  // One page at a time: a page in a background tab gets no ResizeObserver or animation frames.
  concurrency: 1,
  testFramework: { config: { timeout: 20000 } },
  testsFinishTimeout: 300000,
  // The gate first: the renewal test drops a playback URL's connection part-way (test/components/support/playback-gate.mjs).
  middleware: [playbackGate(worker), apiProxy()],
  plugins: [...(bundle ? [fromBundle()] : []),
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'test/components/support/esbuild-tsconfig.json' }),
    embedFrames()],
  browsers: [chrome],
  reporters: [defaultReporter(), summaryReporter()],
};
