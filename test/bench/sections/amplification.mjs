// Section 2: a load far above the upstream's 60 requests/minute, through reelgate (cold caches, then warm) and
// through the naive pass-through proxy. Client requests, upstream calls (the sandbox's own count), upstream 429s and
// the status mix the clients saw.
import { load } from '../lib/load.mjs';
import { managementCalls, sandboxControls } from '../lib/sandbox.mjs';
import { rotatingVisitor, visitorAddresses } from '../lib/visitors.mjs';

const REQUESTS = 5000;
const CONNECTIONS = 100;
const DISTINCT_KEYS = 200;
/** Media keys among the 200; the rest are feed pages. A feed costs 3-4 upstream calls, a media 3. */
const MEDIA_KEYS = 16;
const FILL_CAP_MS = 150_000;

/**
 * 200 distinct public URLs of the catalog's site without a geo policy: each playlist's feed at several page lengths
 * and pages (what different widgets and "load more" clicks ask for), and published media for the player.
 */
async function distinctKeys(sandbox, secrets) {
  const catalog = await sandbox.catalog();
  const site = catalog.sites[0];
  const playlists = Object.values(site.playlists).flat();
  const list = await sandbox.v2(`/v2/sites/${site.id}/media/?q=status:ready&page_length=100`, secrets.API_SECRET);
  const now = Date.now();
  const published = list.media.filter((m) => m.metadata.publish_start_date && Date.parse(m.metadata.publish_start_date) <= now &&
    (!m.metadata.publish_end_date || Date.parse(m.metadata.publish_end_date) > now)).map((m) => m.id);
  const media = published.slice(0, MEDIA_KEYS).map((id) => `/api/sites/${site.id}/media/${id}`);
  const feeds = [];
  const lengths = [4, 5, 6, 8, 10, 12, 15, 20, 25, 50];
  for (let page = 1; feeds.length < DISTINCT_KEYS - media.length; page++) {
    for (const length of lengths) {
      for (const playlist of playlists) {
        if (feeds.length < DISTINCT_KEYS - media.length) feeds.push(`/api/sites/${site.id}/playlists/${playlist}?page=${page}&page_length=${length}`);
      }
    }
  }
  return { site: site.id, playlists: playlists.length, keys: [...feeds, ...media], feedKeys: feeds.length, mediaKeys: media.length };
}

function shuffled(keys, seed) {
  const out = [...keys];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** 5,000 requests from 100 concurrent clients walking the 200 keys in a shuffled order. */
async function scenario(sandbox, origin, keys, visitors) {
  await sandbox.reset();
  const order = shuffled(keys, 7);
  let next = 0;
  const result = await load({
    origin,
    connections: CONNECTIONS,
    amount: REQUESTS,
    capSeconds: 180,
    // A feed miss makes up to four budgeted calls in turn, each allowed to queue for max_wait_ms: let clients wait
    // that out rather than count it as a client timeout.
    timeoutSeconds: 30,
    nextPath: () => order[next++ % order.length],
    nextHeaders: visitors,
  });
  const stats = await sandbox.stats();
  return {
    client_requests: result.requests,
    duration_s: result.duration_s,
    upstream_calls: managementCalls(stats),
    upstream_429s: stats.rate_limited,
    // Started feed loads show as playlist calls, finished ones as media-list calls: the gap is budget spent on loads
    // that ran out of budget half-way.
    upstream_calls_by_route: stats.routes,
    peak_upstream_calls_per_minute: stats.peak_calls_per_minute,
    client_statuses: result.statuses,
    client_errors: result.errors,
    client_timeouts: result.timeouts,
    latency_ms: result.latency_ms,
    cut_by_time_cap: result.cut_by_time_cap,
  };
}

/** Asks for each key not yet served, one at a time, until all are cached (a 429 means "later"): a warm-up. */
async function fill(origin, keys, visitors, log) {
  const served = new Set();
  const end = Date.now() + FILL_CAP_MS;
  while (served.size < keys.length && Date.now() < end) {
    let waitMs = 0;
    for (const key of keys) {
      if (served.has(key) || Date.now() > end) continue;
      const response = await fetch(`${origin}${key}`, { headers: visitors() });
      await response.arrayBuffer();
      if (response.status === 429) waitMs = Math.min(3000, (Number(response.headers.get('retry-after')) || 1) * 1000);
      else if (response.ok) served.add(key);
      else throw new Error(`warm-up: ${key} answered ${response.status}`);
      if (waitMs) {
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        waitMs = 0;
      }
    }
  }
  log(`warm-up: ${served.size} of ${keys.length} keys cached`);
  return served.size;
}

export async function amplification(servers, log) {
  const sandbox = sandboxControls(servers.sandbox);
  await sandbox.reset();
  const chosen = await distinctKeys(sandbox, servers.secrets);
  const visitors = rotatingVisitor(visitorAddresses(200));
  log(`${REQUESTS} requests, ${CONNECTIONS} connections, ${chosen.keys.length} distinct keys (${chosen.feedKeys} feed pages of ` +
    `${chosen.playlists} playlists, ${chosen.mediaKeys} media)`);

  const cold = await scenario(sandbox, servers.worker, chosen.keys, visitors);
  log(`reelgate, cold: ${cold.upstream_calls} upstream calls, statuses ${JSON.stringify(cold.client_statuses)}`);
  const warmedKeys = await fill(servers.worker, chosen.keys, visitors, log);
  const warm = await scenario(sandbox, servers.worker, chosen.keys, visitors);
  log(`reelgate, warm: ${warm.upstream_calls} upstream calls, statuses ${JSON.stringify(warm.client_statuses)}`);
  return {
    load: { requests: REQUESTS, connections: CONNECTIONS, distinct_keys: chosen.keys.length, feed_keys: chosen.feedKeys,
      media_keys: chosen.mediaKeys, site: chosen.site },
    upstream_limit_per_minute: 60,
    reelgate_cold: cold,
    reelgate_warm: { ...warm, keys_cached_before: warmedKeys },
    keys: chosen.keys,
  };
}

/**
 * The same load through the naive proxy. Run last: it spends the upstream's window for the shared secret (as it would
 * in production), and reelgate's budget then rightly pauses for the upstream's Retry-After.
 */
export async function naiveAmplification(servers, keys, log) {
  const sandbox = sandboxControls(servers.sandbox);
  const naive = await scenario(sandbox, servers.naive, keys, rotatingVisitor(visitorAddresses(200)));
  log(`naive proxy: ${naive.upstream_calls} upstream calls, statuses ${JSON.stringify(naive.client_statuses)}`);
  await sandbox.reset();
  return naive;
}
