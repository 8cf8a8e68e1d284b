// The HTTP front `npm start` (demo/start.mjs) puts on its two public ports, in front of `wrangler dev` (issue 27,
// item 4).
//
// Why: `wrangler dev` listens with workerd itself, and workerd's HTTP listener (socket style "host") takes only the
// origin form of a request target (`PUT /upload/... HTTP/1.1`). Anything else fails inside workerd, before a line of
// the worker or the sandbox runs, with a plain-text `500 Internal Server Error` ("kj/compat/url.c++: invalid URL"):
// the absolute form (`PUT http://localhost:8788/upload/... HTTP/1.1`, valid HTTP/1.1 that every server must accept,
// RFC 9112 section 3.2.2, and what the platform's official Python client sends to an upload link), `OPTIONS *`, a
// request without a Host header, or a Host header that is not a host. Neither worker can fix that in its fetch
// handler, since it is never called, and wrangler has no option for it. In production Cloudflare's edge parses the
// request line, not workerd's listener, so this is a dev-stack problem only, and this front is dev-stack only.
//
// What it does: every request is passed on to `wrangler dev` on a private loopback port, as received: method, the
// path exactly as written (nothing re-parsed or normalised, so the worker's raw-path checks see what the client
// sent), headers in their order and spelling, the body streamed, and the answer streamed back. Only what workerd cannot
// take is changed or answered here:
// - an absolute-form target becomes its origin form (`http://h:p/a?b` -> `/a?b`), and the Host header becomes the
//   target's authority, as RFC 9112 section 3.2.2 says, so it gets the origin form's answer;
// - an HTTP/1.0 request without Host gets the front's own address as its Host;
// - `OPTIONS *` is answered 204 here with the methods the stack serves;
// - a target that is neither a path nor an absolute http(s) URL, a missing, repeated or malformed Host, `CONNECT` (this
//   is no proxy) and a request Node's parser refuses are answered 400 here (431 for oversized headers), in the
//   platform's v2 error shape `{"errors":[{"code","description"}]}`, never the runtime's plain-text 500. Node's parser
//   is stricter than workerd's in one way people may meet: raw non-ASCII bytes in a target (`/?q=ü` unescaped, which
//   no browser sends) are a 400 here, where workerd took them. An `Expect` other than 100-continue is Node's 417.
// - on the edge worker's port (`checkPaths`), a path `wrangler dev` would rewrite before the worker reads it is
//   answered 400 `invalid_request` here: a percent-encoded dot segment (`%2e%2e`, `.%2e`, `%2E`) and any backslash.
//   wrangler dev parses the URL again (WHATWG rules: `%2e` is a dot there and `\` a slash) and hands the worker the
//   resolved path, so `/api/gate/%2e%2e/geo` would reach it as `/api/geo` and its own raw-path check
//   (worker/http/request-guard.ts) could not refuse it, as it does on workerd without wrangler dev. Literal `.` and
//   `..` segments pass: workerd resolves them itself, as Cloudflare does in front of a deployed worker. Everything
//   else the worker refuses raw (`%2f`, `%5c`, `%00`, `//`) reaches it unchanged and is refused there.
// Hop-by-hop headers (Connection and what it names, Keep-Alive, Upgrade, TE, Trailer, Expect, Proxy-Connection) are
// the front's own on each side; nothing uses WebSockets or Upgrade here.
import { createServer, request as httpRequest } from 'node:http';

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'upgrade', 'te', 'trailer', 'expect', 'http2-settings'];
/**
 * A Host value workerd takes: a name of letters, digits, `-`, `_` and `.`, an IPv4 address or a bracketed IPv6
 * address, then an optional port up to 65535, and a host the URL parser accepts (`999.1.1.1` and `[1:2]` are not). No
 * userinfo, no percent-escapes: workerd answers those with its plain-text 500.
 */
