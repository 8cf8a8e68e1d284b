/**
 * Operator configuration: which sites are served, the geo policies and what they bind to, allowed origins, cache
 * windows, the upstream budget. It comes from the `REELGATE_CONFIG` var (a JSON string, or a TOML table under [vars])
 * and is parsed once per isolate into a typed object; a mistake names its path, e.g. `policies.eu.unknown`.
 */
import { originMatcher } from './http/origin-patterns.ts';
import { PROXY_IDENTIFICATIONS, PROXY_TYPES, type ProxyIdentification, type ProxyType } from './contract/geo-types.ts';
import type { Env } from './env.ts';

export type CacheKind = 'feed' | 'media' | 'player' | 'geo' | 'not_found';
export interface CacheWindow {
  /** Served without an upstream call. */
  freshSeconds: number;
  /** After fresh: served at once while a background refresh runs, and whenever the upstream fails. */
  staleSeconds: number;
}

export interface GeoPolicy {
  name: string;
  /** When set, only these ISO alpha-2 countries pass. */
  allowCountries: ReadonlySet<string> | null;
  denyCountries: ReadonlySet<string>;
  allowContinents: ReadonlySet<string> | null;
  denyContinents: ReadonlySet<string>;
  denyProxyIdentifications: ReadonlySet<ProxyIdentification>;
  denyProxyTypes: ReadonlySet<ProxyType>;
  /** What a caller whose country is unknown gets. */
  unknown: 'allow' | 'deny';
}

export interface SiteConfig {
  id: string;
  /** Policy for everything of the site, or null. */
  policy: string | null;
  /** Policies bound to single playlists and media (on top of the site's). */
  playlists: ReadonlyMap<string, string>;
  media: ReadonlyMap<string, string>;
  /** The platform's URL token signing for this site's delivery URLs, or null (worker/signing/). */
  urlSigning: UrlSigningConfig | null;
}

/** `sites.<id>.url_signing`: how the worker signs the platform's delivery URLs of a site whose property enforces signing. */
export interface UrlSigningConfig {
  /** The name of the secret binding holding the property's secret (never the secret itself). */
  secretBinding: string;
  /** How long a URL handed out in an answer stays valid, at least (minutes). */
  lifetimeMinutes: number;
  /** Expiries are rounded up to this many seconds, so answers within a window are the same (and cacheable). */
  windowSeconds: number;
}

/** A secret binding's name as wrangler takes it. */
const BINDING_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

export interface BudgetConfig {
  /** Upstream v2 calls per minute for all isolates together; below the platform's 60. */
  ratePerMinute: number;
  burst: number;
  /** How long a miss may wait for a slot before it is answered 429. */
  maxWaitMs: number;
  /**
   * The share of `ratePerMinute` (and of `burst`) reserved for gateway keys: visitors' misses never spend it. What
   * the two floors leave is shared, first come first served; a side also gets the other's refill while the other's
   * reserve is full (idle).
   */
  gatewayFloor: number;
  /** The same for visitors' misses: gateway keys never spend it. */
  publicFloor: number;
  /**
   * The Geo API's own bucket. The spec states no geo rate and the real API may send no `svc-request-*` headers, so
   * this bucket alone must hold the upstream's limit.
   */
  geoRatePerMinute: number;
  geoBurst: number;
  /**
   * New addresses of one IPv6 /64 the Geo API may be asked about per `geoNetworkWindowSeconds`, for all isolates
   * together (the budget object counts them). Each address keeps its own answer; beyond the cap a new address of that
   * /64 is not looked up, and policies decide it as when lookups run out (their `unknown` rule). An IPv4 address is
   * its own network, so this never binds it.
   */
  geoLookupsPerNetwork: number;
  geoNetworkWindowSeconds: number;
  upstreamTimeoutMs: number;
}

export interface FeedConfig {
  defaultPageLength: number;
  maxPageLength: number;
  maxItems: number;
  /** Distinct variants (`seed` / `tags` values) one playlist may load from the upstream per window... */
  maxVariants: number;
  /** ...of this many seconds; beyond it a new variant is answered with the playlist's own feed. */
  variantWindowSeconds: number;
}

