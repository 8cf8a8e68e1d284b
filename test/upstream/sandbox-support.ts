// Shared by the client suites that run against the sandbox upstream (a second worker; plain fetch from test code
// reaches it through the pool's outboundService).
import { V2Client, GeoClient, type V2ClientOptions, type GeoClientOptions } from '../../worker/upstream/index.ts';

export const BASE_URL = 'http://sandbox.test';
export const SECRET = 'sandbox-api-secret-not-for-production';
export const GEO_KEY = 'sandbox-geo-key-not-for-production';

export interface CatalogSite {
  id: string;
  media_total: number;
  playlists: Record<string, string[]>;
  players: string[];
  media: Record<'published' | 'scheduled' | 'expired' | 'unscheduled' | 'not_ready' | 'audio' | 'with_subtitles', string[]>;
}
export interface Catalog {
  sites: CatalogSite[];
  geo: { fixtures: Array<{ ip: string; note: string; expected_country: string | null; proxy: unknown }> };
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${BASE_URL}/_sandbox/${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  if (!response.ok) throw new Error(`sandbox control ${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Fresh seeded state and rate windows; a roomy limit unless a test is about the limit. */
export const resetSandbox = (rateLimitPerMinute = 10_000) =>
  control('POST', 'reset', { rate_limit_per_minute: rateLimitPerMinute });
export const setFaults = (faults: Record<string, unknown>) => control('POST', 'faults', faults);
export const clearFaults = () => control('POST', 'faults', {});
/** Processing of uploads: how long it takes (`seconds`), or `{ finish: true }` to end every pending one now. */
export const setProcessing = (options: { seconds?: number; finish?: boolean }) => control('POST', 'processing', options);
export const sandboxCatalog = () => control('GET', 'catalog') as Promise<Catalog>;
export const sandboxStats = () => control('GET', 'stats') as Promise<{ total_calls: number; routes: Record<string, number> }>;

export interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  redirect: string;
  body: string | null;
}

/** A transport that writes down every request it is given, then sends it to the sandbox unchanged. */
export function recordingFetch(): { fetch: (request: Request) => Promise<Response>; calls: Recorded[] } {
  const calls: Recorded[] = [];
  return {
    calls,
    async fetch(request) {
      const body = request.body ? await request.clone().text() : null;
      calls.push({
        method: request.method, url: request.url, headers: Object.fromEntries(request.headers), redirect: request.redirect, body,
      });
      return fetch(request);
    },
  };
}

export const v2Client = (options: Partial<V2ClientOptions> = {}) => new V2Client({ baseUrl: BASE_URL, secret: SECRET, ...options });
export const geoClient = (options: Partial<GeoClientOptions> = {}) =>
  new GeoClient({ baseUrl: BASE_URL, client: 'reelgate', apiKey: GEO_KEY, ...options });
