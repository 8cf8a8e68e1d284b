/**
 * Typed client of the platform's Management API v2: one method per route of the spec's endpoint table. Every request
 * is built from scratch (Bearer secret, JSON accept, a content type only with a body), never follows a redirect with
 * the secret, and gives up after `timeoutMs`. Non-2xx answers throw `V2ApiError`; the rate-limit headers of every
 * answer are exposed. Uses only `fetch`, `Request`, `AbortSignal` and `URL`, so it runs in Workers and in Node.
 */
import { errorItemsFromBody } from './error-body.ts';
import { InvalidArgumentError, UpstreamRequestError, V2ApiError } from './errors.ts';
import { checkSort, MAX_Q_LENGTH } from '../contract/list-query.ts';
import { paginate, type PaginateOptions } from './paginate.ts';
import { checkRawV2Path } from '../contract/path-segments.ts';
import { v2Path, v2Route, type V2PathParams, type V2RouteId } from '../contract/v2-routes.ts';
import { parseRateLimit, parseRetryAfter, type RateLimitInfo } from './rate-limit.ts';
import {
  callSignal, checkTimeout, DEFAULT_TIMEOUT_MS, discard, guarded, isRedirect, trimBaseUrl,
  type CallOptions, type Transport,
} from './transport.ts';
import {
  MAX_PAGE_LENGTH,
  type ListParams, type Media, type MediaCreateBody, type MediaCreateResult, type MediaReuploadBody, type UploadPartList,
  type TextTrackCreateResult, type MediaList, type MediaRendition,
  type MediaRenditionCreateBody, type MediaRenditionList, type MediaUpdateBody, type Original, type OriginalList,
  type Player, type PlayerCreateBody, type PlayerList, type PlayerUpdateBody, type Playlist, type PlaylistCreateBody,
  type PlaylistList, type PlaylistType, type PlaylistUpdateBody, type QueryUsageBody, type RemoveTagBody,
  type RenameTagBody, type TextTrack, type TextTrackCreateBody, type TextTrackList,
  type Thumbnail, type ThumbnailCreateBody, type ThumbnailUpdateBody, type TypedPlaylist, type UsageResult,
} from '../contract/v2-types.ts';

export type { CallOptions } from './transport.ts';

export interface V2ResponseInfo {
  method: string;
  /** The `/v2/...` path, without the query. */
  path: string;
  status: number;
  rateLimit: RateLimitInfo;
}

export interface V2ClientOptions {
  /** e.g. `http://localhost:8788`; the client appends `/v2/...`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <secret>`. */
  secret: string;
  /** Transport; default `globalThis.fetch`. The worker injects one that goes through its budget. */
  fetch?: Transport;
  /** Default 10 000; enforced with `AbortSignal`. */
  timeoutMs?: number;
  /** Called for every answer (success, error, redirect), e.g. to feed a budget from the rate-limit headers. */
  onResponse?: (info: V2ResponseInfo) => void;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const METHODS: readonly string[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

interface Call {
  method: HttpMethod;
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  options?: CallOptions;
  /** Another credential than the API secret (an upload's token). */
  authorization?: string;
}

/**
 * `q`, `page`, `page_length`, `sort` as query parameters, checked before any request by the same rules the gateway
 * and the sandbox apply (list-query.ts): `sort` may end in `:asc`, `:desc` or `:dsc`, `page_length` is at most 1000.
 */
export function listQuery(params: ListParams = {}): URLSearchParams {
  const query = new URLSearchParams();
  const { q, page, page_length: pageLength, sort } = params;
  if (q !== undefined) {
    if (typeof q !== 'string' || q.length > MAX_Q_LENGTH) {
      throw new InvalidArgumentError('q', `q must be a string of at most ${MAX_Q_LENGTH} characters.`);
    }
    if (q.trim()) query.set('q', q);
  }
  if (page !== undefined) {
    if (!Number.isSafeInteger(page) || page < 1) throw new InvalidArgumentError('page', 'page must be an integer ≥ 1.');
    query.set('page', String(page));
  }
  if (pageLength !== undefined) {
    if (!Number.isSafeInteger(pageLength) || pageLength < 1 || pageLength > MAX_PAGE_LENGTH) {
      throw new InvalidArgumentError('page_length', `page_length must be an integer from 1 to ${MAX_PAGE_LENGTH}.`);
    }
    query.set('page_length', String(pageLength));
  }
  if (sort !== undefined) {
    const checked = typeof sort === 'string' ? checkSort(sort) : null;
    if (!checked?.ok) throw new InvalidArgumentError('sort', "sort must look like '<field>:asc' or '<field>:dsc'.");
    query.set('sort', sort);
  }
  return query;
}

/** A route of the contract's table: its method, and its path with every parameter checked and encoded. */
function route<Id extends V2RouteId>(id: Id, params: V2PathParams<Id>): { method: HttpMethod; path: string } {
  const path = v2Path(id, params);
  return { method: v2Route(id).method, path };
}

function checkBody(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidArgumentError('body', 'body must be a JSON object of metadata, upload and relationships.');
  }
}

export class V2Client {
  readonly #baseUrl: string;
  readonly #authorization: string;
  readonly #transport: Transport;
  readonly #timeoutMs: number;
  readonly #onResponse: ((info: V2ResponseInfo) => void) | undefined;
  #rateLimit: RateLimitInfo = { limit: null, remaining: null };

