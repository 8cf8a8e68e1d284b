// The storm suite's stack: the real edge worker (worker/index.ts with the bindings of wrangler.toml, as deployed,
// DEV_MODE off) and the real sandbox upstream, both in workerd through the Miniflare that wrangler itself runs, in
// memory only (each process owns its state: nothing is shared on disk, so two runs can never lock each other out).
//
// The worker is reached over a direct socket on loopback: real HTTP, real concurrent requests (each its own request
// context in workerd, so a request awaiting another one's work shows up as the runtime's "hung" 500), and no dev
// server in front that would normalise the path (wrangler dev's entry worker re-parses every URL, turning `%2e%2e`
// and `\` into something else before the worker could refuse them). Visitors are named by `CF-Connecting-IP`, as
// Cloudflare names them in production; `request.cf` (Cloudflare's own view of the connection) is what workerd reads
// from the `MF-CF-Blob` header on such a socket, which `send(..., { cf })` sets.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { unstable_getMiniflareWorkerOptions, unstable_readConfig, unstable_splitSqlQuery } from 'wrangler';
import { buildSandbox, sandboxWorkerOptions } from '../../demo/sandbox/build.mjs';

const require = createRequire(import.meta.url);
// The Miniflare release wrangler runs `wrangler dev` with (the top-level one belongs to the vitest pool).
const { Miniflare } = createRequire(require.resolve('wrangler/package.json'))('miniflare');

const root = fileURLToPath(new URL('../../', import.meta.url));
const WORKER_BUNDLE = `${root}.build/storm/worker.js`;

export const SECRETS = {
  API_SECRET: 'sandbox-api-secret-not-for-production',
  GEO_API_KEY: 'sandbox-geo-key-not-for-production',
  SIGNED_SITE_SECRET: 'sandbox-url-signing-secret-not-for-production',
  ADDRESS_SALT: 'storm-address-salt',
  ADMIN_TOKEN: 'storm-admin-token-not-for-production',
  // Derives the access keys' v1 secrets (worker/docs/gateway.md, "v1 signature setup"); test/node drives /v1 with
  // the v1 client.
  V1_SIGNING_SECRET: 'storm-v1-signing-secret-not-for-production',
};

/** The operator configuration as shipped in wrangler.toml, with `changes` merged into its sections. */
export function shippedConfig(changes = {}) {
  const shipped = unstable_readConfig({ config: `${root}wrangler.toml` }).vars.REELGATE_CONFIG;
  const out = structuredClone(shipped);
  for (const [section, value] of Object.entries(changes)) {
    out[section] = value && typeof value === 'object' && !Array.isArray(value) ? { ...out[section], ...value } : value;
  }
  return out;
}

async function bundleWorker() {
  mkdirSync(`${root}.build/storm`, { recursive: true });
  mkdirSync(`${root}dist`, { recursive: true });
  await build({
    entryPoints: [`${root}worker/index.ts`],
    outfile: WORKER_BUNDLE,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    external: ['cloudflare:*', 'node:*'],
    logLevel: 'warning',
  });
}

/**
 * Starts the worker and the sandbox. `config` is the REELGATE_CONFIG object (default: as shipped); `visitorLimit`
 * the per-visitor limit per minute (default: as shipped). Resolves to the worker's address and helpers.
 */
export async function startStack({ config = shippedConfig(), visitorLimit } = {}) {
  await Promise.all([bundleWorker(), buildSandbox()]);
  const { workerOptions } = unstable_getMiniflareWorkerOptions(`${root}wrangler.toml`);
  const ratelimits = {};
  for (const [name, limit] of Object.entries(workerOptions.ratelimits ?? {})) {
    ratelimits[name] = { simple: { limit: visitorLimit ?? limit.simple.limit, period: limit.simple.period } };
  }
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    workers: [
      {
        ...workerOptions,
        name: 'reelgate',
        modules: true,
        scriptPath: WORKER_BUNDLE,
        ratelimits,
        bindings: {
          ...workerOptions.bindings,
          ...SECRETS,
          API_BASE_URL: 'http://sandbox.test',
          GEO_API_URL: 'http://sandbox.test',
          DELIVERY_BASE_URL: 'http://sandbox.test',
          DEV_MODE: 'false',
          REELGATE_CONFIG: JSON.stringify(config),
        },
        // Every fetch the worker makes goes to the sandbox, as it would go to the platform.
        outboundService: 'sandbox',
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
      },
      sandboxWorkerOptions(),
    ],
  });
  await mf.ready;
  await applyGatewayMigrations(mf);
  const origin = (await mf.unsafeGetDirectURL('reelgate')).origin;
  const sandboxUrl = (await mf.ready).origin;
  return {
    origin,
    /** The sandbox, through the Miniflare entry (it routes to the first worker, so use the SANDBOX helpers below). */
    sandbox: sandboxControls(mf),
    stop: () => mf.dispose(),
    sandboxUrl,
  };
}

