// The sandbox's controls (demo/sandbox/controls.ts), as the bench uses them: reset before each scenario, read the
// statistics after, list the catalog. Plus a read of the Management API with the sandbox-only secret, to pick ids.
async function json(response, what) {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

export function sandboxControls(origin) {
  const post = (path, body) => fetch(`${origin}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  }).then((response) => json(response, path));
  return {
    /** Seed catalog again, zero the statistics and the rate windows, clear faults. */
    reset: (body = {}) => post('/_sandbox/reset', body),
    stats: () => fetch(`${origin}/_sandbox/stats`).then((response) => json(response, '/_sandbox/stats')),
    catalog: () => fetch(`${origin}/_sandbox/catalog`).then((response) => json(response, '/_sandbox/catalog')),
    faults: (faults) => post('/_sandbox/faults', faults),
    /** GET on the Management API as the worker would make it (counts toward the sandbox's own limit). */
    v2: (path, secret) => fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${secret}` } })
      .then((response) => json(response, path)),
  };
}

/** Management API calls in a stats snapshot (geo lookups have their own lane and budget). */
export function managementCalls(stats) {
  return Object.entries(stats.routes ?? {}).filter(([route]) => route.includes('/v2/')).reduce((sum, [, n]) => sum + n, 0);
}
export function geoCalls(stats) {
  return Object.entries(stats.routes ?? {}).filter(([route]) => route.includes('/ip_lookup/')).reduce((sum, [, n]) => sum + n, 0);
}
