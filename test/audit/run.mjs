#!/usr/bin/env node
// `npm run audit`: Lighthouse 12 on the demo page (`AUDIT_PATH=/?lang=de npm run audit`: the demo in German). Starts the whole stack as `npm start`
// does (the sandbox and the worker under `wrangler dev`, on AUDIT_PORT and AUDIT_PORT + 1), then runs Lighthouse in
// the Chromium the suites use, RUNS times on mobile (Lighthouse's default: a mid-range phone, simulated slow 4G) and
// RUNS times on desktop, and prints per form factor the median run (by performance score): the four category scores,
// LCP and CLS, with the elements that shifted, after one uncounted run that warms the worker's caches. The full reports go to .build/audit/. Not part of `npm test`: scores
// depend on the machine (a busy one scores lower), so they are figures to read, never a pass/fail.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_ARGS, findBrowser } from '../support/find-browser.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const PORT = Number(process.env.AUDIT_PORT ?? 8891);
const RUNS = Number(process.env.AUDIT_RUNS ?? 3);
const ORIGIN = `http://127.0.0.1:${PORT}/`;
/** The page audited: the demo, or another path of it (`AUDIT_PATH=/?lang=de`: the demo in German). */
const PAGE = new URL(process.env.AUDIT_PATH ?? '/', ORIGIN).href;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** `npm start` on the audit's ports; resolves once the worker serves the page. */
async function startStack() {
  const child = spawn(process.execPath, ['demo/start.mjs'], {
    cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(PORT), SANDBOX_PORT: String(PORT + 1), WRANGLER_SEND_METRICS: 'false' },
  });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stderr.on('data', (chunk) => { output += chunk; });
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    try {
      const [page, bundle] = await Promise.all([fetch(PAGE), fetch(`${ORIGIN}embed/reelgate.js`)]);
      await Promise.all([page.arrayBuffer(), bundle.arrayBuffer()]);
      if (page.ok && bundle.ok) return stop;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  stop();
  throw new Error(`the stack did not serve ${PAGE} within 120 s:\n${output}`);
}

/** The elements behind the largest shifts, as Lighthouse names them. */
function shifts(lhr) {
  const items = lhr.audits['layout-shifts']?.details?.items ?? [];
  return items.slice(0, 3).map((item) => `${item.node?.snippet?.slice(0, 60) ?? '?'} (${item.score?.toFixed(3)})`);
}

function summary(lhr) {
  const score = (name) => Math.round((lhr.categories[name]?.score ?? 0) * 100);
  return {
    scores: Object.fromEntries(CATEGORIES.map((name) => [name, score(name)])),
    lcp_ms: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
    cls: Number(lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3)),
    lcp_element: lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? null,
    shifted: shifts(lhr),
    failed: Object.values(lhr.audits)
      .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === 'binary')
      .map((audit) => audit.id),
  };
}

const median = (runs) => [...runs].sort((a, b) => a.scores.performance - b.scores.performance)[Math.floor(runs.length / 2)];

const stopStack = await startStack();
const browser = findBrowser();
const chrome = await chromeLauncher.launch({ chromePath: browser.path, chromeFlags: [...CHROMIUM_ARGS] });
const out = { page: PAGE, runs: RUNS, browser: browser.path, date: new Date().toISOString() };
try {
  mkdirSync(`${root}.build/audit`, { recursive: true });
  // One run not counted: it fills the worker's caches as a publisher's page in use has them. A fresh stack's first
  // view loads every feed, player and media through the upstream budget (50 calls a minute, burst 5), which is the
  // cold start of a deployment, not the page a visitor usually gets.
  await lighthouse(PAGE, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  for (const [formFactor, config] of [['mobile', undefined], ['desktop', desktopConfig]]) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(PAGE, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES }, config);
      writeFileSync(`${root}.build/audit/${formFactor}-${i + 1}.json`, result.report);
      runs.push(summary(result.lhr));
    }
    out[formFactor] = { median: median(runs), runs };
  }
} finally {
  await chrome.kill();
  stopStack();
}
writeFileSync(`${root}.build/audit/summary.json`, `${JSON.stringify(out, null, 2)}\n`);

console.log(`\nLighthouse ${RUNS} run(s) each on ${PAGE} (median by performance score; reports in .build/audit/)\n`);
console.log('| Form factor | Performance | Accessibility | Best practices | SEO | LCP | CLS |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const formFactor of ['mobile', 'desktop']) {
  const { scores, lcp_ms, cls } = out[formFactor].median;
  console.log(`| ${formFactor} | ${scores.performance} | ${scores.accessibility} | ${scores['best-practices']} | ${scores.seo} | ` +
    `${(lcp_ms / 1000).toFixed(2)} s | ${cls} |`);
}
for (const formFactor of ['mobile', 'desktop']) {
  const m = out[formFactor].median;
  console.log(`\n${formFactor}: LCP element ${m.lcp_element ?? '-'}; shifted: ${m.shifted.join('; ') || 'nothing'}; ` +
    `failed audits: ${m.failed.join(', ') || 'none'}`);
}
