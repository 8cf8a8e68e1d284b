#!/usr/bin/env node
// `npm start`: the whole stack locally, no account and no secret. The sandbox upstream (demo/sandbox/) on
// SANDBOX_PORT (8788) and the edge worker on PORT (8787) pointed at it, both with the secrets from .dev.vars.
//
// Each `wrangler dev` listens on a private loopback port behind a small Node front on the public one
// (demo/dev-front.mjs, issue 27 item 4): workerd's listener answers a plain-text 500 to any request target that is
// not a path, e.g. `PUT http://localhost:8788/upload/... HTTP/1.1`, the absolute form the platform's official Python
// client sends to an upload link, before either worker runs. The front passes every request on as it came, turning
// only an absolute-form target into its origin form (and answering in the v2 error shape what workerd would 500 on).
// wrangler's "Ready on" lines are printed with the public port.
//
// For the tests (test/storm/npm-start.mjs), which run it after `npm run build` and beside a developer's own
// `npm start`: REELGATE_START_SKIP_BUILD=1 skips the build, REELGATE_START_STATE=<dir> keeps the local state there
// instead of .wrangler/state.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { privatePorts, startFront } from './dev-front.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const port = Number(process.env.PORT ?? 8787);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 8788);
for (const [name, value] of [['PORT', port], ['SANDBOX_PORT', sandboxPort]]) {
  if (!Number.isInteger(value) || value < 1 || value > 65535) fail(`${name} must be a port number (1-65535).`);
}
if (port === sandboxPort) fail('PORT and SANDBOX_PORT must differ.');

// Local secrets: sandbox-only values, copied from the committed example on first run.
if (!existsSync(at('.dev.vars'))) {
  copyFileSync(at('.dev.vars.example'), at('.dev.vars'));
  console.log('[start] created .dev.vars from .dev.vars.example (sandbox-only values)');
}
// A .dev.vars from an older checkout may lack names added to the example since: fill those in, keep the rest.
const example = parseDevVars(readFileSync(at('.dev.vars.example'), 'utf8'));
const current = parseDevVars(readFileSync(at('.dev.vars'), 'utf8'));
const missing = Object.keys(example).filter((name) => !(name in current));
if (missing.length > 0) {
  appendFileSync(at('.dev.vars'), `\n# Added by npm start from .dev.vars.example\n${missing.map((name) => `${name}=${example[name]}`).join('\n')}\n`);
  console.log(`[start] added ${missing.join(', ')} to .dev.vars from .dev.vars.example`);
}
const vars = { ...example, ...current };
for (const name of ['API_SECRET', 'GEO_API_KEY', 'SIGNED_SITE_SECRET']) {
  if (!vars[name]) fail(`.dev.vars has no ${name}; copy it from .dev.vars.example.`);
}

// The embed bundle, when the components' build exists.
if (existsSync(at('components/build.mjs')) && process.env.REELGATE_START_SKIP_BUILD !== '1') {
  console.log('[start] npm run build');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) fail('npm run build failed; see above.');
}

const wrangler = at('node_modules/.bin/wrangler');
if (!existsSync(wrangler)) fail('wrangler is not installed; run npm ci first.');
// No metrics, and no fetch of the `Request.cf` template: the stack runs offline.
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };
// The sandbox's limit per minute, for trying the worker's budget against a tighter or looser platform.
const rateLimit = process.env.SANDBOX_RATE_LIMIT_PER_MINUTE;
if (rateLimit !== undefined && !/^[1-9]\d*$/.test(rateLimit)) fail('SANDBOX_RATE_LIMIT_PER_MINUTE must be a positive integer.');

// Local state (KV, Durable Objects, D1) in a folder per workerd: the two start at once, and two processes opening the
// same SQLite files fail with SQLITE_BUSY (issue 9, item 8).
const stateRoot = process.env.REELGATE_START_STATE ?? '.wrangler/state';
const inState = (name) => (isAbsolute(stateRoot) ? join(stateRoot, name) : `${stateRoot}/${name}`);
const state = { sandbox: inState('sandbox'), worker: inState('worker') };

