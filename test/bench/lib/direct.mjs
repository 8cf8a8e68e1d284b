// Section 6's production-shaped stack: the sandbox (as the platform's CDN), reelgate and the bare pass-through Worker,
// each in a workerd process of its own, each reached on a direct workerd socket (Miniflare's `unsafeDirectSockets`, as
// test/storm/stack.mjs does) — no `wrangler dev` in front, so no dev proxy worker and no second hop. The worker fetches
// the CDN over a real loopback socket (not a service binding), as it fetches a real CDN over the network. One workerd
// per Worker, so the memory of each can be read on its own (`pid`).
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { buildSandbox, sandboxWorkerOptions } from '../../../demo/sandbox/build.mjs';

const require = createRequire(import.meta.url);
// The Miniflare release wrangler runs `wrangler dev` with (the top-level one belongs to the vitest pool).
const { Miniflare } = createRequire(require.resolve('wrangler/package.json'))('miniflare');

const root = fileURLToPath(new URL('../../../', import.meta.url));
const WORKER_BUNDLE = `${root}.build/bench/worker.js`;
/** The salt both reelgate and section 1's hello-world Worker key visitors with. */
const ADDRESS_SALT = 'bench-address-salt';

/** The workerd processes that are children of this Node process. */
function workerdChildren() {
  const out = new Set();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (ppid === process.pid && comm.startsWith('workerd')) out.add(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** One Miniflare (one workerd process) serving `options` on a direct socket; resolves to its origin, pid and stop. */
export async function serve(options, shared = {}) {
  const [served] = await serveTogether([options], shared);
  return served;
}

/**
 * One Miniflare (one workerd process) serving several Workers, each on a direct socket of its own; resolves to one
 * { name, origin, pid, stop } per Worker, in order (the same pid for all; `stop` ends them all).
 */
export async function serveTogether(list, shared = {}) {
  const before = workerdChildren();
  const mf = new Miniflare({
    ...shared,
    host: '127.0.0.1',
    port: 0,
    workers: list.map((options) => ({ ...options, unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }] })),
  });
  await mf.ready;
  const pids = [...workerdChildren()].filter((pid) => !before.has(pid));
  const stop = () => mf.dispose();
  return Promise.all(list.map(async (options) => ({ name: options.name, origin: (await mf.unsafeGetDirectURL(options.name)).origin,
    pid: pids.length === 1 ? pids[0] : null, stop })));
}

/** The bundles the direct stacks serve: the sandbox's and the worker's, built once per call (a few hundred ms). */
async function buildBundles() {
  mkdirSync(`${root}.build/bench`, { recursive: true });
  mkdirSync(`${root}dist`, { recursive: true });
  await Promise.all([
    buildSandbox(),
    build({ entryPoints: [`${root}worker/index.ts`], outfile: WORKER_BUNDLE, bundle: true, format: 'esm', target: 'es2022',
      external: ['cloudflare:*', 'node:*'], logLevel: 'warning' }),
  ]);
}

/** A copy of the REELGATE_CONFIG shipped in wrangler.toml. */
export function shippedConfig() {
  return structuredClone(unstable_getMiniflareWorkerOptions(`${root}wrangler.toml`).workerOptions.bindings.REELGATE_CONFIG);
}

/**
 * reelgate's worker options: the configuration shipped in wrangler.toml, pointed at `upstream`, DEV_MODE on so
 * `x-reelgate-dev-ip` names the visitor (as in the rest of the bench). Its bindings come from wrangler.toml as wrangler
 * reads it, the Durable Objects among them (BUDGET, METRICS: each instance binds its own classes of the bundle). `config`, when given, maps the shipped
 * REELGATE_CONFIG (a copy) to the one this instance runs.
 */
function reelgateOptions(name, upstream, secrets, config) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(`${root}wrangler.toml`);
  const shipped = shippedConfig();
  return {
    ...workerOptions,
    name,
    modules: true,
    scriptPath: WORKER_BUNDLE,
    bindings: { ...workerOptions.bindings, ...secrets, API_BASE_URL: upstream, GEO_API_URL: upstream, DELIVERY_BASE_URL: upstream,
      DEV_MODE: 'true', ADDRESS_SALT, REELGATE_CONFIG: config ? config(shipped) : shipped },
  };
}

/**
 * The sandbox, in a workerd of its own, and one reelgate per entry of `configs` ({ name: REELGATE_CONFIG =>
 * REELGATE_CONFIG, or null for the shipped one }), all from the same worker bundle, together in one other workerd
 * process (so they compare on the same process: its threads, its memory), each on a direct socket of its own and with
 * its own KV namespace, D1 database, Durable Objects and isolate caches. `extra(sandboxOrigin)`, when given, returns
 * the options of more Workers for that process (they may bind the reelgates by name with `serviceBindings`).
 */