  constructor(options: V2ClientOptions) {
    this.#baseUrl = trimBaseUrl(options.baseUrl, 'baseUrl');
    if (typeof options.secret !== 'string' || !/^[\x21-\x7e]+$/.test(options.secret)) {
      throw new TypeError('secret must be a non-empty token of visible ASCII characters.');
    }
    this.#authorization = `Bearer ${options.secret}`;
    const fetchImpl = options.fetch;
    this.#transport = fetchImpl ? (request) => fetchImpl(request) : (request) => globalThis.fetch(request);
    this.#timeoutMs = checkTimeout(options.timeoutMs, DEFAULT_TIMEOUT_MS);
    this.#onResponse = options.onResponse;
  }

  /** The last seen `svc-request-limit` / `svc-request-remaining` (null until an answer carried them). */
  get rateLimit(): RateLimitInfo {
    return { ...this.#rateLimit };
  }

  // -------------------------------------------------------------------------------------------------------- media

  /** With `upload.method` `direct` the answer carries `upload_link`; with `multipart`, `upload_id` and `upload_token`. */
  async createMedia(site: string, body: MediaCreateBody, options?: CallOptions): Promise<MediaCreateResult> {
    return this.#json({ ...route('media.create', { site }), body, options });
  }
  /** A new source for a media (PUT media/<id>/reupload/); answers like `createMedia`. */
  async reuploadMedia(site: string, mediaId: string, body: MediaReuploadBody, options?: CallOptions): Promise<MediaCreateResult> {
    return this.#json({ ...route('media.reupload', { site, media: mediaId }), body, options });
  }
  async listMedia(site: string, params?: ListParams, options?: CallOptions): Promise<MediaList> {
    return this.#json({ ...route('media.list', { site }), query: listQuery(params), options });
  }
  async getMedia(site: string, mediaId: string, options?: CallOptions): Promise<Media> {
    return this.#json({ ...route('media.show', { site, media: mediaId }), options });
  }
  async updateMedia(site: string, mediaId: string, body: MediaUpdateBody, options?: CallOptions): Promise<Media> {
    return this.#json({ ...route('media.update', { site, media: mediaId }), body, options });
  }
  async deleteMedia(site: string, mediaId: string, options?: CallOptions): Promise<void> {
    return this.#void({ ...route('media.delete', { site, media: mediaId }), options });
  }
  iterateMedia(site: string, params?: ListParams, options?: CallOptions & PaginateOptions): AsyncGenerator<Media, void, undefined> {
    return paginate((page) => this.listMedia(site, page, options), 'media', params, options);
  }

  // ------------------------------------------------------------------------------------------- renditions, originals

  async createMediaRendition(site: string, mediaId: string, body: MediaRenditionCreateBody, options?: CallOptions): Promise<MediaRendition> {
    return this.#json({ ...route('media_renditions.create', { site, media: mediaId }), body, options });
  }
  async listMediaRenditions(site: string, mediaId: string, params?: ListParams, options?: CallOptions): Promise<MediaRenditionList> {
    return this.#json({
      ...route('media_renditions.list', { site, media: mediaId }), query: listQuery(params), options,
    });
  }
  async getMediaRendition(site: string, mediaId: string, renditionId: string, options?: CallOptions): Promise<MediaRendition> {
    return this.#json({ ...route('media_renditions.show', { site, media: mediaId, rendition: renditionId }), options });
  }
  async deleteMediaRendition(site: string, mediaId: string, renditionId: string, options?: CallOptions): Promise<void> {
    return this.#void({ ...route('media_renditions.delete', { site, media: mediaId, rendition: renditionId }), options });
  }
  iterateMediaRenditions(site: string, mediaId: string, params?: ListParams, options?: CallOptions & PaginateOptions): AsyncGenerator<MediaRendition, void, undefined> {
    return paginate((page) => this.listMediaRenditions(site, mediaId, page, options), 'media_renditions', params, options);
  }
  async listOriginals(site: string, mediaId: string, params?: ListParams, options?: CallOptions): Promise<OriginalList> {
    return this.#json({ ...route('originals.list', { site, media: mediaId }), query: listQuery(params), options });
  }
  iterateOriginals(site: string, mediaId: string, params?: ListParams, options?: CallOptions & PaginateOptions): AsyncGenerator<Original, void, undefined> {
    return paginate((page) => this.listOriginals(site, mediaId, page, options), 'originals', params, options);
  }

