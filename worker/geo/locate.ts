/**
 * Where the caller is. Only the caller's own address is ever looked up (the worker is no lookup service): through the
 * budgeted Geo Location API, cached in KV under a salted hash of that address (no raw address at rest). The answer
 * belongs to the address alone: a VPN exit and a clean neighbour in one IPv6 /64 each get their own verdict.
 *
 * What one IPv6 /64 (one subscriber's block) may spend is bounded instead: at most `budget.geo_lookups_per_network`
 * new addresses of it are looked up per `budget.geo_network_window_seconds`, counted by the budget object for all
 * isolates, so rotating addresses inside a /64 cannot drain the Geo API's budget. A new address beyond the cap is
 * answered as when lookups run out (below). An IPv4 address is its own network and never meets the cap.
 *
 * Lookups are spent only where they add something: when every policy in question asks about countries and continents
 * alone (`need: 'country'`), Cloudflare's own `request.cf` answers if it knows the country, with no lookup at all.
 * When the API is unconfigured, failing or out of budget, `request.cf` answers (source `cf`), else nothing (`none`);
 * either way the proxy class is then unknown, and policies with proxy rules apply their `unknown` rule
 * (geo/policy.ts), so a spent lookup window can never let a proxy through.
 */
import { admitGeoLookup, callUpstream } from '../budget/index.ts';
import { cached } from '../cache/index.ts';
import { cacheKeys } from '../catalog/index.ts';
import type { Env } from '../env.ts';
import { ApiError, rateLimited } from '../http/errors.ts';
import type { GeoResponse } from '../contract/public-api.ts';
import type { RequestContext } from '../http/context.ts';
import { normaliseGeo } from '../upstream/index.ts';
import type { GeoLookupResponse } from '../contract/geo-types.ts';
import { callerAddress, callerIsPublic, callerNetwork, connectionIsCaller, hashAddress, knownHash } from '../http/visitor.ts';

type Located = Omit<GeoResponse, 'source'>;

/** What the asker needs: a country (and continent) only, or everything including the proxy class. */
export type GeoNeed = 'country' | 'full';

const NOWHERE: Located = {
  country: null, continent: null, region: null, city: null, timezone: null,
  proxy: { identification: null, type: null },
};

/**
 * For a location answered whole from the geo cache: its entry's ETag. `/api/geo` answers with exactly that entry and
 * `source: "geo-api"`, so the tag stands for its body without hashing it again (`locatedTag`).
 */
const tags = new WeakMap<GeoResponse, string>();

/** A strong ETag for the `/api/geo` body `{ ...where }`, when `where` came whole from one geo cache entry. */
export function locatedTag(where: GeoResponse): string | undefined {
  const etag = tags.get(where);
  // The entry's tag, marked as this body's: a different representation (the entry plus `source`) of the same value.
  return etag ? `"${etag.slice(1, -1)}-geo"` : undefined;
}

/** The caller's location, computed once per request and need however many policies ask. */
export function locateCaller(visit: RequestContext, need: GeoNeed = 'full'): Promise<GeoResponse> {
  return visit.memo(`geo:${need}`, () => locate(visit, need));
}

async function locate(c: RequestContext, need: GeoNeed): Promise<GeoResponse> {
  const { request, env } = c;
  // `request.cf` describes the connection: it speaks for the caller unless another address stands in (visitor.ts).
  const trustCf = connectionIsCaller(request, env);
  if (need === 'country' && trustCf) {
    const cf = fromCf(request);
    if (cf.country && cf.continent) return cf;
  }
  const fallback = (): GeoResponse => (trustCf ? fromCf(request) : { ...NOWHERE, source: 'none' });
  const address = callerAddress(request, env);
  const configured = Boolean(env.GEO_API_URL && env.GEO_API_KEY);
  if (!address || !configured || !callerIsPublic(request, env)) return fallback();
  // The network is the visitor as the abuse limit and the budget's turns count it (an IPv4 address, an IPv6 /64); the
  // answer is the address's own. Both hashed once per isolate (visitor.ts keeps finished hashes: a returning visitor's
  // are taken as they are, without awaiting).
  const network = callerNetwork(request, env) ?? address;
  const knownNetwork = knownHash(env, network);
  const knownAddress = knownHash(env, address);
  const [networkHash, addressHash] = knownNetwork !== undefined && knownAddress !== undefined ? [knownNetwork, knownAddress]
    : await Promise.all([hashAddress(env, network), hashAddress(env, address)]);
  try {
    const { value, etag } = await cached<Located>(c, {
      kind: 'geo', key: cacheKeys.geo(addressHash), heldWhileFresh: true,
      load: async (_previous, freshness) => {
        if (network !== address) await admitNewAddress(env, networkHash, addressHash);
        return project(normaliseGeo(await callUpstream<GeoLookupResponse>(env,
          { lane: 'public', caller: networkHash, ...freshness },
          { api: 'geo', op: 'lookup', ip: address })));
      },
    });
    const where: GeoResponse = { ...value, source: 'geo-api' };
    if (typeof etag === 'string' && /^"[\w-]+"$/.test(etag)) tags.set(where, etag);
    return where;
  } catch (error) {
    if (error instanceof ApiError) return fallback();
    throw error;
  }
}

/**
 * Whether the /64 may have one more of its addresses looked up in this window (the budget object keeps the count);
 * beyond the cap, a refusal like an exhausted budget's: a stale answer held for the address still stands in
 * (cache/cached.ts), else the caller is located as when lookups run out.
 */
async function admitNewAddress(env: Env, networkHash: string, addressHash: string): Promise<void> {
  const admission = await admitGeoLookup(env, networkHash, addressHash);
  if (!admission.ok) throw rateLimited(admission.retryAfterSeconds, 'Too many new addresses of this network located.');
}

function project(geo: ReturnType<typeof normaliseGeo>): Located {
  return {
    country: geo.country,
    continent: geo.continent,
    region: geo.region,
    city: geo.city,
    timezone: geo.timezone,
    proxy: { identification: geo.proxy.identification, type: geo.proxy.type },
  };
}

const CF_UNKNOWN_COUNTRIES = new Set(['XX', 'T1']);

/** Cloudflare's view of the connection. `T1` is Cloudflare's code for Tor. */
export function fromCf(request: Request): GeoResponse {
  const cf = request.cf as IncomingRequestCfProperties | undefined;
  const country = typeof cf?.country === 'string' ? cf.country.toUpperCase() : null;
  const tor = country === 'T1';
  const known = country !== null && /^[A-Z]{2}$/.test(country) && !CF_UNKNOWN_COUNTRIES.has(country);
  if (!known && !tor) return { ...NOWHERE, source: 'none' };
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    country: known ? country : null,
    continent: known ? str(cf?.continent)?.toUpperCase() ?? null : null,
    region: known ? str(cf?.region) : null,
    city: known ? str(cf?.city) : null,
    timezone: known ? str(cf?.timezone) : null,
    proxy: tor ? { identification: 'tor_exit', type: 'anonymous' } : { identification: null, type: null },
    source: 'cf',
  };
}