export async function startDirectReelgates({ secrets, configs, extra }) {
  await buildBundles();
  const started = [];
  try {
    const sandbox = await serve({ ...sandboxWorkerOptions(), bindings: { ...sandboxWorkerOptions().bindings, ...secrets } });
    started.push(sandbox);
    const served = await serveTogether([...Object.entries(configs).map(([name, config]) => {
      const options = reelgateOptions(name, sandbox.origin, secrets, config);
      return { ...options, kvNamespaces: { CACHE: { id: `${name}-CACHE` } }, d1Databases: { GATEWAY_DB: { id: `${name}-GATEWAY_DB` } } };
    }), ...(extra ? extra(sandbox.origin) : [])]);
    started.push(served[0]);
    return { sandbox, workers: Object.fromEntries(served.map((worker) => [worker.name, worker])),
      stop: () => Promise.all(started.map((s) => s.stop())) };
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    throw error;
  }
}

/**
 * Starts the three. `secrets` are the sandbox-only values; the worker runs the configuration shipped in wrangler.toml
 * (DEV_MODE on so `x-reelgate-dev-ip` names the visitor, as in the rest of the bench).
 */
export async function startDirectPlayback({ secrets }) {
  await buildBundles();
  const started = [];
  try {
    const sandbox = await serve({ ...sandboxWorkerOptions(), bindings: { ...sandboxWorkerOptions().bindings, ...secrets } });
    started.push(sandbox);
    const worker = await serve(reelgateOptions('reelgate', sandbox.origin, secrets));
    started.push(worker);
    const passThrough = await serve({ name: 'pass-through', modules: true, compatibilityDate: '2026-04-01',
      scriptPath: `${root}test/bench/pass-through/index.js`, bindings: { API_BASE_URL: sandbox.origin } });
    started.push(passThrough);
    return { sandbox, worker, passThrough, stop: () => Promise.all(started.map((s) => s.stop())) };
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    throw error;
  }
}

/**
 * Section 1's hello-world Worker (test/bench/hello-world/index.js) under the conditions reelgate runs in: the
 * compatibility date and flags of wrangler.toml, its `[[ratelimits]]` VISITOR_LIMIT binding exactly as wrangler reads
 * it for reelgate (same namespace, limit and period), DEV_MODE on and the same ADDRESS_SALT, so it keys the same
 * visitors the same way and makes the same `limit()` call per request. With `assets`, also reelgate's `[assets]`
 * (dist/, run_worker_first), so a request to it passes Miniflare's assets router as a request to reelgate does.
 */
export function helloWorldOptions({ assets = false } = {}) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(`${root}wrangler.toml`);
  return {
    name: 'hello-world',
    modules: true,
    scriptPath: `${root}test/bench/hello-world/index.js`,
    compatibilityDate: workerOptions.compatibilityDate,
    compatibilityFlags: workerOptions.compatibilityFlags,
    ratelimits: structuredClone(workerOptions.ratelimits),
    bindings: { DEV_MODE: 'true', ADDRESS_SALT },
    ...(assets ? { assets: structuredClone(workerOptions.assets) } : {}),
  };
}

/**
 * Section 1's stack, each Worker in a workerd process of its own (so each side's CPU time is its own process's, read
 * from /proc) and on a direct socket (no dev proxy in front, as in production): the sandbox (the upstream, which a warm
 * cache no longer asks), reelgate as shipped, the hello-world Worker with reelgate's bindings that a request meets
 * (its VISITOR_LIMIT and its `[assets]`, so the same assets router in front), and the same hello-world Worker with the
 * rate-limit binding only (no assets router: what that router costs, for reference).
 *
 * For test/bench/profile-hit.mjs only: `inspect` ('reelgate' or 'hello') opens workerd's inspector for that Worker on
 * `inspectorPort`, and `visitorLimit` raises VISITOR_LIMIT's limit on both sides alike (the same call; Miniflare's
 * counter costs the same whatever the limit), so a profile can run long on a few located visitors.
 */
export async function startDirectEdge({ secrets, inspect, inspectorPort = 19987, visitorLimit }) {
  await buildBundles();
  const started = [];
  const limited = (options) => {
    if (!visitorLimit) return options;
    const ratelimits = structuredClone(options.ratelimits);
    ratelimits.VISITOR_LIMIT.simple.limit = visitorLimit;
    return { ...options, ratelimits };
  };
  const inspected = (name, options) => (inspect === name ? [{ ...options, unsafeInspectorProxy: true }, { inspectorPort }] : [options]);
  try {
    // One at a time: each new workerd is told apart from the others by being new (`serve`).
    const sandbox = await serve({ ...sandboxWorkerOptions(), bindings: { ...sandboxWorkerOptions().bindings, ...secrets } });
    started.push(sandbox);
    const worker = await serve(...inspected('reelgate', limited(reelgateOptions('reelgate', sandbox.origin, secrets))));
    started.push(worker);
    const hello = await serve(...inspected('hello', limited(helloWorldOptions({ assets: true }))));
    started.push(hello);
    const bareHello = await serve(limited({ ...helloWorldOptions(), name: 'hello-world-bare' }));
    started.push(bareHello);
    return { sandbox, worker, hello, bareHello, stop: () => Promise.all(started.map((s) => s.stop())) };
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    throw error;
  }
}