  // ------------------------------------------------------------------------------------------------------ uploads
  // A multipart upload is driven with its own token, not the API secret (as the official clients do).

  /** GET uploads/<upload_id>/parts: each part's pre-signed link (and `etag` once its bytes are in). */
  async listUploadParts(uploadId: string, uploadToken: string, params: Pick<ListParams, 'page' | 'page_length'> = {}, options?: CallOptions): Promise<UploadPartList> {
    return this.#json({
      ...route('uploads.parts', { upload: uploadId }), query: listQuery(params), options,
      authorization: this.#uploadAuthorization(uploadToken),
    });
  }
  /** PUT uploads/<upload_id>/complete: every part is in; the media goes on to processing. */
  async completeUpload(uploadId: string, uploadToken: string, options?: CallOptions): Promise<void> {
    return this.#void({
      ...route('uploads.complete', { upload: uploadId }), options, authorization: this.#uploadAuthorization(uploadToken),
    });
  }

  // ------------------------------------------------------------------------------------------------- text tracks

  async createTextTrack(site: string, mediaId: string, body: TextTrackCreateBody, options?: CallOptions): Promise<TextTrackCreateResult> {
    return this.#json({ ...route('text_tracks.create', { site, media: mediaId }), body, options });
  }
  async listTextTracks(site: string, mediaId: string, params?: ListParams, options?: CallOptions): Promise<TextTrackList> {
    return this.#json({ ...route('text_tracks.list', { site, media: mediaId }), query: listQuery(params), options });
  }
  async getTextTrack(site: string, mediaId: string, trackId: string, options?: CallOptions): Promise<TextTrack> {
    return this.#json({ ...route('text_tracks.show', { site, media: mediaId, track: trackId }), options });
  }
  async updateTextTrack(site: string, mediaId: string, trackId: string, body: { metadata: Partial<TextTrack['metadata']> }, options?: CallOptions): Promise<TextTrack> {
    return this.#json({ ...route('text_tracks.update', { site, media: mediaId, track: trackId }), body, options });
  }
  async deleteTextTrack(site: string, mediaId: string, trackId: string, options?: CallOptions): Promise<void> {
    return this.#void({ ...route('text_tracks.delete', { site, media: mediaId, track: trackId }), options });
  }
  iterateTextTracks(site: string, mediaId: string, params?: ListParams, options?: CallOptions & PaginateOptions): AsyncGenerator<TextTrack, void, undefined> {
    return paginate((page) => this.listTextTracks(site, mediaId, page, options), 'text_tracks', params, options);
  }

  // -------------------------------------------------------------------------------------------------- thumbnails
  // The spec writes the id paths without a trailing slash; they are sent exactly so (contract/v2-routes.ts).

  async createThumbnail(site: string, body: ThumbnailCreateBody, options?: CallOptions): Promise<Thumbnail> {
    return this.#json({ ...route('thumbnails.create', { site }), body, options });
  }
  async getThumbnail(site: string, thumbnailId: string, options?: CallOptions): Promise<Thumbnail> {
    return this.#json({ ...route('thumbnails.show', { site, thumbnail: thumbnailId }), options });
  }
  async updateThumbnail(site: string, thumbnailId: string, body: ThumbnailUpdateBody, options?: CallOptions): Promise<Thumbnail> {
    return this.#json({ ...route('thumbnails.update', { site, thumbnail: thumbnailId }), body, options });
  }

  // --------------------------------------------------------------------------------------------------- playlists

  async createPlaylist<T extends PlaylistType>(site: string, type: T, body: PlaylistCreateBody<T>, options?: CallOptions): Promise<TypedPlaylist<T>> {
    return this.#json({ ...route('playlists.create', { site, playlist_type: type }), body, options });
  }
  async listPlaylists(site: string, params?: ListParams, options?: CallOptions): Promise<PlaylistList> {
    return this.#json({ ...route('playlists.list', { site }), query: listQuery(params), options });
  }
  /** GET playlists/<id>/: the top-level fields and the type. */
  async getPlaylist(site: string, playlistId: string, options?: CallOptions): Promise<Playlist> {
    return this.#json({ ...route('playlists.show', { site, playlist: playlistId }), options });
  }
  /** GET playlists/<id>/<type>_playlist/: the playlist's fields and its type's rules, all under `metadata` (no type). */
  async getTypedPlaylist<T extends PlaylistType>(site: string, playlistId: string, type: T, options?: CallOptions): Promise<TypedPlaylist<T>> {
    return this.#json({ ...route('playlists.show.typed', { site, playlist: playlistId, playlist_type: type }), options });
  }
  /** Also the way to add, remove or reorder a playlist's media (a manual one's `metadata.media_filter.include.values`). */
  async updatePlaylist<T extends PlaylistType>(site: string, playlistId: string, type: T, body: PlaylistUpdateBody<T>, options?: CallOptions): Promise<TypedPlaylist<T>> {
    return this.#json({ ...route('playlists.update', { site, playlist: playlistId, playlist_type: type }), body, options });
  }
  async deletePlaylist(site: string, playlistId: string, options?: CallOptions): Promise<void> {
    return this.#void({ ...route('playlists.delete', { site, playlist: playlistId }), options });
  }
  async deleteTypedPlaylist(site: string, playlistId: string, type: PlaylistType, options?: CallOptions): Promise<void> {
    return this.#void({ ...route('playlists.delete.typed', { site, playlist: playlistId, playlist_type: type }), options });
  }
  iteratePlaylists(site: string, params?: ListParams, options?: CallOptions & PaginateOptions): AsyncGenerator<Playlist, void, undefined> {
    return paginate((page) => this.listPlaylists(site, page, options), 'playlists', params, options);
  }

  // ----------------------------------------------------------------------------------------------------- players

  async createPlayer(site: string, body: PlayerCreateBody, options?: CallOptions): Promise<Player> {
    return this.#json({ ...route('players.create', { site }), body, options });
  }
  async listPlayers(site: string, params?: ListParams, options?: CallOptions): Promise<PlayerList> {
    return this.#json({ ...route('players.list', { site }), query: listQuery(params), options });
  }
  async getPlayer(site: string, playerId: string, options?: CallOptions): Promise<Player> {
    return this.#json({ ...route('players.show', { site, player: playerId }), options });
  }
  async updatePlayer(site: string, playerId: string, body: PlayerUpdateBody, options?: CallOptions): Promise<Player> {
    return this.#json({ ...route('players.update', { site, player: playerId }), body, options });
  }
  async deletePlayer(site: string, playerId: string, options?: CallOptions): Promise<void> {
    return this.#void({ ...route('players.delete', { site, player: playerId }), options });
  }
  iteratePlayers(site: string, params?: ListParams, options?: CallOptions & PaginateOptions): AsyncGenerator<Player, void, undefined> {
    return paginate((page) => this.listPlayers(site, page, options), 'players', params, options);
  }

  // ----------------------------------------------------------------------------------------------------- actions

  /** Accepted (202), carried out by the platform over time: the answer has no body. */
  async removeTag(site: string, body: RemoveTagBody, options?: CallOptions): Promise<void> {
    return this.#void({ ...route('tags.remove', { site }), body, options });
  }
  /** Accepted (202), carried out by the platform over time: the answer has no body. */
  async renameTag(site: string, body: RenameTagBody, options?: CallOptions): Promise<void> {
    return this.#void({ ...route('tags.rename', { site }), body, options });
  }
  async queryUsage(site: string, body: QueryUsageBody, options?: CallOptions): Promise<UsageResult> {
    return this.#json({ ...route('usage.query', { site }), body, options });
  }

  // ------------------------------------------------------------------------------------------------- escape hatch

  /**
   * For a gateway that forwards allowlisted calls: the request is built the same way (headers from scratch, redirect
   * 'manual', timeout) and the upstream's Response comes back as is, whatever its status. Timeouts, network failures
   * and redirects still throw `UpstreamRequestError`, because a redirect must never reach a caller that might follow it.
   */
  async raw(
    method: string,
    path: string,
    init: { query?: URLSearchParams; body?: unknown; authorization?: string } & CallOptions = {},
  ): Promise<Response> {
    const verb = typeof method === 'string' ? method.toUpperCase() : '';
    if (!METHODS.includes(verb)) throw new InvalidArgumentError('method', `method must be one of ${METHODS.join(', ')}.`);
    const call: Call = { method: verb as HttpMethod, path: checkRawV2Path(path), options: init };
    if (init.query) call.query = init.query;
    // An upload's own token (`Bearer <upload_token>`) for the upload routes; the secret otherwise.
    if (init.authorization !== undefined) {
      if (typeof init.authorization !== 'string' || !/^Bearer [\x21-\x7e]+$/.test(init.authorization)) {
        throw new InvalidArgumentError('authorization', "authorization must be 'Bearer <token>' of visible ASCII characters.");
      }
      call.authorization = init.authorization;
    }
    if (init.body !== undefined) {
      if (verb === 'GET' || verb === 'DELETE') throw new InvalidArgumentError('body', `${verb} requests carry no body.`);
      call.body = init.body;
    }
    return this.#send(call, async (response) => response);
  }

  // ------------------------------------------------------------------------------------------------------ plumbing

  #uploadAuthorization(token: string): string {
    if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) {
      throw new InvalidArgumentError('uploadToken', 'uploadToken must be a non-empty token of visible ASCII characters.');
    }
    return `Bearer ${token}`;
  }
  #json<T>(call: Call): Promise<T> {
    if (call.body !== undefined) checkBody(call.body);
    return this.#send(call, async (response, what) => {
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new UpstreamRequestError('invalid_response', `${what}: the answer is not JSON.`, response.status);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new UpstreamRequestError('invalid_response', `${what}: the answer is not a JSON object.`, response.status);
      }
      return parsed as T;
    }, true);
  }

  #void(call: Call): Promise<void> {
    return this.#send(call, async (response) => {
      discard(response);
    }, true);
  }

  async #send<T>(
    call: Call,
    onSuccess: (response: Response, what: string) => Promise<T>,
    throwOnError = false,
  ): Promise<T> {
    const timeoutMs = checkTimeout(call.options?.timeoutMs, this.#timeoutMs);
    const what = `${call.method} ${call.path}`;
    const signals = callSignal(timeoutMs, call.options?.signal);
    // Built before the guard: a request that cannot be built is our error, not the upstream's.
    const request = this.#request(call, signals.signal);
    return guarded(signals, async () => {
      const response = await this.#transport(request);
      const rateLimit = parseRateLimit(response.headers);
      this.#remember(rateLimit);
      this.#notify({ method: call.method, path: call.path, status: response.status, rateLimit });
      if (isRedirect(response)) {
        discard(response);
        throw new UpstreamRequestError('redirect', `${what}: the upstream answered with a redirect; not followed.`,
          response.status);
      }
      if (throwOnError && (response.status < 200 || response.status > 299)) {
        const errors = errorItemsFromBody(await response.text(), response.status);
        const retryAfter = response.status === 429 || response.status === 503
          ? parseRetryAfter(response.headers.get('retry-after')) : null;
        throw new V2ApiError(response.status, errors, retryAfter, rateLimit, what);
      }
      return onSuccess(response, what);
    }, what);
  }

  #request(call: Call, signal: AbortSignal): Request {
    const query = call.query?.toString();
    const url = `${this.#baseUrl}${call.path}${query ? `?${query}` : ''}`;
    // From scratch on every call: nothing of an incoming request can leak into the upstream one.
    const headers = new Headers({ authorization: call.authorization ?? this.#authorization, accept: 'application/json' });
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers.set('content-type', 'application/json');
    }
    return new Request(url, { method: call.method, headers, body: body ?? null, redirect: 'manual', signal });
  }

  #remember(seen: RateLimitInfo): void {
    // An answer without the headers (a proxy's error page) does not erase what the platform last said.
    this.#rateLimit = {
      limit: seen.limit ?? this.#rateLimit.limit,
      remaining: seen.remaining ?? this.#rateLimit.remaining,
    };
  }

  #notify(info: V2ResponseInfo): void {
    if (!this.#onResponse) return;
    try {
      this.#onResponse(info);
    } catch {
      // An observer must not change the outcome of the call it observes.
    }
  }
}
