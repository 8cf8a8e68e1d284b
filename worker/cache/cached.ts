/**
 * Stale-while-revalidate over KV, per resource kind:
 * - fresh entry: answered, nothing else happens (no upstream call, no KV write);
 * - stale entry: answered at once, refreshed in the background (one refresh per key per isolate; identical refreshes
 *   from other isolates share one upstream request in the budget object);
 * - miss: loaded by this request itself, stored, answered. Concurrent misses of a key share the upstream request in
 *   the budget object (identical reads are coalesced there, and a read it finished a moment ago is handed on), never a
 *   promise of another request: workerd cancels a request's I/O when that request ends, so a waiter tied to it would
 *   hang and be answered with the runtime's plain 500;
 * - the upstream failing or out of budget: any entry we still hold is served instead (stale-if-error).
 * KV limits: no write on a hit, at most one write per key per second from an isolate, TTLs of at least 60 s.
 * "Not found" is cached too (briefly), so random ids cannot drain the upstream budget.
 */
import type { CacheKind, Config } from '../config.ts';
import type { Env } from '../env.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError, notFound, upstreamUnavailable } from '../http/errors.ts';
import { etagOf, type CacheState } from '../http/respond.ts';
import { countCacheAnswer } from '../metrics/index.ts';
import { isEnvelope, type Envelope } from './envelope.ts';
import { MemoryCache } from './memory.ts';
import { forgetRecentReads } from './shared-reads.ts';
import { BoundedMap } from '../http/bounded-map.ts';

export interface CachedValue<T> {
  value: T;
  state: CacheState;
  storedAt: number;
  etag: string;
}

const KV_MIN_TTL_SECONDS = 60;
const MIN_WRITE_INTERVAL_MS = 1000;

const memory = new MemoryCache<Envelope<unknown>>();
/** Keys whose stale entry this isolate is refreshing in the background: a flag, never a promise others await. */
const refreshing = new Set<string>();
const lastWrite = new BoundedMap<string, number>(4096);

/** Empties this isolate's memory layer and its kept reads (tests, after they edit KV or the upstream behind its back). */
export function clearMemoryCache(): void {
  memory.clear();
  lastWrite.clear();
  forgetRecentReads();
}

/** A site's cached entries are few; this bounds the work one invalidation can do. */
const MAX_LIST_PAGES = 10;

async function keysWithPrefix(kv: KVNamespace, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const listed: KVNamespaceListResult<unknown> = await kv.list({ prefix, ...(cursor ? { cursor } : {}) });
    keys.push(...listed.keys.map((key) => key.name));
    if (listed.list_complete) break;
    cursor = listed.cursor;
  }
  return keys;
}

/**
 * The one invalidation: deletes the keys, and every key under the prefixes, from KV and this isolate's memory layer
 * (other isolates' may hold an entry for at most `cache.memory_ms` longer). Returns the keys deleted.
 */
export async function invalidate(kv: KVNamespace, { keys, prefixes }: { keys: string[]; prefixes: string[] }): Promise<string[]> {
  const listed = await Promise.all(prefixes.map((prefix) => keysWithPrefix(kv, prefix)));
  const all = [...new Set([...keys, ...listed.flat()])];
  for (const key of all) {
    memory.delete(key);
    lastWrite.delete(key);
  }
  await Promise.all(all.map((key) => kv.delete(key)));
  // A read kept for cold misses (shared-reads.ts) may be of what was just purged.
  forgetRecentReads();
  return all;
}

/** Errors that stale data may stand in for: budget, upstream 429/5xx, timeouts. */
function staleMayServe(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 429 || error.status >= 500);
}

/** What is cached, and how it loads: the request it is loaded for is the `RequestContext` beside it. */
export interface CachedOptions<T> {
  kind: Exclude<CacheKind, 'not_found'>;
  key: string;
  /**
   * Loads the value from the upstream (given the entry it replaces, if any); throws `notFound()` when it does not exist.
   * `acceptRecent` is true for a key with no entry at all: such a miss may take an identical read the budget object
   * answered a moment ago (before its KV write was visible), or one a load of it that had to stop left there; a refresh
   * of a held entry always asks the upstream. `background` is true for the refresh of a stale entry nobody waits for
   * (it is answered stale meanwhile): the budget serves loads someone waits for first.
   */
  load: (previous: T | undefined, freshness: { acceptRecent: boolean; background: boolean }) => Promise<T>;
  /**
   * No invalidation ever names this key (a visitor's location: purges name catalog keys only), so a found entry can
   * change only once its fresh window has passed: this isolate holds it in memory until then instead of asking KV
   * again every `cache.memory_ms`.
   */
  heldWhileFresh?: boolean;
}

/** How long this isolate holds an entry without asking KV again (see `heldWhileFresh`). */
function memoryTtl<T>(options: Pick<CachedOptions<T>, 'kind' | 'heldWhileFresh'>, entry: Envelope<T>, cache: Config['cache'],
  now: number): number {
  if (!options.heldWhileFresh || !entry.found) return cache.memoryMs;
  return Math.max(cache.memoryMs, entry.storedAt + cache[options.kind].freshSeconds * 1000 - now);
}

