// The whole platform in one SQLite-backed Durable Object: catalog state, per-credential rate windows, call statistics
// and injected faults. Every request of the sandbox passes through here, so the rules hold for every caller at once.
import { DurableObject } from 'cloudflare:workers';
import { readActionBody, readEnvelope } from './body.ts';
import type { RouteContext } from './context.ts';
import { readJsonObject } from './body.ts';
import { catalog, controlError, type Faults, parseFaults, readStats, refuseForeignWrite, type Stats, STATS_KEY } from './controls.ts';
import { deliver } from './delivery.ts';
import { isDeliveryPath } from './delivery-paths.ts';
import { configuredRateLimit, type SandboxEnv } from './env.ts';
import { geoLookup } from './geo.ts';
import { createMedia } from './handlers/media.ts';
import { HOSTILE_FILES, hostileMediaBody } from './hostile-folder.ts';
import { errorResponse, HttpError, json, sha256Hex } from './http.ts';
import { playsListing, seedPlays } from './plays.ts';
import { matchRoute } from './routes.ts';
import { scriptedAnswer, scriptedControl } from './scripted.ts';
import { MAX_EXTRA_MEDIA, SEED_VERSION, seedCatalog, seedExtraMedia } from './seed.ts';
import { Store } from './store.ts';
import { advanceProcessing, processingControl, receiveBytes, uploadForToken } from './uploads.ts';
import { setEnforcement, siteSigning } from './url-signing.ts';
import { checkListQuery } from '../../worker/contract/list-query.ts';

const WINDOW_MS = 60_000;

/** The secret of an `Authorization: Bearer <secret>` value (scheme case-insensitive), or null. */
function bearerToken(header: string | null): string | null {
  return header === null ? null : /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null;
}

/** What a person opening the sandbox in a browser needs to find their way. */
const INDEX = {
  name: 'reelgate sandbox upstream',
  about: 'A stand-in for the video platform (Management API v2 and Geo Location Lookup API). Local use only.',
  v2: '/v2/sites/<site_id>/... with Authorization: Bearer <API_SECRET>',
  geo: '/ip_lookup/<client>/<ip_address> with X-Auth-Key: <GEO_API_KEY>',
  controls: ['GET /_sandbox/catalog', 'GET /_sandbox/stats', 'GET /_sandbox/plays', 'GET|POST /_sandbox/faults', 'GET|POST /_sandbox/processing',
    'POST /_sandbox/reset', 'GET|PUT /_sandbox/sites/<site_id>/url-signing', 'GET|POST|DELETE /_sandbox/scripted'],
  delivery: '/videos/, /manifests/, /tracks/, /strips/, /v2/media/<media_id>/poster.jpg and thumbnails/, and the Delivery API\'s JSON: ' +
    'GET /v2/media/<media_id>, GET /v2/playlists/<playlist_id> (URL signing per site)',
  uploads: 'PUT /upload/<upload_id>/<part>?key=... (the upload links POST media/ answers)',
};
const GEO_PATTERN = 'GET /ip_lookup/:client/:ip';

export class SandboxState extends DurableObject<SandboxEnv> {
  private readonly store: Store;

  constructor(ctx: DurableObjectState, env: SandboxEnv) {
    super(ctx, env);
    this.store = new Store(ctx.storage.sql);
    void ctx.blockConcurrencyWhile(async () => {
      this.store.migrate();
      // A state seeded by an older sandbox (another delivery layout, fewer sites) is seeded afresh.
      if (this.store.getMeta<number>('seed_version') !== SEED_VERSION) this.reseed();
    });
  }

