#!/usr/bin/env node
// `npm run bench:playback`: section 6 of `npm run bench` on its own (geo-bound playback: throughput and time to first
// byte through the worker vs straight from the sandbox's CDN, and the worker's peak memory while it streams a large
// file). Measures on direct workerd sockets (as production: no dev server in front), then, for comparison with earlier
// runs, under `wrangler dev` (BENCH_PLAYBACK_DEV=0 skips that part and starts no `wrangler dev`). Prints the figures as
// JSON and the section's rows of the table, and stops everything it started. BENCH_PLAYBACK_MIB (default 256) sets
// the file's size, BENCH_PLAYBACK_ROUNDS (3) and BENCH_PLAYBACK_DEV_ROUNDS (1) the downloads each way.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWrangler, stopAllAndWait } from './lib/processes.mjs';
import { playbackRows } from './lib/table.mjs';
import { playback } from './sections/playback.mjs';
import { sandboxSecrets } from './lib/secrets.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const log = (message) => console.log(`[bench] ${message}`);

const taken = new Set();
async function freePort(from) {
  for (let port = from; port < from + 400; port++) {
    if (taken.has(port)) continue;
    const free = await new Promise((resolve) => {
      const server = createServer().once('error', () => resolve(false)).once('listening', () => server.close(() => resolve(true)));
      server.listen(port, '127.0.0.1');
    });
    if (free) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port from ${from}`);
}

const state = mkdtempSync(join(tmpdir(), 'reelgate-bench-playback-'));
try {
  const s = sandboxSecrets();
  let dev = null;
  if (process.env.BENCH_PLAYBACK_DEV !== '0') {
    const sandbox = await startWrangler({ name: 'sandbox', config: join(root, 'demo/sandbox/wrangler.toml'), port: await freePort(18888),
      inspectorPort: await freePort(19888), persistTo: join(state, 'sandbox'), logDir: state, vars: s });
    const workerPort = await freePort(18887);
    const worker = await startWrangler({ name: 'worker', config: join(root, 'wrangler.toml'), port: workerPort,
      inspectorPort: await freePort(19887), persistTo: join(state, 'worker'), logDir: state,
      vars: { ...s, API_BASE_URL: sandbox.origin, GEO_API_URL: sandbox.origin, DELIVERY_BASE_URL: sandbox.origin, DEV_MODE: 'true', ADDRESS_SALT: 'bench-address-salt' } });
    const passThrough = await startWrangler({ name: 'pass-through', config: join(root, 'test/bench/pass-through/wrangler.toml'),
      port: await freePort(18889), inspectorPort: await freePort(19889), persistTo: join(state, 'pass-through'), logDir: state,
      vars: { API_BASE_URL: sandbox.origin } });
    dev = { sandbox: sandbox.origin, worker: worker.origin, passThrough: passThrough.origin, workerProcess: worker.child, workerPort };
  }
  const result = await playback({ secrets: s, dev }, log);
  console.log(JSON.stringify(result, null, 2));
  console.log(`\n${playbackRows(result).join('\n')}\n`);
} finally {
  await stopAllAndWait();
  rmSync(state, { recursive: true, force: true });
}
