// The plumbing the two server-side rendering examples (demo/ssr-astro, demo/ssr-node) share, none of it reelgate's:
// who the visitor is, static files, and a pass-through of the browser's own API calls to the worker.
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';

/**
 * The visitor's address as this server knows it: the connection's; behind your own proxy or CDN (TRUST_PROXY=1), the
 * first address of `X-Forwarded-For`, which only your proxy may set (anyone can send that header to a server that is
 * reached directly, so never trust it there). What `reelgate/server` forwards to the worker as the visitor.
 */
export function visitorOf(request) {
  const forwarded = process.env.TRUST_PROXY === '1' ? request.headers['x-forwarded-for']?.split(',')[0]?.trim() : '';
  const address = forwarded || request.socket.remoteAddress || null;
  return address?.replace(/^::ffff:(?=\d+\.)/, '') ?? null;
}

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.html': 'text/html' };

/** Serves a file under `dir` (no path outside it); false when there is none. */
export function sendFile(response, dir, path) {
  const file = normalize(join(dir, decodeURIComponent(path)));
  if (!file.startsWith(dir + sep)) return false;
  try {
    if (!statSync(file).isFile()) return false;
  } catch {
    return false;
  }
  response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(response);
  return true;
}

/**
 * The browser's own calls to the worker (`/api/…`: "Load more", a choice in the shelf, the player's configuration),
 * passed through as they are, so the page needs no entry in the worker's `allowed_origins` for this demo. A
 * publisher's pages usually call the worker directly instead (its origin in `allowed_origins`).
 */
export async function proxy(request, response, worker) {
  const headers = { ...request.headers };
  delete headers.host;
  delete headers.connection;
  const upstream = await fetch(new URL(request.url, worker), { method: request.method, headers, redirect: 'manual' });
  await sendWebResponse(response, upstream);
}

/** Writes a fetch `Response` to a Node response. */
export async function sendWebResponse(response, web) {
  const headers = Object.fromEntries([...web.headers].filter(([name]) => name !== 'content-encoding' && name !== 'content-length'));
  response.writeHead(web.status, headers);
  if (web.body) Readable.fromWeb(web.body).pipe(response);
  else response.end();
}

/** The worker (default: `npm start`'s) and its render token, from the environment. */
export function workerSettings() {
  const endpoint = (process.env.REELGATE_ENDPOINT ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
  const token = process.env.REELGATE_RENDER_TOKEN;
  if (!token) {
    throw new Error('REELGATE_RENDER_TOKEN is not set: give it the worker\'s RENDER_TOKEN (with `npm start`, the ' +
      'RENDER_TOKEN line of .dev.vars).');
  }
  return { endpoint, token };
}