  private reseed(): void {
    this.ctx.storage.transactionSync(() => {
      this.store.wipe();
      seedCatalog(this.store);
      // The seeded media's play counts (plays.ts); media added later (extra_media, uploads) start at 0.
      seedPlays(this.store);
      this.store.setMeta('seed_version', SEED_VERSION);
    });
  }

  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    try {
      // Read the whole body first: answering before the caller finished sending it would cut the stream.
      const bytes = request.method === 'GET' || request.method === 'HEAD' ? new ArrayBuffer(0) : await request.arrayBuffer();
      // The platform's storage behind the upload links: raw bytes, no credential but the link's own key.
      if (path.startsWith('/upload/')) {
        return await receiveBytes(this.store, request, url, bytes, (run) => this.ctx.storage.transactionSync(run));
      }
      const bodyText = new TextDecoder().decode(bytes);
      if (path === '/_sandbox' || path.startsWith('/_sandbox/')) return await this.control(request, url, bodyText);
      // The delivery host: the catalog's files (videos, manifests, tracks, strips, the Delivery API's images and JSON),
      // each site's URL signing enforced, and the test fixtures under /cdn/. No credential and no rate window; only the
      // Delivery API's JSON calls are counted, apart (`delivery_calls`).
      if (isDeliveryPath(path)) return await deliver(this.store, this.env, request, url);
      if (path === '/v2' || path.startsWith('/v2/')) return await this.api(request, url, 'v2', bodyText);
      if (path.startsWith('/ip_lookup/')) return await this.api(request, url, 'geo', bodyText);
      if (path === '/' && request.method === 'GET') return json(INDEX);
      return errorResponse(404, 'not_found', `Nothing is served at ${path}.`);
    } catch (error) {
      console.error('sandbox failure', error);
      return errorResponse(500, 'server_error', 'The sandbox failed unexpectedly.');
    }
  }

  // --------------------------------------------------------------------------------------------------- the API routes

  private async api(request: Request, url: URL, family: 'v2' | 'geo', bodyText: string): Promise<Response> {
    const credential = family === 'v2'
      ? request.headers.get('authorization')
      : request.headers.get('x-auth-key') ?? request.headers.get('x_auth_key');
    const credentialHash = credential === null ? null : await sha256Hex(credential);
    // Rate windows are per presented credential: a wrong secret fills its own window, never the real one's. The
    // window follows the secret itself, so spelling the scheme differently ("bearer", two spaces) buys no new one.
    const token = family === 'v2' ? bearerToken(credential) : credential;
    const bucket = token !== null ? `${family}:key:${await sha256Hex(token)}`
      : credentialHash !== null ? `${family}:raw:${credentialHash}` : `${family}:anonymous`;
    const delay = this.store.getMeta<Faults>('faults')?.latency_ms;
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));

    // From here on nothing awaits, so concurrent calls cannot interleave between reading and writing the rate
    // window and the statistics: the limit holds exactly however many callers arrive at once.
    const faults = this.store.getMeta<Faults>('faults') ?? {};
    const stats = this.stats();
    const match = family === 'v2' ? matchRoute(request.method, url.pathname) : null;
    const label = family === 'geo' ? (request.method === 'GET' ? GEO_PATTERN : `${request.method} /ip_lookup/`)
      : match?.kind === 'route' ? `${match.route.method} ${match.route.pattern}`
      : match?.kind === 'method_not_allowed' ? `${request.method} ${match.pattern}` : `${request.method} (unknown route)`;
    stats.total_calls++;
    stats.routes[label] = (stats.routes[label] ?? 0) + 1;
    if (credentialHash !== null) {
      if (family === 'v2') stats.last_authorization_sha256 = credentialHash;
      else stats.last_geo_key_sha256 = credentialHash;
    }

    const limit = this.store.getMeta<number>('rate_limit_per_minute') ?? configuredRateLimit(this.env);
    const now = Date.now();
    const hits = this.store.rateHits(now - WINDOW_MS, bucket);
    // What the answer says about the window, unless the geo API is made to say nothing (the omit_geo_rate_headers fault).
    const silent = family === 'geo' && faults.omit_geo_rate_headers === true;
    const rateInfo = (remaining: number): Record<string, string> => silent ? {}
      // The spec's neutral names and the platform's own (its authentication and rate-limit page: `jw-`), as both reach
      // clients: the worker reads either.
      : {
        'svc-request-limit': String(limit), 'svc-request-remaining': String(remaining),
        'jw-request-limit': String(limit), 'jw-request-remaining': String(remaining),
      };
    if (faults.outage) {
      // The platform is down: nothing is executed and nothing is counted against the window.
      stats.faults_injected++;
      this.saveStats(stats);
      return errorResponse(503, 'server_error', 'The platform is unavailable (sandbox outage fault).', {
        ...rateInfo(Math.max(0, limit - hits.count)), 'retry-after': '30',
      });
    }

    if (faults.force_429 || hits.count >= limit) {
      stats.rate_limited++;
      if (faults.force_429) stats.faults_injected++;
      this.saveStats(stats);
      const retryAfter = faults.force_429 && hits.count < limit
        ? faults.retry_after_seconds ?? 30
        : Math.max(1, Math.ceil(((hits.oldest ?? now) + WINDOW_MS - now) / 1000));
      return errorResponse(429, 'rate_limit_exceeded',
        `More than ${limit} requests in the last minute; this call was not executed. Retry after ${retryAfter} s.`,
        { ...rateInfo(0), 'retry-after': String(retryAfter) });
    }
    this.store.addRateHit(bucket, now);
    stats.peak_calls_per_minute = Math.max(stats.peak_calls_per_minute, hits.count + 1);
    const rateHeaders = rateInfo(limit - hits.count - 1);

    const response = this.authorisedCall(request, url, family, credential, match, stats, faults, bodyText);
    this.saveStats(stats);
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(rateHeaders)) headers.set(name, value);
    return new Response(response.body, { status: response.status, headers });
  }

  private authorisedCall(
    request: Request, url: URL, family: 'v2' | 'geo', credential: string | null,
    match: ReturnType<typeof matchRoute> | null, stats: Stats, faults: Faults, bodyText: string,
  ): Response {
    const presented = family === 'v2' ? bearerToken(credential) : credential;
    // The upload API takes the upload's own token (what the official clients send), not the API secret.
    const uploadRoute = match?.kind === 'route' && match.route.auth === 'upload';
    const accepted = uploadRoute
      ? uploadForToken(this.store, match.params.upload ?? '', presented) !== null
      : presented !== null && presented === (family === 'v2' ? this.env.API_SECRET : this.env.GEO_API_KEY);
    if (!accepted) {
      stats.auth_failures++;
      const what = uploadRoute ? 'an Authorization: Bearer <upload_token> header holding the token this upload was created with'
        : family === 'v2' ? 'an Authorization: Bearer <API_SECRET> header' : 'an X-Auth-Key header holding the Geo Location API key';
      return errorResponse(401, 'unauthorized', credential === null ? `This call needs ${what}.` : `The credential was not accepted; this call needs ${what}.`,
        family === 'v2' ? { 'www-authenticate': 'Bearer' } : {});
    }
    if (faults.error_rate && Math.random() < faults.error_rate) {
      stats.faults_injected++;
      const status = Math.random() < 0.5 ? 500 : 503;
      return errorResponse(status, 'server_error', 'The platform failed to answer (sandbox error_rate fault).');
    }
    try {
      if (family === 'geo') return this.geo(request, url);
      if (!match || match.kind === 'not_found') {
        return errorResponse(404, 'not_found', `No route ${request.method} ${url.pathname}; see the v2 endpoint table.`);
      }
      if (match.kind === 'method_not_allowed') {
        return errorResponse(405, 'method_not_allowed', `${request.method} is not allowed on ${match.pattern}; allowed: ${match.allow.join(', ')}.`,
          { allow: match.allow.join(', ') });
      }
      // The same query rules as the gateway's: list routes take q, page, page_length, sort; others none.
      const query = checkListQuery(url.search.slice(1), match.route.list === true);
      if (!query.ok) return errorResponse(400, query.code, query.description);
      // A test's scripted answer (scripted.ts) stands in for the handler; everything above still applied.
      const scripted = scriptedAnswer(this.store, match.route, match.params);
      if (scripted) return scripted;
      const hasBody = ['POST', 'PATCH', 'PUT'].includes(match.route.method) && !match.route.noBody;
      const ctx: RouteContext = {
        store: this.store, request, url, origin: url.origin, params: match.params, now: new Date(),
        ...(faults.changed_playlist_shape ? { changedPlaylistShape: true } : {}),
        ...(faults.dropped_playlist_rules ? { droppedPlaylistRules: true } : {}),
        body: !hasBody ? {}
          : match.route.action ? readActionBody(bodyText, request.headers.get('content-type') ?? '', match.route.action)
            : readEnvelope(bodyText, request.headers.get('content-type') ?? ''),
      };
      // A refused write leaves nothing half-done: each call is one transaction. Processing whose time has come
      // finishes first, so every answer shows the state the platform would be in by now.
      return this.ctx.storage.transactionSync(() => {
        advanceProcessing(this.store, ctx.now.getTime());
        return match.route.handler(ctx) as Response;
      });
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error.status, error.code, error.message, error.headers);
      console.error('sandbox route failure', error);
      return errorResponse(500, 'server_error', 'The platform failed while handling this call.');
    }
  }

  private geo(request: Request, url: URL): Response {
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts.length !== 3) {
      return errorResponse(404, 'not_found', 'The geo route is GET /ip_lookup/<client>/<ip_address>.');
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorResponse(405, 'method_not_allowed', `${request.method} is not allowed on /ip_lookup/; use GET.`, { allow: 'GET' });
    }
    let client: string;
    let ip: string;
    try {
      client = decodeURIComponent(parts[1]!);
      ip = decodeURIComponent(parts[2]!);
    } catch {
      return errorResponse(400, 'invalid_ip_address', 'The path is not validly percent-encoded.');
    }
    return geoLookup(client, ip);
  }

  // ------------------------------------------------------------------------------------------------------- controls

  private control(request: Request, url: URL, bodyText: string): Response {
    const route = `${request.method} ${url.pathname.replace(/\/$/, '')}`;
    const refused = refuseForeignWrite(request, url);
    if (refused) return refused;
    try {
      const signingSite = /^\/_sandbox\/sites\/([A-Za-z0-9]+)\/url-signing\/?$/.exec(url.pathname)?.[1];
      if (signingSite !== undefined) return this.urlSigning(request.method, signingSite, bodyText);
      if (url.pathname.replace(/\/$/, '') === '/_sandbox/scripted') {
        const body = request.method === 'POST' ? readJsonObject(bodyText) : {};
        return this.ctx.storage.transactionSync(() => scriptedControl(this.store, request.method, body));
      }
      switch (route) {
        case 'GET /_sandbox/catalog':
          this.ctx.storage.transactionSync(() => advanceProcessing(this.store, Date.now()));
          return json(catalog(this.store, Date.now()));
        case 'GET /_sandbox/processing':
          return this.ctx.storage.transactionSync(() => processingControl(this.store, null, Date.now()));
        case 'POST /_sandbox/processing': {
          const body = readJsonObject(bodyText);
          return this.ctx.storage.transactionSync(() => processingControl(this.store, body, Date.now()));
        }
        case 'GET /_sandbox/plays': {
          // Each media's play count (plays.ts), of one site with ?site=<id>, else of every site.
          const siteId = url.searchParams.get('site');
          if (siteId !== null && !this.store.get('site', siteId, siteId)) return errorResponse(404, 'not_found', `Site '${siteId}' was not found.`);
          return json(playsListing(this.store, siteId));
        }
        case 'GET /_sandbox/stats':
          return json({ ...this.stats(), rate_limit_per_minute: this.store.getMeta<number>('rate_limit_per_minute') ?? configuredRateLimit(this.env) });
        case 'GET /_sandbox/faults':
          return json({ faults: this.store.getMeta<Faults>('faults') ?? {} });
        case 'POST /_sandbox/faults': {
          const faults = parseFaults(readJsonObject(bodyText));
          this.store.setMeta('faults', faults);
          return json({ faults });
        }
        case 'POST /_sandbox/reset': {
          const body = readJsonObject(bodyText);
          const limit = body.rate_limit_per_minute;
          for (const key of Object.keys(body)) {
            if (key !== 'rate_limit_per_minute' && key !== 'extra_media') {
              throw new HttpError(400, 'invalid_parameter', `Unknown reset option '${key}'; known: rate_limit_per_minute, extra_media.`);
            }
          }
          if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100_000)) {
            throw new HttpError(400, 'invalid_parameter', 'rate_limit_per_minute must be an integer from 1 to 100000.');
          }
          const extra = readExtraMedia(body.extra_media);
          // The wipe clears faults and scripted answers with the catalog.
          this.reseed();
          // A catalog at a real account's size: more media in named sites, after the seed (their ids in the answer).
          const added: Record<string, string[]> = {};
          this.ctx.storage.transactionSync(() => {
            for (const [siteId, count] of Object.entries(extra)) {
              if (!this.store.get('site', siteId, siteId)) throw new HttpError(404, 'not_found', `No site '${siteId}' in the sandbox.`);
              added[siteId] = seedExtraMedia(this.store, siteId, count);
            }
          });
          if (limit !== undefined) this.store.setMeta('rate_limit_per_minute', limit);
          return json({ reset: true, rate_limit_per_minute: limit ?? configuredRateLimit(this.env),
            ...(Object.keys(added).length ? { extra_media: added } : {}) });
        }
        case 'POST /_sandbox/hostile-media': {
          // A test fixture (hostile-folder.ts): the external media an attacker with write access would make, in
          // `site`, its source `file` of the hostile folder. Made by the v2 route's own handler, as if through /v2.
          // No CORS: a browser test page asks through its own test server (web-test-runner.config.mjs).
          const body = readJsonObject(bodyText);
          const file = body.file ?? 'master.m3u8';
          for (const key of Object.keys(body)) {
            if (key !== 'site' && key !== 'file') throw new HttpError(400, 'invalid_parameter', `Unknown option '${key}'; known: site, file.`);
          }
          if (typeof body.site !== 'string' || typeof file !== 'string' || !HOSTILE_FILES.includes(file)) {
            throw new HttpError(400, 'invalid_parameter', `site must be a site id, file one of: ${HOSTILE_FILES.join(', ')}.`);
          }
          const ctx: RouteContext = {
            store: this.store, request, url, origin: url.origin, params: { site: body.site }, now: new Date(),
            body: hostileMediaBody(url.origin, file),
          };
          return this.ctx.storage.transactionSync(() => createMedia(ctx) as Response);
        }
        default: {
          const known = ['GET /_sandbox/catalog', 'GET /_sandbox/stats', 'GET /_sandbox/plays', 'GET /_sandbox/faults', 'POST /_sandbox/faults',
            'GET /_sandbox/processing', 'POST /_sandbox/processing', 'POST /_sandbox/reset', 'POST /_sandbox/hostile-media',
            'GET /_sandbox/sites/<site_id>/url-signing', 'PUT /_sandbox/sites/<site_id>/url-signing',
            'GET|POST|DELETE /_sandbox/scripted'];
          const samePath = known.filter((entry) => entry.endsWith(` ${url.pathname.replace(/\/$/, '')}`));
          if (samePath.length > 0) {
            const allow = samePath.map((entry) => entry.split(' ')[0]).join(', ');
            return errorResponse(405, 'method_not_allowed', `${request.method} is not allowed here; allowed: ${allow}.`, { allow });
          }
          return errorResponse(404, 'not_found', `No control at ${url.pathname}; known: ${known.join(', ')}.`);
        }
      }
    } catch (error) {
      return controlError(error);
    }
  }

  /**
   * `GET`/`PUT /_sandbox/sites/<site_id>/url-signing`: whether the site enforces URL signing, and where its secret
   * comes from (never the secret); `PUT {"enforce": true|false}` switches it until the next reset.
   */
  private urlSigning(method: string, siteId: string, bodyText: string): Response {
    if (method !== 'GET' && method !== 'PUT') {
      return errorResponse(405, 'method_not_allowed', `${method} is not allowed here; allowed: GET, PUT.`, { allow: 'GET, PUT' });
    }
    let signing = siteSigning(this.store, siteId);
    if (!signing) return errorResponse(404, 'not_found', `Site '${siteId}' was not found.`);
    if (method === 'PUT') {
      const body = readJsonObject(bodyText);
      for (const key of Object.keys(body)) {
        if (key !== 'enforce') throw new HttpError(400, 'invalid_parameter', `Unknown option '${key}'; known: enforce.`);
      }
      if (typeof body.enforce !== 'boolean') throw new HttpError(400, 'invalid_parameter', 'enforce must be true or false.');
      signing = setEnforcement(this.store, siteId, body.enforce)!;
    }
    return json({ site: siteId, enforce: signing.enforce, secret_source: signing.secret });
  }

  private stats(): Stats {
    return readStats(this.store);
  }

  private saveStats(stats: Stats): void {
    this.store.setMeta(STATS_KEY, stats);
  }
}

/** `extra_media`: `{ "<site_id>": <count> }`, each count from 1 to `MAX_EXTRA_MEDIA`. */
function readExtraMedia(value: unknown): Record<string, number> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_parameter', 'extra_media must be an object of site ids to counts.');
  }
  for (const [siteId, count] of Object.entries(value)) {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_EXTRA_MEDIA) {
      throw new HttpError(400, 'invalid_parameter', `extra_media.${siteId.slice(0, 16)} must be an integer from 1 to ${MAX_EXTRA_MEDIA}.`);
    }
  }
  return value as Record<string, number>;
}
