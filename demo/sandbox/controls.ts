// /_sandbox/: test and bench controls. They need no credential and the edge worker never proxies them; a write is
// taken only from the sandbox's own origin or from no browser at all (refuseForeignWrite).
import type { Player } from '../../worker/contract/v2-types.ts';
import type { Media, Playlist, TextTrack } from './records.ts';
import { PLAYLIST_TYPES } from '../../worker/contract/v2-types.ts';
import { GEO_FIXTURES } from './geo-fixtures.ts';
import { errorResponse, HttpError, invalid } from './http.ts';
import { isPublished } from './playlist-rules.ts';
import type { Store } from './store.ts';
import { siteSigning } from './url-signing.ts';

export interface Faults {
  error_rate?: number;
  latency_ms?: number;
  outage?: boolean;
  force_429?: boolean;
  retry_after_seconds?: number;
  /**
   * Geo answers carry no `svc-`/`jw-request-limit` and `-remaining` (the spec promises them for the Management API
   * only): the worker's geo bucket must then hold the limit by itself.
   */
  omit_geo_rate_headers?: boolean;
  /**
   * Typed playlist answers carry their rules in a shape the worker does not read, as a platform that changed them
   * would (a manual playlist's ids moved out of `media_filter`, a filtered one's tag filter a string). The worker must
   * then refuse the playlist and everything it could bind, never serve its media as unbound.
   */
  changed_playlist_shape?: boolean;
  /**
   * Typed filtered playlist answers lose their filter objects (`tag_filter`, `custom_param_filter`, `pinning`), as a
   * typed answer that dropped what the definition always gives. Read as "no rule", they would select and bind
   * everything or nothing; the worker must refuse the playlist and everything it could bind.
   */
  dropped_playlist_rules?: boolean;
}

export interface Stats {
  total_calls: number;
  routes: Record<string, number>;
  rate_limited: number;
  auth_failures: number;
  faults_injected: number;
  /** Most calls accepted for one credential within any 60 s window since the last reset. */
  peak_calls_per_minute: number;
  last_authorization_sha256: string | null;
  last_geo_key_sha256: string | null;
  /**
   * Delivery API JSON calls (`GET /v2/media/<id>`, `GET /v2/playlists/<id>`, delivery-api.ts), answered or refused, and
   * how many of them carried a `token`. Counted apart: the platform's delivery side takes no API credential and has no
   * Management rate window, so these are in neither `total_calls`, `routes` nor `peak_calls_per_minute`.
   */
  delivery_calls: number;
  delivery_signed_calls: number;
}

/** Where the stats are kept (the control values, store.ts `meta`). */
export const STATS_KEY = 'stats';

export const emptyStats = (): Stats => ({
  total_calls: 0, routes: {}, rate_limited: 0, auth_failures: 0, faults_injected: 0, peak_calls_per_minute: 0,
  last_authorization_sha256: null, last_geo_key_sha256: null, delivery_calls: 0, delivery_signed_calls: 0,
});

/** The stats as kept; members a state saved before they existed read as their empty value. */
export function readStats(store: Store): Stats {
  return { ...emptyStats(), ...store.getMeta<Partial<Stats>>(STATS_KEY) };
}

/** Counts one Delivery API call, and whether it carried a token. Nothing awaits between the read and the write. */
export function recordDeliveryCall(store: Store, signed: boolean): void {
  const stats = readStats(store);
  stats.delivery_calls++;
  if (signed) stats.delivery_signed_calls++;
  store.setMeta(STATS_KEY, stats);
}

export function parseFaults(body: Record<string, unknown>): Faults {
  const faults: Faults = {};
  for (const [key, value] of Object.entries(body)) {
    switch (key) {
      case 'error_rate':
        if (typeof value !== 'number' || value < 0 || value > 1) throw invalid('invalid_parameter', 'error_rate must be a number from 0 to 1.');
        if (value > 0) faults.error_rate = value;
        break;
      case 'latency_ms':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 30_000) {
          throw invalid('invalid_parameter', 'latency_ms must be an integer from 0 to 30000.');
        }
        if (value > 0) faults.latency_ms = value;
        break;
      case 'outage': case 'force_429': case 'omit_geo_rate_headers': case 'changed_playlist_shape': case 'dropped_playlist_rules':
        if (typeof value !== 'boolean') throw invalid('invalid_parameter', `${key} must be true or false.`);
        if (value) faults[key] = true;
        break;
      case 'retry_after_seconds':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 3600) {
          throw invalid('invalid_parameter', 'retry_after_seconds must be an integer from 1 to 3600.');
        }
        faults.retry_after_seconds = value;
        break;
      default:
        throw invalid('invalid_parameter', `Unknown fault '${key}'; known: error_rate, latency_ms, outage, force_429, retry_after_seconds, omit_geo_rate_headers, changed_playlist_shape.`);
    }
  }
  return faults;
}