export async function cached<T>(c: RequestContext, options: CachedOptions<T>): Promise<CachedValue<T>> {
  const { env, ctx, timing } = c;
  const { kind, key } = options;
  const config = c.config.cache;
  const now = Date.now();

  let entry = memory.get(key, now) as Envelope<T> | undefined;
  if (!entry) {
    const stored = await timing.measure('kv', () => env.CACHE.get(key, 'json'));
    // A concurrent request of this isolate may have loaded the key while we read KV.
    entry = memory.get(key, Date.now()) as Envelope<T> | undefined;
    if (!entry && isEnvelope(stored)) {
      entry = stored as Envelope<T>;
      memory.set(key, entry, memoryTtl(options, entry, config, now), now);
    }
  }

  if (entry) {
    const window = entry.found ? config[kind] : config.not_found;
    const age = now - entry.storedAt;
    if (age < window.freshSeconds * 1000) return answer(entry, 'HIT', kind);
    if (age < (window.freshSeconds + window.staleSeconds) * 1000 && entry.found) {
      if (!refreshing.has(key)) {
        refreshing.add(key);
        ctx.waitUntil(load(c, options, entry.value, false, true).then(() => {
          countCacheAnswer(kind, 'REVALIDATED');
        }, () => {
          // The next request tries again; the stale answer stays in place.
        }).finally(() => refreshing.delete(key)));
      }
      return answer(entry, 'STALE', kind);
    }
  }

  try {
    const previous = entry?.found ? entry.value : undefined;
    const acceptRecent = entry === undefined;
    const fresh = await timing.measure('upstream', () => load(c, options, previous, acceptRecent, false));
    return answer(fresh, 'MISS', kind);
  } catch (error) {
    if (entry?.found && staleMayServe(error)) return answer(entry, 'STALE', kind);
    throw error;
  }
}

/**
 * The entry held for a key, fresh or stale, without loading or refreshing it: for readers that must not spend the
 * upstream budget (byte requests). `undefined` when nothing is held; `null` when the upstream said "not found".
 */
export async function peekCached<T>(env: Env, config: Config, key: string): Promise<T | null | undefined> {
  const now = Date.now();
  let entry = memory.get(key, now) as Envelope<T> | undefined;
  if (!entry) {
    const stored = await env.CACHE.get(key, 'json');
    if (!isEnvelope(stored)) return undefined;
    entry = stored as Envelope<T>;
    memory.set(key, entry, config.cache.memoryMs, now);
  }
  return entry.found ? entry.value : null;
}

/** The answer of a cache lookup, counted by kind and state (a held "not found" is an answer too). */
function answer<T>(entry: Envelope<T>, state: CacheState, kind: CachedOptions<T>['kind']): CachedValue<T> {
  countCacheAnswer(kind, state);
  if (!entry.found) throw notFound();
  return { value: entry.value, state, storedAt: entry.storedAt, etag: entry.etag };
}

/** Loads and stores one key, within the calling request (see the header: no promise is shared between requests). */
async function load<T>(
  c: RequestContext, options: CachedOptions<T>, previous: T | undefined, acceptRecent: boolean, background: boolean,
): Promise<Envelope<T>> {
  const { load: fetchValue } = options;
  let entry: Envelope<T>;
  try {
    const value = await fetchValue(previous, { acceptRecent, background });
    const text = JSON.stringify(value);
    entry = { v: 1, storedAt: Date.now(), found: true, etag: await etagOf(text), value };
  } catch (error) {
    if (!(error instanceof ApiError)) {
      // An upstream body not of the contract's shape breaks a projection: the platform's fault, not the caller's.
      console.error('reelgate: could not project an upstream answer', error instanceof Error ? error.name : typeof error);
      throw upstreamUnavailable(502);
    }
    if (error.code !== 'not_found') throw error;
    entry = { v: 1, storedAt: Date.now(), found: false };
  }
  store(c, options, entry);
  return entry;
}

function store<T>({ env, ctx, config: { cache: config } }: RequestContext, options: CachedOptions<T>, entry: Envelope<T>): void {
  const { kind, key } = options;
  const now = Date.now();
  memory.set(key, entry, memoryTtl(options, entry, config, now), now);
  const previous = lastWrite.get(key);
  if (previous !== undefined && now - previous < MIN_WRITE_INTERVAL_MS) return;
  lastWrite.set(key, now);
  const window = entry.found ? config[kind] : config.not_found;
  const ttl = Math.max(KV_MIN_TTL_SECONDS, Math.ceil(window.freshSeconds + window.staleSeconds));
  ctx.waitUntil(env.CACHE.put(key, JSON.stringify(entry), { expirationTtl: ttl }).catch(() => {
    console.error('reelgate: cache write failed');
  }));
}
