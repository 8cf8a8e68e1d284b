/**
 * Where the caller is. Only the caller's own address is ever looked up (the worker is no lookup service): through the
 * budgeted Geo Location API, cached in KV under a salted hash of the address (no raw address at rest). When the API is
 * unconfigured, failing or out of budget, Cloudflare's own `request.cf` answers (source `cf`), else nothing (`none`).
 */
import { callUpstream } from '../budget/upstream.ts';
import { cached } from '../cache/cached.ts';
import type { Env } from '../env.ts';
import { ApiError } from '../errors.ts';
import type { GeoResponse } from '../public-api.ts';
import type { ServerTiming } from '../server-timing.ts';
import { isPublicAddress, normaliseGeo } from '../upstream/index.ts';
import type { GeoLookupResponse } from '../upstream/geo-types.ts';
import { callerAddress, hashAddress } from '../visitor.ts';

type Located = Omit<GeoResponse, 'source'>;

const NOWHERE: Located = {
  country: null, continent: null, region: null, city: null, timezone: null,
  proxy: { identification: null, type: null },
};

const perRequest = new WeakMap<Request, Promise<GeoResponse>>();

/** The caller's location, computed once per request however many policies ask. */
export function locateCaller(request: Request, env: Env, ctx: ExecutionContext, timing?: ServerTiming): Promise<GeoResponse> {
  let located = perRequest.get(request);
  if (!located) {
    located = locate(request, env, ctx, timing);
    perRequest.set(request, located);
  }
  return located;
}

async function locate(request: Request, env: Env, ctx: ExecutionContext, timing?: ServerTiming): Promise<GeoResponse> {
  const address = callerAddress(request, env);
  const configured = Boolean(env.GEO_API_URL && env.GEO_API_KEY);
  if (!address || !configured || !isPublicAddress(address)) return fromCf(request);
  const hash = await hashAddress(env, address);
  try {
    const { value } = await cached<Located>({
      env, ctx, kind: 'geo', key: `geo:${hash}`, timing,
      load: async (_previous, freshness) => project(normaliseGeo(await callUpstream<GeoLookupResponse>(env,
        { lane: 'public', caller: hash, ...freshness },
        { api: 'geo', op: 'lookup', ip: address }))),
    });
    return { ...value, source: 'geo-api' };
  } catch (error) {
    if (error instanceof ApiError) return fromCf(request);
    throw error;
  }
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