export interface Config {
  sites: ReadonlyMap<string, SiteConfig>;
  policies: ReadonlyMap<string, GeoPolicy>;
  /** Exact origins (`https://example.com`); `*` allows every origin. */
  /** Page origins that may call the public API: exact origins, `*`, and patterns (origin-patterns.ts). */
  allowedOrigins: readonly string[];
  /**
   * The origin the worker is reached at publicly (`https://video.example`), or null. When set, every URL the worker
   * writes into an answer others may keep (embed pages' oEmbed discovery, `/oembed`, rendered pages' links and JSON-LD)
   * names this origin, whatever `Host` a request carried; when null they name the request's own origin, and such
   * answers are sent `Vary: Host` (public-origin.ts).
   */
  publicOrigin: string | null;
  customParamsAllowlist: readonly string[];
  cache: Record<CacheKind, CacheWindow> & { memoryMs: number };
  budget: BudgetConfig;
  feed: FeedConfig;
  playback: PlaybackConfig;
  delivery: DeliveryConfig;
  metrics: MetricsConfig;
}

/** What the worker records about itself (worker/metrics/). */
export interface MetricsConfig {
  /** Counting on (the default); off, nothing is counted or stored (the bench compares the two). */
  record: boolean;
  /** The longest an isolate holds its counts before sending them to the metrics object. */
  flushSeconds: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const SITE_ID = /^[A-Za-z0-9]{8}$/;
const RESOURCE_ID = /^[A-Za-z0-9]{8}$/;
const POLICY_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const COUNTRY = /^[A-Z]{2}$/;
const CONTINENTS = new Set(['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA']);

const DEFAULT_CACHE: Record<CacheKind, CacheWindow> = {
  feed: { freshSeconds: 60, staleSeconds: 3600 },
  media: { freshSeconds: 300, staleSeconds: 86_400 },
  player: { freshSeconds: 300, staleSeconds: 86_400 },
  geo: { freshSeconds: 3600, staleSeconds: 86_400 },
  not_found: { freshSeconds: 60, staleSeconds: 0 },
};

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function obj(value: unknown, path: string): Json {
  if (value === undefined) return {};
  if (!isObject(value)) throw new ConfigError(`${path} must be an object`);
  return value;
}
function num(value: unknown, path: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new ConfigError(`${path} must be a number from ${min} to ${max}`);
  }
  return value;
}
function integer(value: unknown, path: string, fallback: number, min: number, max: number): number {
  const n = num(value, path, fallback, min, max);
  if (!Number.isInteger(n)) throw new ConfigError(`${path} must be a whole number from ${min} to ${max}`);
  return n;
}
function strings(value: unknown, path: string, check?: (s: string) => boolean): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && (!check || check(v)))) {
    throw new ConfigError(`${path} must be a list of valid strings`);
  }
  return value as string[];
}
function noUnknownKeys(value: Json, allowed: string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new ConfigError(`${path}.${key} is not a known setting`);
  }
}

function parsePolicy(name: string, raw: unknown): GeoPolicy {
  const path = `policies.${name}`;
  if (!POLICY_NAME.test(name)) throw new ConfigError(`${path}: policy names are lower-case letters, digits, - and _`);
  const p = obj(raw, path);
  noUnknownKeys(p, ['allow_countries', 'deny_countries', 'allow_continents', 'deny_continents',
    'deny_proxy_identifications', 'deny_proxy_types', 'unknown'], path);
  const countries = (key: string) => strings(p[key], `${path}.${key}`, (c) => COUNTRY.test(c));
  const continents = (key: string) => strings(p[key], `${path}.${key}`, (c) => CONTINENTS.has(c));
  const unknown = p.unknown ?? 'deny';
  if (unknown !== 'allow' && unknown !== 'deny') throw new ConfigError(`${path}.unknown must be "allow" or "deny"`);
  return {
    name,
    allowCountries: p.allow_countries === undefined ? null : new Set(countries('allow_countries')),
    denyCountries: new Set(countries('deny_countries')),
    allowContinents: p.allow_continents === undefined ? null : new Set(continents('allow_continents')),
    denyContinents: new Set(continents('deny_continents')),
    denyProxyIdentifications: new Set(strings(p.deny_proxy_identifications, `${path}.deny_proxy_identifications`,
      (v) => (PROXY_IDENTIFICATIONS as readonly string[]).includes(v)) as ProxyIdentification[]),
    denyProxyTypes: new Set(strings(p.deny_proxy_types, `${path}.deny_proxy_types`,
      (v) => (PROXY_TYPES as readonly string[]).includes(v)) as ProxyType[]),
    unknown,
  };
}

