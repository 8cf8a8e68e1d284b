// A fixed, moderate load (section 1's latency a user feels): requests sent at a steady rate, whatever the answers do
// (an open loop), over a few keep-alive connections on raw sockets, each answer timed to the microsecond.
//
// Why not autocannon: its `overallRate` lets each connection send back to back until that second's quota is spent and
// then idles until the next second, so "40 % of capacity" is really saturation for 40 % of every second, and its
// latency histogram keeps whole milliseconds, while a HIT on a direct workerd socket answers in well under one. Here
// request i is due at start + i / rate; a 1 ms timer sends every request that is due (one at a time at moderate rates,
// a few together when this process was held up) on an idle connection, or queues it until one is free. Latency is from
// the request's write to the last byte of its answer; `lag_ms` (due → written: this process's timer and any wait for a
// connection) is reported beside it, so a slow client shows rather than hides in the server's figures.
import { connect } from 'node:net';
import { percentiles, round } from './load.mjs';

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * The end of one HTTP/1.1 answer in `buffer` (status and framing from its head: Content-Length or chunked), or null
 * while it is incomplete.
 */
function answerEnd(buffer) {
  const headEnd = buffer.indexOf(CRLF2);
  if (headEnd < 0) return null;
  const head = buffer.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  let at = headEnd + 4;
  if (length) {
    const end = at + Number(length[1]);
    return buffer.length >= end ? { status, end } : null;
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    for (;;) {
      const lineEnd = buffer.indexOf('\r\n', at, 'latin1');
      if (lineEnd < 0) return null;
      const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
      if (size === 0) {
        // No trailers from workerd: the last chunk is followed by one empty line.
        const end = lineEnd + 4;
        return buffer.length >= end ? { status, end } : null;
      }
      at = lineEnd + 2 + size + 2;
      if (buffer.length < at) return null;
    }
  }
  if (status === 204 || status === 304) return { status, end: at };
  throw new Error(`an answer without Content-Length or chunked framing: ${head.split('\r\n')[0]}`);
}

/**
 * `rate` requests a second for `durationSeconds` to `origin` + `path`, each with `headers` and `nextHeaders()`'s, over
 * `connections` keep-alive connections. Resolves when every request has its answer (or `timeoutSeconds` passed).
 */
export async function paced({ origin, path, headers = {}, nextHeaders, rate, durationSeconds, connections = 10, timeoutSeconds = 15 }) {
  const { hostname, port } = new URL(origin);
  const total = Math.max(1, Math.round(rate * durationSeconds));
  const latencies = [];
  const lags = [];
  const statuses = {};
  let errors = 0;
  let queuedMax = 0;
  let waitedForConnection = 0;
  let answered = 0;
  let issued = 0;
  const queue = [];
  const requestFor = () => {
    const all = { ...headers, ...(nextHeaders ? nextHeaders() : {}) };
    const lines = [`GET ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: keep-alive'];
    for (const [name, value] of Object.entries(all)) lines.push(`${name}: ${value}`);
    return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  };

  let finish;
  const finished = new Promise((resolve) => {
    finish = resolve;
  });
  const settle = () => {
    if (answered + errors >= total) finish();
  };

  const open = () => new Promise((resolve, reject) => {
    const conn = { socket: null, busy: null, buffer: Buffer.alloc(0) };
    const socket = connect({ host: hostname, port: Number(port), noDelay: true });
    conn.socket = socket;
    socket.once('connect', () => {
      conn.ready = true;
      resolve(conn);
    });
    socket.once('error', (error) => {
      if (!conn.ready) reject(error);
    });
    socket.on('data', (chunk) => {
      conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
      if (!conn.busy) return;
      const done = answerEnd(conn.buffer);
      if (!done) return;
      const ms = Number(process.hrtime.bigint() - conn.busy.written) / 1e6;
      latencies.push(ms);
      statuses[done.status] = (statuses[done.status] ?? 0) + 1;
      conn.buffer = conn.buffer.subarray(done.end);
      conn.busy = null;
      answered++;
      next(conn);
      settle();
    });
    socket.on('close', () => {
      conn.closed = true;
      if (conn.busy) {
        conn.busy = null;
        errors++;
        settle();
      }
    });
    socket.on('error', () => {});
  });
  const pool = await Promise.all(Array.from({ length: connections }, open));

  function send(conn, request) {
    conn.busy = { written: process.hrtime.bigint() };
    lags.push(Number(conn.busy.written - request.due) / 1e6);
    conn.socket.write(request.bytes);
  }
  function next(conn) {
    if (queue.length && !conn.closed) send(conn, queue.shift());
  }

  const start = process.hrtime.bigint();
  const interval = 1e9 / rate;
  const tick = () => {
    const elapsed = Number(process.hrtime.bigint() - start);
    const due = Math.min(total, Math.floor(elapsed / interval) + 1);
    while (issued < due) {
      const request = { due: start + BigInt(Math.round(issued * interval)), bytes: requestFor() };
      issued++;
      const idle = pool.find((conn) => !conn.busy && !conn.closed);
      if (idle) send(idle, request);
      else {
        queue.push(request);
        waitedForConnection++;
        queuedMax = Math.max(queuedMax, queue.length);
      }
    }
    if (issued >= total) clearInterval(timer);
  };
  const timer = setInterval(tick, 1);
  tick();
  const cap = setTimeout(finish, (durationSeconds + timeoutSeconds) * 1000);
  await finished;
  clearTimeout(cap);
  clearInterval(timer);
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  for (const conn of pool) conn.socket.destroy();
  return {
    offered_rate: rate,
    connections,
    requests: total,
    answered,
    achieved_rate: round(answered / elapsed, 0),
    duration_s: round(elapsed, 2),
    statuses,
    errors: errors + (total - answered - errors),
    latency_ms: percentiles(latencies),
    lag_ms: percentiles(lags),
    waited_for_a_connection: waitedForConnection,
    most_queued: queuedMax,
    // Kept for pooling rounds (not written to the results).
    samples: latencies,
    lag_samples: lags,
  };
}
