#!/usr/bin/env node
// `npm test`: every check and suite, in two lanes that run side by side.
//
// The suites inside workerd (vitest with Miniflare) use under one core of this 2-core machine each: most of their time
// is workerd answering one request after another, and the suites against `wrangler dev` and a browser mostly wait for
// sockets, media and timers. Two lanes at once keep both cores busy; one lane after the other took about 14 minutes.
// Within a lane the steps run in order, so no two suites of one kind (workerd test runs; `wrangler dev` stacks and
// browsers) ever share the machine with each other, and no step waits on the other lane's. Their ports do not meet:
// the workerd suites open none a test chooses, and every `wrangler dev` suite searches free ports from its own base.
//
// A failed step does not stop its lane: every suite runs, so one red run shows every failure, and each suite's
// summary (.build/summaries/*.json) is there for .ci/summarize.mjs. Each step's output is kept in .build/logs/<step>.log
// and printed whole when the step ends, so the two lanes never interleave their lines; while a step runs, one line
// says that it started. Stopped (SIGINT/SIGTERM, e.g. by CI's bound on a stalled run), it says which steps were still
// running and prints what they had written so far. It ends with each step's time and the run's.
//
// `node test/run-all.mjs --list` prints the lanes; `--only <step>[,<step>…]` runs just those (in their lanes).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Before either lane: what everything after reads (the declaration files it types against, the built embed). */
const FIRST = ['check:types', 'build'];

/** The lanes, each a list of npm scripts run in order. */
const LANES = {
  workerd: ['test:worker', 'test:worker:documented', 'test:faults'],
  servers: [
    'typecheck', 'lint', 'check:docs', 'check:imports', 'check:frameworks', 'check:apps', 'check:deploy',
    'test:node', 'test:components', 'test:components:bundle', 'test:package', 'test:ssr', 'test:console', 'test:demo',
    'test:storm', 'test:firefox',
  ],
};

const args = process.argv.slice(2);
if (args.includes('--list')) {
  console.log(`first: ${FIRST.join(', ')}`);
  for (const [lane, steps] of Object.entries(LANES)) console.log(`${lane}: ${steps.join(', ')}`);
  process.exit(0);
}
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? new Set((args[onlyAt + 1] ?? '').split(',').filter(Boolean)) : null;
const known = new Set([...FIRST, ...Object.values(LANES).flat()]);
for (const step of only ?? []) {
  if (!known.has(step)) {
    console.error(`run-all: no step "${step}"; the steps are: ${[...known].join(', ')}`);
    process.exit(2);
  }
}
const wanted = (steps) => steps.filter((step) => !only || only.has(step));

const logs = join(root, '.build', 'logs');
mkdirSync(logs, { recursive: true });
const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** @type {Map<string, {output: string[], since: number, child: import('node:child_process').ChildProcess}>} */
const running = new Map();
/** @type {Array<{step: string, lane: string, ok: boolean, ms: number}>} */
const results = [];

/** Runs `npm run <step>`, its output kept, and printed in one block when it ends. */
function run(step, lane) {
  return new Promise((resolve) => {
    const since = Date.now();
    console.log(`run-all: [${lane}] ${step} started`);
    const child = spawn('npm', ['run', '--silent', step], {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = [];
    running.set(step, { output, since, child });
    child.stdout.on('data', (chunk) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk) => output.push(chunk.toString()));
    child.on('close', (code, signal) => {
      running.delete(step);
      const ms = Date.now() - since;
      const ok = code === 0;
      const text = output.join('');
      writeFileSync(join(logs, `${step.replaceAll(':', '-')}.log`), text);
      console.log(`\n──── ${step} [${lane}] ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds(ms)} ────`);
      process.stdout.write(text.endsWith('\n') || !text ? text : `${text}\n`);
      results.push({ step, lane, ok, ms });
      resolve(ok);
    });
  });
}

async function lane(name, steps) {
  for (const step of wanted(steps)) await run(step, name);
}

function stopped(signal) {
  console.log(`\nrun-all: stopped by ${signal} after ${seconds(Date.now() - started)}; still running:`);
  for (const [step, { output, since, child }] of running) {
    console.log(`\n──── ${step}: running for ${seconds(Date.now() - since)}, its output so far ────`);
    process.stdout.write(output.join(''));
    child.kill('SIGTERM');
  }
  process.exit(1);
}
process.on('SIGINT', () => stopped('SIGINT'));
process.on('SIGTERM', () => stopped('SIGTERM'));

for (const step of wanted(FIRST)) {
  // Every later step reads what these make: without them, each would fail for the same reason, less clearly.
  if (!(await run(step, 'first'))) break;
}
if (results.every((r) => r.ok)) await Promise.all(Object.entries(LANES).map(([name, steps]) => lane(name, steps)));

console.log('\nrun-all: step times');
for (const { step, lane: name, ok, ms } of results) {
  console.log(`  ${step.padEnd(24)} ${name.padEnd(8)} ${ok ? 'passed' : 'FAILED'} ${seconds(ms).padStart(8)}`);
}
const failed = results.filter((r) => !r.ok).map((r) => r.step);
console.log(`run-all: ${results.length} steps in ${seconds(Date.now() - started)}; ` +
  (failed.length ? `failed: ${failed.join(', ')}` : 'all passed'));
process.exit(failed.length ? 1 : 0);