function parseUrlSigning(raw: unknown, path: string): UrlSigningConfig | null {
  if (raw === undefined || raw === null) return null;
  const u = obj(raw, path);
  noUnknownKeys(u, ['secret', 'lifetime_minutes', 'window_seconds'], path);
  if (typeof u.secret !== 'string' || !BINDING_NAME.test(u.secret)) {
    throw new ConfigError(`${path}.secret must name a secret binding (upper-case letters, digits and _), not hold the secret`);
  }
  return {
    secretBinding: u.secret,
    lifetimeMinutes: integer(u.lifetime_minutes, `${path}.lifetime_minutes`, 60, 10, 1440),
    windowSeconds: integer(u.window_seconds, `${path}.window_seconds`, 300, 60, 3600),
  };
}

function bindings(raw: unknown, path: string, policies: ReadonlyMap<string, GeoPolicy>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, policy] of Object.entries(obj(raw, path))) {
    if (!RESOURCE_ID.test(id)) throw new ConfigError(`${path}.${id}: not a valid id`);
    if (typeof policy !== 'string' || !policies.has(policy)) throw new ConfigError(`${path}.${id}: unknown policy`);
    out.set(id, policy);
  }
  return out;
}

function parseCache(raw: unknown): Config['cache'] {
  const c = obj(raw, 'cache');
  noUnknownKeys(c, [...Object.keys(DEFAULT_CACHE), 'memory_ms'], 'cache');
  const out = { memoryMs: num(c.memory_ms, 'cache.memory_ms', 1000, 0, 60_000) } as Config['cache'];
  for (const kind of Object.keys(DEFAULT_CACHE) as CacheKind[]) {
    const w = obj(c[kind], `cache.${kind}`);
    noUnknownKeys(w, ['fresh_seconds', 'stale_seconds'], `cache.${kind}`);
    out[kind] = {
      freshSeconds: num(w.fresh_seconds, `cache.${kind}.fresh_seconds`, DEFAULT_CACHE[kind].freshSeconds, 1, 31_536_000),
      staleSeconds: num(w.stale_seconds, `cache.${kind}.stale_seconds`, DEFAULT_CACHE[kind].staleSeconds, 0, 31_536_000),
    };
  }
  return out;
}

function parseBudget(b: Json): BudgetConfig {
  const budget: BudgetConfig = {
    // Strictly below the platform's 60/minute so other users of the secret keep some room.
    ratePerMinute: num(b.rate_per_minute, 'budget.rate_per_minute', 50, 0.1, 59),
    burst: num(b.burst, 'budget.burst', 5, 1, 30),
    maxWaitMs: num(b.max_wait_ms, 'budget.max_wait_ms', 5000, 0, 30_000),
    gatewayFloor: num(b.gateway_floor, 'budget.gateway_floor', 0.3, 0.05, 0.95),
    publicFloor: num(b.public_floor, 'budget.public_floor', 0.3, 0.05, 0.95),
    // The same 50 for a 60 as the v2 API: the Geo API's rate is not stated, so assume the platform's 60/minute and
    // keep rate + burst (55) within one upstream window even when no `svc-request-remaining` ever comes back.
    geoRatePerMinute: num(b.geo_rate_per_minute, 'budget.geo_rate_per_minute', 50, 1, 100_000),
    geoBurst: num(b.geo_burst, 'budget.geo_burst', 5, 1, 1000),
    // A household's devices and their rotating privacy addresses fit in 10 new addresses per 10 minutes; a host cycling
    // through its /64 gets at most 1 lookup a minute of the geo bucket's 50.
    geoLookupsPerNetwork: integer(b.geo_lookups_per_network, 'budget.geo_lookups_per_network', 10, 1, 1000),
    geoNetworkWindowSeconds: num(b.geo_network_window_seconds, 'budget.geo_network_window_seconds', 600, 1, 86_400),
    upstreamTimeoutMs: num(b.upstream_timeout_ms, 'budget.upstream_timeout_ms', 8000, 100, 30_000),
  };
  if (budget.gatewayFloor + budget.publicFloor > 1) {
    throw new ConfigError('budget.gateway_floor + budget.public_floor must be at most 1 (each is a share of the same budget)');
  }
  // A reserve is its floor's share of the burst; one that cannot hold a whole call guarantees nothing.
  for (const key of ['gateway_floor', 'public_floor'] as const) {
    const floor = key === 'gateway_floor' ? budget.gatewayFloor : budget.publicFloor;
    if (budget.burst * floor < 1) {
      throw new ConfigError(`budget.burst × budget.${key} must be at least 1 so the reserve holds one call; it is `
        + `${budget.burst} × ${floor} (raise budget.burst or budget.${key})`);
    }
  }
  return budget;
}

