// Section 2: a load far above the upstream's 60 requests/minute, through reelgate (cold caches, then warm) and
// through the naive pass-through proxy. Client requests, upstream calls (the sandbox's own count), upstream 429s and
// the status mix the clients saw.
import { load } from '../lib/load.mjs';
import { managementCalls, sandboxControls } from '../lib/sandbox.mjs';
import { rotatingVisitor, visitorAddresses } from '../lib/visitors.mjs';

const REQUESTS = 5000;
const CONNECTIONS = 100;
const DISTINCT_KEYS = 200;
/**
 * Media keys among the 200; the rest are feed pages. A feed costs two Management calls (its head: type and rules) and
 * one Delivery API call (its items); a media one Delivery API call and one Management call (its text tracks: whose
 * the media is, and their languages).
 */
const MEDIA_KEYS = 16;
const FILL_CAP_MS = 150_000;

/**
 * 200 distinct public URLs of the catalog's site without a geo policy: each playlist's feed at several page lengths
 * and pages (what different widgets and "load more" clicks ask for), and published media for the player. Each URL is
 * answered from one cache entry (a playlist's feed, a media): `entries` names it and the upstream calls its load needs
 * at the least (the floor), read from the catalog as the worker would resolve it.
 */
async function distinctKeys(sandbox, secrets) {
  const catalog = await sandbox.catalog();
  const site = catalog.sites[0];
  const playlists = Object.values(site.playlists).flat();
  const list = await sandbox.v2(`/v2/sites/${site.id}/media/?q=status:ready&page_length=100`, secrets.API_SECRET);
  const now = Date.now();
  const published = list.media.filter((m) => m.metadata.publish_start_date && Date.parse(m.metadata.publish_start_date) <= now &&
    (!m.metadata.publish_end_date || Date.parse(m.metadata.publish_end_date) > now)).map((m) => m.id);
  const entries = new Map();
  for (const id of published.slice(0, MEDIA_KEYS)) {
    // Its text tracks, site-scoped (whose the media is, and their languages): the Management side of a media answer.
    entries.set(`/api/sites/${site.id}/media/${id}`, { entry: `media:${id}`, floor: 1 });
  }
  const floors = new Map();
  for (const id of playlists) floors.set(id, await feedFloor(sandbox, secrets, site.id, id));
  const media = [...entries.keys()];
  const feeds = [];
  const lengths = [4, 5, 6, 8, 10, 12, 15, 20, 25, 50];
  for (let page = 1; feeds.length < DISTINCT_KEYS - media.length; page++) {
    for (const length of lengths) {
      for (const playlist of playlists) {
        if (feeds.length >= DISTINCT_KEYS - media.length) continue;
        const path = `/api/sites/${site.id}/playlists/${playlist}?page=${page}&page_length=${length}`;
        feeds.push(path);
        entries.set(path, { entry: `feed:${playlist}`, floor: floors.get(playlist) });
      }
    }
  }
  return { site: site.id, playlists: playlists.length, keys: [...feeds, ...media], feedKeys: feeds.length, mediaKeys: media.length, entries };
}

/**
 * The fewest Management calls a cold load of a playlist's feed needs (worker/catalog/playlist-head.ts): the untyped
 * playlist (its type), then the typed one (its rules); a watchlist's untyped answer is all the worker reads. Its items
 * are the Delivery API's, outside the budget.
 */