/** The gateway's schema, as `wrangler d1 migrations apply` leaves it in a deployment. */
async function applyGatewayMigrations(mf) {
  const db = await mf.getD1Database('GATEWAY_DB', 'reelgate');
  const dir = `${root}worker/gateway/migrations/`;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.sql')).sort()) {
    for (const statement of unstable_splitSqlQuery(readFileSync(dir + file, 'utf8'))) await db.prepare(statement).run();
  }
}

/** The sandbox's controls (demo/sandbox/controls.ts), called through Miniflare's dispatch to the sandbox worker. */
function sandboxControls(mf) {
  const call = async (path, init) => {
    const worker = await mf.getWorker('sandbox');
    const response = await worker.fetch(`http://sandbox.test${path}`, init);
    const text = await response.text();
    if (!response.ok) throw new Error(`sandbox ${path} answered ${response.status}: ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : null;
  };
  const post = (path, body) => call(path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return {
    reset: () => post('/_sandbox/reset', {}),
    faults: (faults) => post('/_sandbox/faults', faults),
    stats: () => call('/_sandbox/stats'),
    catalog: () => call('/_sandbox/catalog'),
    /** A Management API read with the sandbox-only secret (counts toward the sandbox's own window). */
    v2: (path) => call(path, { headers: { authorization: `Bearer ${SECRETS.API_SECRET}` } }),
  };
}

/**
 * One HTTP request to the worker with the path sent exactly as given (no URL parsing on our side either, so `..`,
 * `%2e%2e` and `\` reach the socket as written). Resolves to {status, headers, text}.
 */
export function send(origin, path, { method = 'GET', headers = {}, body, hangUpAfterMs, cf } = {}) {
  const { hostname, port } = new URL(origin);
  if (cf) headers = { ...headers, 'mf-cf-blob': JSON.stringify(cf) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({
        status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'),
      }));
      res.on('error', reject);
    });
    if (hangUpAfterMs !== undefined) {
      // A visitor who leaves: the connection closes before the answer, and workerd cancels that request.
      const timer = setTimeout(() => req.destroy(), hangUpAfterMs);
      req.on('close', () => clearTimeout(timer));
      req.on('error', () => resolve({ status: 0, headers: {}, text: '' }));
    } else {
      req.on('error', reject);
    }
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${path}: no answer within 60 s`)));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A gateway access key made through /admin with the operator's token, as an operator would; resolves to its secret. */
export async function createGatewayKey(origin, sites, scopes = ['read', 'write']) {
  const created = await send(origin, '/admin/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRETS.ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'storm-cms', scopes, sites }),
  });
  if (created.status !== 201) throw new Error(`/admin/keys answered ${created.status}: ${created.text}`);
  return JSON.parse(created.text).key;
}

/** The v2 error body, exactly: `{"errors":[{"code","description"}, ...]}` with non-empty strings. */
export function isV2Error(text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { errors } = body;
  return Object.keys(body).length === 1 && Array.isArray(errors) && errors.length > 0 && errors.every((e) =>
    typeof e === 'object' && e !== null && typeof e.code === 'string' && e.code !== '' &&
    typeof e.description === 'string' && e.description !== '');
}

export function errorCode(text) {
  try {
    return JSON.parse(text).errors[0]?.code ?? null;
  } catch {
    return null;
  }
}

/** Counts answers by status and code, for assertion messages. */
export function summarise(answers) {
  const out = {};
  for (const a of answers) {
    const what = isV2Error(a.text) ? errorCode(a.text) : a.status < 300 ? 'ok' : `raw:${a.text.slice(0, 60)}`;
    const key = `${a.status} ${what}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/** `count` distinct IPv4 visitors from the benchmarking range 198.18.0.0/15, starting at `base`. */
export function visitors(count, base = 0) {
  return Array.from({ length: count }, (_, i) => `198.18.${(base + i) >> 8 & 255}.${(base + i) & 255}`);
}