export function validAuthority(authority) {
  const match = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-_.]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!match || (match[1] !== undefined && Number(match[1]) > 65535)) return false;
  try {
    return new URL(`http://${authority}/`).host !== '';
  } catch {
    return false;
  }
}
const ABSOLUTE = /^https?:\/\/([^/?#]*)(.*)$/is;

/**
 * The origin form of a request target: `{ path, authority }` (authority null for a target already in origin form),
 * or null for a target that is neither origin form nor an absolute http(s) URL.
 */
export function toOriginForm(target) {
  if (target.startsWith('/')) return { path: target, authority: null };
  const absolute = ABSOLUTE.exec(target);
  if (!absolute) return null;
  const [, authority, rest] = absolute;
  return { path: rest === '' ? '/' : rest.startsWith('/') ? rest : `/${rest}`, authority };
}

/**
 * Why `wrangler dev` would hand the worker another path than `path` (an origin-form target, query included), where
 * the deployed worker refuses it raw: a backslash (a slash to the URL parser) or a percent-encoded dot segment (a dot
 * segment to it, resolved). Null when the path reaches the worker as written or only with literal dot segments
 * resolved.
 */
export function rewrittenPath(target) {
  const path = target.split(/[?#]/, 1)[0];
  if (path.includes('\\')) return 'The path is not valid: backslashes are not allowed.';
  for (const segment of path.split('/')) {
    if (segment.includes('%') && /^(?:\.|%2e){1,2}$/i.test(segment)) {
      return 'The path is not valid: percent-encoded dot segments are not allowed.';
    }
  }
  return null;
}

/** A v2 error answer, as the worker and the sandbox write theirs. */
function errorBody(code, description) {
  return JSON.stringify({ errors: [{ code, description }] });
}

const ERROR_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff',
  'cache-control': 'no-store' };

function refuse(res, status, code, description) {
  const body = errorBody(code, description);
  res.writeHead(status, { ...ERROR_HEADERS, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The same, written straight to a socket (parse errors and CONNECT have no response object). */
function refuseOnSocket(socket, status, reason, code, description) {
  const body = errorBody(code, description);
  const head = [`HTTP/1.1 ${status} ${reason}`, ...Object.entries(ERROR_HEADERS).map(([k, v]) => `${k}: ${v}`),
    `content-length: ${Buffer.byteLength(body)}`, 'connection: close'];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** Raw headers without the hop-by-hop ones (and those the Connection header names), plus `drop`. */
function endToEnd(raw, drop = []) {
  const named = new Set([...HOP_BY_HOP, ...drop]);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].toLowerCase() === 'connection') for (const token of raw[i + 1].split(',')) named.add(token.trim().toLowerCase());
  }
  const out = [];
  for (let i = 0; i < raw.length; i += 2) if (!named.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return out;
}

/**
 * Listens on `host:port` and passes every request on to `wrangler dev` on `host:targetPort`; `checkPaths` (the edge
 * worker's port) refuses what `rewrittenPath` names. Resolves to the `http.Server` once it listens; rejects when it
 * cannot (the port taken, say).
 */
export function startFront({ host = '127.0.0.1', port, targetPort, checkPaths = false }) {
  const server = createServer({ requireHostHeader: false, requestTimeout: 0, keepAliveTimeout: 5000 }, (req, res) => {
    res.sendDate = false; // workerd's answers carry no Date; add nothing
    const target = toOriginForm(req.url ?? '');
    if (req.url === '*' && req.method === 'OPTIONS') {
      res.writeHead(204, { allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' });
      res.end();
      return;
    }
    if (!target) {
      return refuse(res, 400, 'invalid_request',
        'The request target must be a path (/...) or an absolute http(s) URL (http://host/...).');
    }
    // RFC 9112 section 3.2: one Host, a valid one, required in HTTP/1.1 (whatever the target's form).
    const hosts = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === 'host') hosts.push(req.rawHeaders[i + 1]);
    if (hosts.length > 1) return refuse(res, 400, 'invalid_request', 'The request has more than one Host header.');
    if (hosts.length === 0 && req.httpVersion !== '1.0') {
      return refuse(res, 400, 'invalid_request', 'An HTTP/1.1 request needs a Host header.');
    }
    if (hosts.length === 1 && !validAuthority(hosts[0])) {
      return refuse(res, 400, 'invalid_request', 'The Host header is not a host[:port].');
    }
    if (target.authority !== null && !validAuthority(target.authority)) {
      return refuse(res, 400, 'invalid_request', 'The request target\'s authority is not a host[:port].');
    }
    const rewritten = checkPaths ? rewrittenPath(target.path) : null;
    if (rewritten) return refuse(res, 400, 'invalid_request', rewritten);
    // Section 3.2.2: with an absolute-form target, the target's authority is the host, not the Host header.
    const authority = target.authority ?? hosts[0] ?? `${host}:${port}`;

    const headers = endToEnd(req.rawHeaders, ['host']);
    headers.unshift('Host', authority);
    const upstream = httpRequest({ host, port: targetPort, method: req.method, path: target.path, headers, agent: false });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders, ['transfer-encoding']));
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (error) => {
      if (res.headersSent) return res.destroy();
      refuse(res, 502, 'dev_server_unavailable', `wrangler dev on ${host}:${targetPort} did not answer (${error.code ?? error.message}).`);
    });
    // The client hanging up cancels the request inside workerd too, as it would without the front.
    res.on('close', () => { if (!res.writableFinished) upstream.destroy(); });
    req.on('error', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (_req, socket) => {
    refuseOnSocket(socket, 400, 'Bad Request', 'invalid_request', 'CONNECT is not served: this is not a proxy.');
  });
  server.on('clientError', (error, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      return refuseOnSocket(socket, 431, 'Request Header Fields Too Large', 'invalid_request', 'The request headers are too large.');
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      return refuseOnSocket(socket, 408, 'Request Timeout', 'invalid_request', 'The request did not arrive in time.');
    }
    refuseOnSocket(socket, 400, 'Bad Request', 'invalid_request', 'The request is not valid HTTP/1.1.');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/**
 * `count` distinct free loopback ports, for `wrangler dev` behind the fronts (all held open until all are found; the
 * moment between closing them and wrangler listening is the only window another process could take one).
 */
export async function privatePorts(count, host = '127.0.0.1') {
  const probes = await Promise.all(Array.from({ length: count }, () => new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => resolve(probe));
  })));
  const ports = probes.map((probe) => probe.address().port);
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
  return ports;
}