export function parseConfig(input: unknown): Config {
  let raw: unknown = input ?? {};
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      throw new ConfigError('REELGATE_CONFIG is not valid JSON');
    }
  }
  const root = obj(raw, 'REELGATE_CONFIG');
  noUnknownKeys(root, ['sites', 'policies', 'allowed_origins', 'public_origin', 'custom_params_allowlist', 'cache', 'budget',
    'feed', 'playback', 'delivery', 'metrics'], 'REELGATE_CONFIG');

  const policies = new Map<string, GeoPolicy>();
  for (const [name, p] of Object.entries(obj(root.policies, 'policies'))) policies.set(name, parsePolicy(name, p));

  const sites = new Map<string, SiteConfig>();
  for (const [id, s] of Object.entries(obj(root.sites, 'sites'))) {
    const path = `sites.${id}`;
    if (!SITE_ID.test(id)) throw new ConfigError(`${path}: site ids are 8 letters or digits`);
    const site = obj(s, path);
    noUnknownKeys(site, ['policy', 'playlists', 'media', 'url_signing'], path);
    if (site.policy !== undefined && (typeof site.policy !== 'string' || !policies.has(site.policy))) {
      throw new ConfigError(`${path}.policy: unknown policy`);
    }
    sites.set(id, {
      id,
      policy: (site.policy as string | undefined) ?? null,
      playlists: bindings(site.playlists, `${path}.playlists`, policies),
      media: bindings(site.media, `${path}.media`, policies),
      urlSigning: parseUrlSigning(site.url_signing, `${path}.url_signing`),
    });
  }

  const allowedOrigins = strings(root.allowed_origins, 'allowed_origins');
  try {
    // Checked here so a bad entry fails the configuration, not the first request; cors.ts keeps the matcher.
    originMatcher(allowedOrigins);
  } catch (error) {
    throw new ConfigError(`allowed_origins: ${(error as Error).message}`);
  }

  const b = obj(root.budget, 'budget');
  noUnknownKeys(b, ['rate_per_minute', 'burst', 'max_wait_ms', 'gateway_floor', 'public_floor', 'geo_rate_per_minute', 'geo_burst',
    'geo_lookups_per_network', 'geo_network_window_seconds', 'upstream_timeout_ms'], 'budget');
  const f = obj(root.feed, 'feed');
  noUnknownKeys(f, ['default_page_length', 'max_page_length', 'max_items', 'max_variants', 'variant_window_seconds'], 'feed');
  const maxPageLength = num(f.max_page_length, 'feed.max_page_length', 50, 1, 100);
  const budget = parseBudget(b);

  return {
    sites,
    policies,
    allowedOrigins,
    publicOrigin: parsePublicOrigin(root.public_origin),
    customParamsAllowlist: strings(root.custom_params_allowlist, 'custom_params_allowlist'),
    cache: parseCache(root.cache),
    budget,
    feed: {
      defaultPageLength: Math.min(num(f.default_page_length, 'feed.default_page_length', 10, 1, 100), maxPageLength),
      maxPageLength,
      maxItems: num(f.max_items, 'feed.max_items', 100, 1, 500),
      maxVariants: num(f.max_variants, 'feed.max_variants', 10, 0, 1000),
      variantWindowSeconds: num(f.variant_window_seconds, 'feed.variant_window_seconds', 60, 1, 86_400),
    },
    playback: parsePlayback(root.playback),
    delivery: parseDelivery(root.delivery),
    metrics: parseMetrics(root.metrics),
  };
}

/** `public_origin`: an http(s) origin spelt as browsers send one (no path, no trailing slash, no default port). */
function parsePublicOrigin(raw: unknown): string | null {
  if (raw === undefined) return null;
  const problem = 'public_origin must be an origin such as "https://video.example" (scheme and host, no path)';
  if (typeof raw !== 'string') throw new ConfigError(problem);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(problem);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== raw) {
    throw new ConfigError(`${problem}${url.origin !== 'null' && url.origin !== raw ? `: use ${url.origin}` : ''}`);
  }
  return url.origin;
}

