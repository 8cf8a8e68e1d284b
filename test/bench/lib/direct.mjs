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
async function serve(options) {
  const before = workerdChildren();
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    workers: [{ ...options, unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }] }],
  });
  await mf.ready;
  const pids = [...workerdChildren()].filter((pid) => !before.has(pid));
  const origin = (await mf.unsafeGetDirectURL(options.name)).origin;
  return { name: options.name, origin, pid: pids.length === 1 ? pids[0] : null, stop: () => mf.dispose() };
}

/**
 * Starts the three. `secrets` are the sandbox-only values; the worker runs the configuration shipped in wrangler.toml
 * (DEV_MODE on so `x-reelgate-dev-ip` names the visitor, as in the rest of the bench).
 */
export async function startDirectPlayback({ secrets }) {
  mkdirSync(`${root}.build/bench`, { recursive: true });
  mkdirSync(`${root}dist`, { recursive: true });
  await Promise.all([
    buildSandbox(),
    build({ entryPoints: [`${root}worker/index.ts`], outfile: WORKER_BUNDLE, bundle: true, format: 'esm', target: 'es2022',
      external: ['cloudflare:*', 'node:*'], logLevel: 'warning' }),
  ]);
  const started = [];
  try {
    const sandbox = await serve({ ...sandboxWorkerOptions(), bindings: { ...sandboxWorkerOptions().bindings, ...secrets } });
    started.push(sandbox);
    const { workerOptions } = unstable_getMiniflareWorkerOptions(`${root}wrangler.toml`);
    const worker = await serve({
      ...workerOptions,
      name: 'reelgate',
      modules: true,
      scriptPath: WORKER_BUNDLE,
      bindings: { ...workerOptions.bindings, ...secrets, API_BASE_URL: sandbox.origin, GEO_API_URL: sandbox.origin, DELIVERY_BASE_URL: sandbox.origin,
        DEV_MODE: 'true', ADDRESS_SALT: 'bench-address-salt' },
    });
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