/**
 * Site ids, and per site the ids a test or the demo needs to pick (playlists by type, players, media by state) and its
 * URL signing: whether it is enforced and where the secret comes from, never the secret.
 */
export function catalog(store: Store, now: number): unknown {
  const sites = store.sites().map((siteId) => {
    const site = store.get<{ id: string; name: string }>('site', siteId, siteId);
    const signing = siteSigning(store, siteId);
    const media = store.list<Media>('media', siteId).sort((a, b) => (a.created < b.created ? -1 : 1));
    const playlists = store.list<Playlist>('playlist', siteId).sort((a, b) => (a.created < b.created ? -1 : 1));
    const few = (list: Media[]): string[] => list.slice(0, 5).map((m) => m.id);
    const withTracks = media.filter((m) => store.list<TextTrack>('text_track', siteId, m.id).length > 1);
    return {
      id: siteId,
      name: site?.name ?? siteId,
      media_total: media.length,
      playlists: Object.fromEntries(PLAYLIST_TYPES.map((type) => [type, playlists.filter((p) => p.playlist_type === type).map((p) => p.id)])),
      players: store.list<Player>('player', siteId).sort((a, b) => (a.created < b.created ? -1 : a.id < b.id ? -1 : 1)).map((p) => p.id),
      media: {
        published: few(media.filter((m) => isPublished(m, now))),
        scheduled: few(media.filter((m) => m.status === 'ready' && m.metadata.publish_start_date !== null && Date.parse(m.metadata.publish_start_date) > now)),
        expired: few(media.filter((m) => m.status === 'ready' && m.metadata.publish_end_date !== null && Date.parse(m.metadata.publish_end_date) <= now)),
        unscheduled: few(media.filter((m) => m.metadata.publish_start_date === null)),
        not_ready: few(media.filter((m) => m.status !== 'ready')),
        audio: few(media.filter((m) => m.media_type === 'audio' && isPublished(m, now))),
        with_subtitles: few(withTracks.filter((m) => isPublished(m, now))),
      },
      url_signing: { enforce: signing?.enforce ?? false, secret_source: signing?.secret ?? 'derived' },
    };
  });
  // The big catalog first, so `sites[0]` is the one to page through.
  sites.sort((a, b) => b.media_total - a.media_total);
  return {
    sites,
    url_signing: {
      control: 'GET|PUT /_sandbox/sites/<site_id>/url-signing with {"enforce": true|false}',
      file_paths: '?exp=<unix>&sig=<md5("<path without leading slash>:<exp>:<secret>")>',
      v2_paths: '?token=<HS256 JWT: resource, exp, and the query parameters as claims>',
      secrets: 'SIGNED_SITE_SECRET for the site that enforces from the start; hex HMAC-SHA-256(SIGNED_SITE_SECRET, "url-signing:<site_id>") for the others',
    },
    geo: {
      client: 'any name; the path is /ip_lookup/<client>/<ip>',
      fixtures: GEO_FIXTURES.map(({ ip, note, expected_country, proxy }) => ({ ip, note, expected_country, proxy })),
      non_public_examples: ['10.0.0.1', '172.16.5.4', '192.168.1.1', '127.0.0.1', '169.254.1.1', '::1', 'fe80::1', 'fd00::1'],
      other_public: 'any other valid public address answers with every geo member null and proxy {identification: null, type: null}',
    },
  };
}

/**
 * Refuses a control write a web page of another origin could send: the sandbox runs on a developer's machine, and any
 * page they visit could otherwise reset it, inject faults or make media in it with a form or a simple `fetch`. A write
 * must come from the sandbox's own origin or from no browser (no `Origin`, no `Sec-Fetch-Site` but `same-origin` or
 * `none`: 403), with `Content-Type: application/json` (415), which no form or CORS-simple request can send. Controls
 * answer no CORS headers, so no preflight for one is ever granted. Reads (GET, HEAD) pass: without CORS headers,
 * another origin cannot read them.
 */
export function refuseForeignWrite(request: Request, url: URL): Response | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  const site = request.headers.get('sec-fetch-site');
  const origin = request.headers.get('origin');
  if ((site !== null && site !== 'same-origin' && site !== 'none') || (origin !== null && origin !== url.origin)) {
    return errorResponse(403, 'forbidden',
      `Sandbox controls take writes only from ${url.origin} itself or from a client that is not a web page of another origin.`);
  }
  if (request.method === 'OPTIONS') return null;
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return errorResponse(415, 'unsupported_media_type',
      `A control write must be sent with Content-Type: application/json (got '${type || 'none'}').`);
  }
  return null;
}

export function controlError(error: unknown): Response {
  if (error instanceof HttpError) return errorResponse(error.status, error.code, error.message);
  return errorResponse(500, 'server_error', 'The sandbox failed unexpectedly.');
}
