// Load generation with autocannon, in this process, over loopback only. Every run is bounded: by a request count
// (`amount`) or a duration, and in both cases by a hard time cap after which the run is stopped and reported as cut.
import autocannon from 'autocannon';

/**
 * Runs one load. `paths` is either one path or a function returning the next path (called once per request, shared
 * by all connections, so 100 connections walk one key list instead of repeating each other in lockstep).
 * `onResponse(path, status, headers)`, when given, hears every answer with the path it answers.
 */
export async function load({ origin, path, nextPath, headers = {}, nextHeaders, connections, durationSeconds, amount,
  capSeconds, timeoutSeconds = 15, onResponse, precise = false }) {
  const request = {
    method: 'GET',
    path: path ?? '/',
    headers,
  };
  if (nextPath || nextHeaders || onResponse) {
    request.setupRequest = (req, context) => {
      const next = nextPath ? nextPath() : req.path;
      // One request in flight per connection (no pipelining): the answer that comes back is to this path.
      context.path = next;
      return { ...req, path: next, headers: nextHeaders ? { ...headers, ...nextHeaders() } : req.headers };
    };
  }
  if (onResponse) request.onResponse = (status, _body, context, responseHeaders) => onResponse(context.path, status, responseHeaders);
  const options = {
    url: origin,
    connections,
    timeout: timeoutSeconds,
    requests: [request],
    ...(amount ? { amount } : { duration: durationSeconds }),
  };
  const instance = autocannon(options);
  // autocannon's histogram keeps whole milliseconds; `precise` also keeps every answer's time as measured (a float, in
  // ms), for answers that take well under one (direct workerd sockets).
  const samples = precise ? [] : null;
  if (precise) instance.on('response', (_client, _status, _bytes, ms) => samples.push(ms));
  let cut = false;
  const cap = setTimeout(() => {
    cut = true;
    instance.stop();
  }, (capSeconds ?? (durationSeconds ?? 60) + 30) * 1000);
  const result = await new Promise((resolve, reject) => {
    instance.once('done', resolve);
    instance.once('error', reject);
  });
  clearTimeout(cap);
  const summary = summarize(result, cut);
  if (precise) {
    summary.latency_precise_ms = percentiles(samples);
    summary.samples = samples;
  }
  return summary;
}

/** p-th percentiles (0–100) of a list of numbers, nearest rank; mean and max beside. */
export function percentiles(samples, ps = [50, 90, 99]) {
  if (samples.length === 0) return { count: 0 };
  const sorted = Float64Array.from(samples).sort();
  const out = { count: sorted.length, mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length, 3) };
  for (const p of ps) out[`p${p}`] = round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))], 3);
  out.max = round(sorted[sorted.length - 1], 3);
  return out;
}

function summarize(result, cut) {
  const statuses = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = count;
  const completed = result.latency.totalCount;
  return {
    connections: result.connections,
    duration_s: round(result.duration, 2),
    requests: completed,
    requests_per_second: round(completed / result.duration, 0),
    latency_ms: {
      mean: round(result.latency.average, 2),
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    cut_by_time_cap: cut,
  };
}

export function round(value, digits) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
