/**
 * Performs one upstream call with the typed clients, and turns what went wrong into failure data (never upstream
 * text). The request that carries a secret is built here from scratch, never from a client's headers; `fetchFor`
 * is the budget object's transport, which learns from every answer (upstream-signals.ts).
 */
import type { Env } from '../env.ts';
import {
  GeoApiError, GeoClient, InvalidArgumentError, InvalidIpAddressError, UpstreamRequestError, V2ApiError, V2Client,
  parseIpAddress,
} from '../upstream/index.ts';
import type { Api, RawAnswer, UpstreamCall, UpstreamFailure } from './calls.ts';

/** The bindings a call needs: the upstreams' addresses and secrets. */
export type UpstreamEnv = Pick<Env, 'API_BASE_URL' | 'API_SECRET' | 'GEO_API_URL' | 'GEO_API_KEY' | 'GEO_CLIENT'>;

export function isConfigured(env: UpstreamEnv, api: Api): boolean {
  return api === 'v2' ? Boolean(env.API_BASE_URL && env.API_SECRET) : Boolean(env.GEO_API_URL && env.GEO_API_KEY);
}

/** Refuses what would spend a slot for nothing: an unconfigured API, an address no lookup may be made for. */
export function refuseUnconfigured(env: UpstreamEnv, call: UpstreamCall): UpstreamFailure | null {
  if (!isConfigured(env, call.api)) return { kind: 'unconfigured' };
  if (call.api === 'v2') return null;
  if (!parseIpAddress(call.ip)) return { kind: 'upstream', status: 400, retryAfterSeconds: null };
  return null;
}

export async function execute(env: UpstreamEnv, call: UpstreamCall, timeoutMs: number,
  fetchFor: (api: Api) => (request: Request) => Promise<Response>): Promise<unknown> {
  if (call.api === 'geo') {
    const geo = new GeoClient({
      baseUrl: env.GEO_API_URL!,
      client: env.GEO_CLIENT || 'reelgate',
      apiKey: env.GEO_API_KEY!,
      fetch: fetchFor('geo'),
      timeoutMs,
    });
    return geo.lookup(call.ip);
  }
  const v2 = new V2Client({
    baseUrl: env.API_BASE_URL,
    secret: env.API_SECRET,
    fetch: fetchFor('v2'),
    timeoutMs,
  });
  switch (call.op) {
    case 'getPlaylist':
      return v2.getPlaylist(call.site, call.id);
    case 'getTypedPlaylist':
      return v2.getTypedPlaylist(call.site, call.id, call.type);
    case 'listMedia':
      return v2.listMedia(call.site, call.params);
    case 'getMedia':
      return v2.getMedia(call.site, call.id);
    case 'listMediaRenditions':
      return v2.listMediaRenditions(call.site, call.id, call.params);
    case 'listTextTracks':
      return v2.listTextTracks(call.site, call.id, call.params);
    case 'getPlayer':
      return v2.getPlayer(call.site, call.id);
    case 'raw': {
      const response = await v2.raw(call.method, call.path, {
        query: new URLSearchParams(call.query ?? []),
        body: call.body,
        ...(call.authorization ? { authorization: call.authorization } : {}),
      });
      const headers = [...response.headers].filter(([name]) => name !== 'set-cookie');
      return { status: response.status, headers, body: await response.text() } satisfies RawAnswer;
    }
  }
}

/** The arguments the worker composes itself (a list query), unlike ids, which come from the caller. */
const WORKER_BUILT: ReadonlySet<string> = new Set(['q', 'page', 'page_length', 'sort']);

/** What a failed call becomes: its status, its transport failure, or (anything unforeseen) an invalid response. */
export function describeFailure(error: unknown): UpstreamFailure {
  // An API error may arrive wrapped as the cause of a transport error; the status is what matters.
  const cause = error instanceof UpstreamRequestError ? error.cause : undefined;
  if (cause instanceof V2ApiError || cause instanceof GeoApiError) return describeFailure(cause);
  if (error instanceof V2ApiError || error instanceof GeoApiError) {
    return { kind: 'upstream', status: error.status, retryAfterSeconds: error.retryAfterSeconds };
  }
  if (error instanceof UpstreamRequestError) return { kind: 'transport', reason: error.kind };
  if (error instanceof InvalidArgumentError && WORKER_BUILT.has(error.argument)) {
    // The worker's own list query out of the platform's bounds: its fault, never the caller's "not found".
    return { kind: 'refused_request', argument: error.argument };
  }
  if (error instanceof InvalidIpAddressError || error instanceof InvalidArgumentError) {
    // Refused by the client before any request: an id or address no upstream call may be made for.
    return { kind: 'upstream', status: 404, retryAfterSeconds: null };
  }
  // The geo client's own error classes carry a status the same way.
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return { kind: 'upstream', status, retryAfterSeconds: null };
  console.error('reelgate: upstream call failed', error instanceof Error ? error.name : typeof error);
  return { kind: 'transport', reason: 'invalid_response' };
}