// ----------------------------------------------------------------------------------------- playback (geo-bound URLs)

/** Playback URLs of content under a policy (worker/playback/). The signing keys are a secret: PLAYBACK_KEYS. */
export interface PlaybackConfig {
  /** How long a playback URL opens its file, from when the media answer was given: 1 minute to 24 hours. */
  tokenMinutes: number;
  /** Whether a playback URL opens only for the network it was handed to (an IPv4 /24, an IPv6 /64). */
  bindNetwork: boolean;
}

function parsePlayback(raw: unknown): PlaybackConfig {
  const p = obj(raw, 'playback');
  noUnknownKeys(p, ['token_minutes', 'bind_network'], 'playback');
  if (p.bind_network !== undefined && typeof p.bind_network !== 'boolean') {
    throw new ConfigError('playback.bind_network must be true or false');
  }
  return {
    tokenMinutes: num(p.token_minutes, 'playback.token_minutes', 60, 1, 1440),
    bindNetwork: (p.bind_network as boolean | undefined) ?? true,
  };
}

// ----------------------------------------------------------------------------------------- delivery (the public API)

/**
 * The worker's own bound on its Delivery API calls (worker/delivery/). The platform sets none (a CDN), so this one is
 * politeness, per isolate: at most `rate_per_second` on average with bursts of `burst`, `concurrency` at once, and a
 * call that cannot start within `max_wait_ms` is refused (503 delivery_busy) rather than queued without end.
 */
export interface DeliveryConfig {
  ratePerSecond: number;
  burst: number;
  concurrency: number;
  maxWaitMs: number;
  timeoutMs: number;
}

function parseDelivery(raw: unknown): DeliveryConfig {
  const d = obj(raw, 'delivery');
  noUnknownKeys(d, ['rate_per_second', 'burst', 'concurrency', 'max_wait_ms', 'timeout_ms'], 'delivery');
  return {
    ratePerSecond: num(d.rate_per_second, 'delivery.rate_per_second', 20, 1, 1000),
    burst: integer(d.burst, 'delivery.burst', 40, 1, 1000),
    concurrency: integer(d.concurrency, 'delivery.concurrency', 8, 1, 100),
    maxWaitMs: num(d.max_wait_ms, 'delivery.max_wait_ms', 5000, 0, 30_000),
    timeoutMs: num(d.timeout_ms, 'delivery.timeout_ms', 10_000, 100, 30_000),
  };
}

function parseMetrics(raw: unknown): MetricsConfig {
  const m = obj(raw, 'metrics');
  noUnknownKeys(m, ['record', 'flush_seconds'], 'metrics');
  if (m.record !== undefined && typeof m.record !== 'boolean') throw new ConfigError('metrics.record must be true or false');
  return {
    record: (m.record as boolean | undefined) ?? true,
    flushSeconds: num(m.flush_seconds, 'metrics.flush_seconds', 10, 1, 60),
  };
}

let memo: { source: string; config: Config } | null = null;
/** Configurations given as objects (a TOML table under `[vars]`), by identity: workerd hands every request the same one. */
const byObject = new WeakMap<object, Config>();

/**
 * The parsed configuration, computed once per isolate (again only if the var changes). Only http/request-config.ts
 * asks: once per request for the front door (which passes it along in its `RequestContext`), and on each use for the
 * budget object. The common case
 * must cost nothing: a string is compared with the last one parsed (the same string object compares by reference), an
 * object is looked up by identity, and only an object not seen before is serialised to be compared by content. A configuration object is never changed in place (vars are read-only).
 */
export function getConfig(env: Pick<Env, 'REELGATE_CONFIG'>): Config {
  const source = env.REELGATE_CONFIG;
  if (typeof source === 'object' && source !== null) {
    const known = byObject.get(source);
    if (known) return known;
    const config = parsedFrom(JSON.stringify(source), source);
    byObject.set(source, config);
    return config;
  }
  return parsedFrom(typeof source === 'string' ? source : 'null', source);
}

function parsedFrom(key: string, source: unknown): Config {
  if (memo?.source !== key) memo = { source: key, config: parseConfig(source) };
  return memo.config;
}

export { SITE_ID, RESOURCE_ID, POLICY_NAME };