async function feedFloor(sandbox, secrets, site, id) {
  const head = await sandbox.v2(`/v2/sites/${site}/playlists/${id}/`, secrets.API_SECRET);
  return String(head.playlist_type) === 'watchlist' ? 1 : 2;
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
async function scenario(sandbox, origin, keys, visitors, entries) {
  await sandbox.reset();
  const order = shuffled(keys, 7);
  let next = 0;
  /** Per key: how often it was answered 200. */
  const served = new Map();
  const result = await load({
    origin,
    connections: CONNECTIONS,
    amount: REQUESTS,
    capSeconds: 180,
    // A feed miss makes two budgeted calls in turn, each allowed to queue for max_wait_ms: let clients wait that out
    // rather than count it as a client timeout.
    timeoutSeconds: 30,
    nextPath: () => order[next++ % order.length],
    nextHeaders: visitors,
    onResponse: (path, status) => {
      if (status === 200) served.set(path, (served.get(path) ?? 0) + 1);
    },
  });
  const stats = await sandbox.stats();
  const upstreamCalls = managementCalls(stats);
  return {
    client_requests: result.requests,
    duration_s: result.duration_s,
    upstream_calls: upstreamCalls,
    // The Delivery API's, outside the Management budget (the worker's own meter bounds them).
    delivery_calls: stats.delivery_calls ?? 0,
    upstream_429s: stats.rate_limited,
    // Started feed loads show as untyped playlist calls, finished ones as typed ones: the gap is budget spent on
    // loads that ran out of budget half-way.
    upstream_calls_by_route: stats.routes,
    peak_upstream_calls_per_minute: stats.peak_calls_per_minute,
    client_statuses: result.statuses,
    client_5xx: Object.entries(result.statuses).filter(([status]) => Number(status) >= 500).reduce((sum, [, n]) => sum + n, 0),
    client_errors: result.errors,
    client_timeouts: result.timeouts,
    latency_ms: result.latency_ms,
    cut_by_time_cap: result.cut_by_time_cap,
    ...(entries ? spending(served, entries, upstreamCalls) : {}),
  };
}

/**
 * What the upstream calls bought. A key is served when some client got a 200 for it; its cache entry (a playlist's
 * feed, a media) was then loaded whole, which takes at least its floor of calls. Calls whose result was served are
 * those floors, once per entry served; goodput is their share of the calls made (the rest went to loads nobody
 * received). Keys served per call compares with the floor: the same keys, each entry loaded once in the fewest calls.
 */
function spending(served, entries, upstreamCalls) {
  const servedEntries = new Map();
  for (const path of served.keys()) {
    const { entry, floor } = entries.get(path);
    servedEntries.set(entry, floor);
  }
  const servedCalls = [...servedEntries.values()].reduce((sum, n) => sum + n, 0);
  const allFloors = new Map([...entries.values()].map(({ entry, floor }) => [entry, floor]));
  const allCalls = [...allFloors.values()].reduce((sum, n) => sum + n, 0);
  const ratio = (a, b) => (b > 0 ? Math.round((a / b) * 1000) / 1000 : null);
  return {
    keys_served: served.size,
    entries_served: servedEntries.size,
    entries_total: allFloors.size,
    calls_served: servedCalls,
    goodput: ratio(Math.min(servedCalls, upstreamCalls), upstreamCalls),
    keys_per_call: ratio(served.size, upstreamCalls),
    keys_per_call_floor: ratio(served.size, servedCalls),
    floor_calls_all_keys: allCalls,
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

/** The shipped fresh windows (wrangler.toml `cache.feed` and `cache.media`), in seconds. */
const FRESH_SECONDS = { feed: 60, media: 300 };
/** What an entry must have left of its fresh window when the warm run starts: longer than the run takes. */
const WARM_MARGIN_SECONDS = 30;

/**
 * Every cache entry fresh for the whole warm run, as a warm cache is: the warm-up can outlast a feed's fresh window,
 * and an entry about to go stale would be refreshed in the background during the warm run, which would then count a
 * refresh of freshness (stale-while-revalidate, once per window), not a visitor's miss. An entry with less than the
 * margin left is let go stale and refreshed (its key asked until the worker answers a HIT with the margin left).
 */
async function freshen(origin, keys, entries, visitors, log) {
  const byEntry = new Map();
  for (const key of keys) if (!byEntry.has(entries.get(key).entry)) byEntry.set(entries.get(key).entry, key);
  const ask = async (key) => {
    const response = await fetch(`${origin}${key}`, { headers: visitors() });
    await response.arrayBuffer();
    return { state: response.headers.get('x-reelgate-cache'), age: Number(response.headers.get('age') ?? 0) };
  };
  const ageing = [];
  let waitS = 0;
  for (const [entry, key] of byEntry) {
    const fresh = FRESH_SECONDS[entry.split(':')[0]];
    const { state, age } = await ask(key);
    if (state === 'HIT' && fresh - age > WARM_MARGIN_SECONDS) continue;
    ageing.push(key);
    if (state === 'HIT') waitS = Math.max(waitS, fresh - age + 1);
  }
  // Let those about to go stale go stale, then have each refreshed.
  if (waitS) await new Promise((resolve) => setTimeout(resolve, waitS * 1000));
  let refreshed = 0;
  for (const key of ageing) {
    const fresh = FRESH_SECONDS[entries.get(key).entry.split(':')[0]];
    for (let attempt = 0; attempt < 60; attempt++) {
      const { state, age } = await ask(key);
      if (state === 'HIT' && fresh - age > WARM_MARGIN_SECONDS) {
        refreshed += 1;
        break;
      }
      // A stale answer started its refresh in the background: give it the time a load takes.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  log(`warm-up: ${byEntry.size} cache entries, ${refreshed} of ${ageing.length} refreshed to last the warm run (waited ${waitS} s)`);
  return byEntry.size - ageing.length + refreshed;
}

export async function amplification(servers, log, { coldOnly = false } = {}) {
  const sandbox = sandboxControls(servers.sandbox);
  await sandbox.reset();
  const chosen = await distinctKeys(sandbox, servers.secrets);
  const visitors = rotatingVisitor(visitorAddresses(200));
  log(`${REQUESTS} requests, ${CONNECTIONS} connections, ${chosen.keys.length} distinct keys (${chosen.feedKeys} feed pages of ` +
    `${chosen.playlists} playlists, ${chosen.mediaKeys} media)`);

  const cold = await scenario(sandbox, servers.worker, chosen.keys, visitors, chosen.entries);
  log(`reelgate, cold: ${cold.upstream_calls} upstream calls, statuses ${JSON.stringify(cold.client_statuses)}, ` +
    `${cold.keys_served} keys served, goodput ${cold.goodput}, ${cold.keys_per_call} keys per call (floor ${cold.keys_per_call_floor})`);
  const load = { requests: REQUESTS, connections: CONNECTIONS, distinct_keys: chosen.keys.length, feed_keys: chosen.feedKeys,
    media_keys: chosen.mediaKeys, site: chosen.site };
  if (coldOnly) return { load, upstream_limit_per_minute: 60, reelgate_cold: cold, keys: chosen.keys };
  const warmedKeys = await fill(servers.worker, chosen.keys, visitors, log);
  const freshEntries = await freshen(servers.worker, chosen.keys, chosen.entries, visitors, log);
  const warm = await scenario(sandbox, servers.worker, chosen.keys, visitors);
  log(`reelgate, warm: ${warm.upstream_calls} upstream calls, statuses ${JSON.stringify(warm.client_statuses)}`);
  return {
    load,
    upstream_limit_per_minute: 60,
    reelgate_cold: cold,
    reelgate_warm: { ...warm, keys_cached_before: warmedKeys, entries_fresh_before: freshEntries },
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