// The gateway's D1 schema (keys, idempotency, audit), applied to the worker's local database; a no-op once applied.
console.log('[start] applying the gateway database migrations (local)');
const migrate = spawnSync(wrangler, ['d1', 'migrations', 'apply', 'GATEWAY_DB', '--local', '--persist-to', state.worker],
  { cwd: root, env: { ...env, CI: 'true' }, stdio: ['ignore', 'inherit', 'inherit'] });
if (migrate.status !== 0) fail('applying the gateway database migrations failed; see above.');

const children = [];
let stopping = false;

// The fronts take the public ports first (a port already taken fails here, at once); each `wrangler dev` gets a
// private one behind its front.
const [innerSandbox, innerWorker] = await privatePorts(2);
const inner = { sandbox: innerSandbox, worker: innerWorker };
// The worker's front also refuses the paths wrangler dev would resolve before the worker's raw-path check reads them.
for (const [name, publicPort, targetPort] of [['SANDBOX_PORT', sandboxPort, inner.sandbox], ['PORT', port, inner.worker]]) {
  await startFront({ port: publicPort, targetPort, checkPaths: name === 'PORT' }).catch((error) =>
    fail(`cannot listen on 127.0.0.1:${publicPort} (${name}): ${error.code ?? error.message}`));
}

const sandbox = run('sandbox', inner.sandbox, sandboxPort, [
  'dev', '--config', 'demo/sandbox/wrangler.toml', '--port', String(inner.sandbox), '--ip', '127.0.0.1',
  '--inspector-port', String(sandboxPort + 1000), '--persist-to', state.sandbox,
  '--var', `API_SECRET:${vars.API_SECRET}`, '--var', `GEO_API_KEY:${vars.GEO_API_KEY}`,
  '--var', `SIGNED_SITE_SECRET:${vars.SIGNED_SITE_SECRET}`,
  ...(rateLimit ? ['--var', `RATE_LIMIT_PER_MINUTE:${rateLimit}`] : []),
]);
const upstream = `http://localhost:${sandboxPort}`;
const worker = run('worker', inner.worker, port, [
  'dev', '--config', 'wrangler.toml', '--port', String(inner.worker), '--ip', '127.0.0.1',
  '--inspector-port', String(port + 1000), '--persist-to', state.worker,
  '--var', `API_BASE_URL:${upstream}`, '--var', `GEO_API_URL:${upstream}`, '--var', `DELIVERY_BASE_URL:${upstream}`,
]);

Promise.all([sandbox.ready, worker.ready]).then(() => {
  console.log('');
  console.log(`[start] sandbox upstream  ${upstream}   (e.g. ${upstream}/_sandbox/catalog)`);
  console.log(`[start] edge worker       http://localhost:${port}`);
  console.log('[start] Ctrl-C stops both.');
});

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(`received ${signal}`, 0));

function run(name, privatePortNumber, publicPort, args) {
  const child = spawn(wrangler, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  let markReady;
  const ready = new Promise((resolve) => { markReady = resolve; });
  const prefix = `[${name}] `;
  // wrangler names the port it listens on; people (and scripts reading this log) want the one to use.
  const privateAddress = new RegExp(`(127\\.0\\.0\\.1|localhost):${privatePortNumber}\\b`, 'g');
  const relay = (stream, out) => {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const raw of lines) {
        const line = raw.replace(privateAddress, `$1:${publicPort}`);
        out.write(prefix + line + '\n');
        if (line.includes('Ready on')) markReady();
      }
    });
  };
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  // Either process ending on its own ends the stack: half of it is no use.
  child.on('exit', (code, signal) => stop(`${name} exited (${signal ?? `code ${code}`})`, 1));
  return { child, ready };
}

function stop(reason, exitCode) {
  if (stopping) return;
  stopping = true;
  console.log(`[start] stopping: ${reason}`);
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
    }
  }
  // Give wrangler a moment to release its ports, then make sure nothing is left behind.
  setTimeout(() => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      }
    }
    process.exit(exitCode);
  }, 3000).unref();
  Promise.all(children.map((child) => (child.exitCode !== null || child.signalCode !== null
    ? null : new Promise((resolve) => child.once('exit', resolve))))).then(() => process.exit(exitCode));
}

function parseDevVars(text) {
  const out = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    out[match[1]] = match[2].replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
  }
  return out;
}

function fail(message) {
  console.error(`[start] ${message}`);
  process.exit(1);
}
