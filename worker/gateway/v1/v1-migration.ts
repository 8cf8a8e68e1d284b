/**
 * v1 → v2 migration helpers, following the spec's Versioning section: route replacements (with a reason where v2 has
 * none), field renames, `custom.<name>` parameters → a complete `custom_params` object, top-level player options →
 * `setup_config`, the v1 `{code, message}` error ↔ v2 `errors[]`, and the reverse direction (v2 resources → v1-shaped
 * objects). The gateway's v1 compatibility layer (v1-routes.ts) is its one user.
 */
import { pathSegment, playlistTypeSegment, readPlaylistType } from '../../contract/path-segments.ts';
import type {
  CustomParams, Media, MediaCreateBody, MediaMetadata, MediaRendition, MediaUpdateBody, Original, Player,
  PlayerMetadata, Playlist, TextTrack, V2ErrorBody, V2ErrorItem,
} from '../../contract/v2-types.ts';
import {
  camelToSnake, InvalidArgumentError, mergeCustomParams, type CustomParamChanges, type HttpMethod,
} from '../../upstream/index.ts';

// ------------------------------------------------------------------------------------------------------------ routes

export interface V2Route {
  method: HttpMethod;
  /** With the spec's placeholders (`<site_id>`...) wherever the v1 call did not supply the value. */
  path: string;
  /** List parameters the v1 call implied (v1 `channels/list?type=dynamic` → `q: 'playlist_type:dynamic'`). */
  query?: Record<string, string>;
}
export interface V1RouteMapping extends V2Route {
  /** Further calls the v1 route also covered (v1 conversions list → originals too; thumbnail update → two steps). */
  also?: V2Route[];
  note?: string;
}
export interface V1RouteUnsupported {
  unsupported: true;
  reason: string;
}
export type V1RouteResult = V1RouteMapping | V1RouteUnsupported;

/** Spec, Versioning 4: resource renames. */
export const V1_RESOURCE_RENAMES = {
  account: 'site',
  channel: 'playlist',
  conversion: 'originals and media_renditions',
  track: 'text_track',
  video: 'media',
} as const;

const SITE = '/v2/sites/<site_id>';
const MEDIA = `${SITE}/media/<media_id>`;
const PLAYLIST_BY_TYPE = `${SITE}/playlists/<playlist_id>/<playlist_type>/`;
const CHANNEL_VIDEOS_NOTE = 'Channel video operations become a PATCH of the playlist: edit the ordered ids in its metadata.media_filter.include.values.';
const TAGS_REASON = 'Tags are not a resource in v2; they are an attribute of media (edit media tags, or use remove_tag/rename_tag).';

const route = (method: HttpMethod, path: string, extra: Omit<V1RouteMapping, 'method' | 'path'> = {}): V1RouteMapping =>
  ({ method, path, ...extra });
const unsupported = (reason: string): V1RouteUnsupported => ({ unsupported: true, reason });

/** Spec, Versioning 3, route by route (keys are the v1 path after `/v1/`). */
export const V1_ROUTES: Readonly<Record<string, V1RouteResult>> = {
  'accounts/tags/delete': route('PUT', `${SITE}/remove_tag/`),
  'accounts/tags/update': route('PUT', `${SITE}/rename_tag/`),
  'accounts/usage/show': route('PUT', `${SITE}/query_usage/`),
  'accounts/tags/create': unsupported(TAGS_REASON),
  'accounts/tags/list': unsupported(TAGS_REASON),
  'accounts/tags/show': unsupported(TAGS_REASON),
  'videos/tags/list': unsupported(TAGS_REASON),
  status: unsupported('v2 has no status route.'),

  'channels/create': route('POST', `${SITE}/playlists/<playlist_type>/`),
  'channels/list': route('GET', `${SITE}/playlists/`),
  'channels/show': route('GET', `${SITE}/playlists/<playlist_id>/`),
  'channels/update': route('PATCH', PLAYLIST_BY_TYPE),
  'channels/delete': route('DELETE', `${SITE}/playlists/<playlist_id>/`),
  'channels/videos/create': route('PATCH', PLAYLIST_BY_TYPE, { note: CHANNEL_VIDEOS_NOTE }),
  'channels/videos/list': route('PATCH', PLAYLIST_BY_TYPE, { note: CHANNEL_VIDEOS_NOTE }),
  'channels/videos/show': route('PATCH', PLAYLIST_BY_TYPE, { note: CHANNEL_VIDEOS_NOTE }),
  'channels/videos/update': route('PATCH', PLAYLIST_BY_TYPE, { note: CHANNEL_VIDEOS_NOTE }),
  'channels/videos/delete': route('PATCH', PLAYLIST_BY_TYPE, { note: CHANNEL_VIDEOS_NOTE }),

  'players/create': route('POST', `${SITE}/players/`),
  'players/list': route('GET', `${SITE}/players/`),
  'players/show': route('GET', `${SITE}/players/<player_id>/`),
  'players/update': route('PATCH', `${SITE}/players/<player_id>/`),
  'players/delete': route('DELETE', `${SITE}/players/<player_id>/`),

  'videos/create': route('POST', `${SITE}/media/`),
  'videos/list': route('GET', `${SITE}/media/`),
  'videos/show': route('GET', `${MEDIA}/`),
  'videos/update': route('PATCH', `${MEDIA}/`),
  'videos/delete': route('DELETE', `${MEDIA}/`),

  'videos/conversions/create': route('POST', `${MEDIA}/media_renditions/`),
  'videos/conversions/list': route('GET', `${MEDIA}/media_renditions/`, {
    also: [{ method: 'GET', path: `${MEDIA}/originals/` }],
    note: 'v1 listed every conversion; v2 lists the original conversions separately.',
  }),
  'videos/conversions/show': route('GET', `${MEDIA}/media_renditions/<rendition_id>/`),
  'videos/conversions/delete': route('DELETE', `${MEDIA}/media_renditions/<rendition_id>/`),

  'videos/thumbnails/show': route('GET', `${SITE}/thumbnails/<thumbnail_id>`),
  'videos/thumbnails/update': route('POST', `${SITE}/thumbnails/`, {
    also: [{ method: 'PATCH', path: `${SITE}/thumbnails/<thumbnail_id>` }],
    note: 'Create the thumbnail, then PATCH it with is_poster to make it the poster.',
  }),

  'videos/tracks/create': route('POST', `${MEDIA}/text_tracks/`),
  'videos/tracks/list': route('GET', `${MEDIA}/text_tracks/`),
  'videos/tracks/show': route('GET', `${MEDIA}/text_tracks/<track_id>/`),
  'videos/tracks/update': route('PATCH', `${MEDIA}/text_tracks/<track_id>/`),
  'videos/tracks/delete': route('DELETE', `${MEDIA}/text_tracks/<track_id>/`),
};

/** v1 query parameters that name a v2 path parameter. */
const V1_KEY_PARAMS: Readonly<Record<string, string>> = {
  video_key: '<media_id>',
  channel_key: '<playlist_id>',
  player_key: '<player_id>',
  conversion_key: '<rendition_id>',
  track_key: '<track_id>',
  thumbnail_key: '<thumbnail_id>',
};

export interface MapV1RouteOptions {
  /** Fills `<site_id>` (v1 had accounts and api keys, not sites in the path). */
  siteId?: string;
}

/**
 * `/v1/videos/show?video_key=abc` → `{ method: 'GET', path: '/v2/sites/<site_id>/media/abc/' }`. The v1 `type` query of
 * channels becomes the `playlist_type` path parameter (spec, Versioning 5); ids in the query fill their placeholders.
 */
export function mapV1Route(v1Path: string, options: MapV1RouteOptions = {}): V1RouteResult {
  if (typeof v1Path !== 'string') throw new InvalidArgumentError('v1Path', 'v1Path must be a string.');
  const [pathPart = '', queryPart = ''] = v1Path.split('?', 2);
  const match = /^\/v1\/([a-z_/]+?)\/?$/.exec(pathPart.trim());
  if (!match) return unsupported(`${JSON.stringify(pathPart.slice(0, 80))} is not a v1 route.`);
  const name = match[1]!;
  const known = V1_ROUTES[name];
  if (!known) {
    const area = name.split('/')[0];
    const reason = area === 'accounts'
      ? `/v1/${name} has no v2 equivalent: the account became the site, which v2 does not manage through these routes.`
      : `/v1/${name} has no v2 equivalent in the spec's replacement table.`;
    return unsupported(reason);
  }
  if ('unsupported' in known) return known;

  const query = new URLSearchParams(queryPart);
  const given = query.get('type');
  // v1 wrote `manual`/`dynamic`; the v2 path spells the type `manual_playlist` (either is read here).
  const type = given === null ? null : readPlaylistType(given);
  if (given !== null && type === null) {
    throw new InvalidArgumentError('type', `type ${JSON.stringify(given.slice(0, 40))} is not a v2 playlist type.`);
  }
  let mapped: V1RouteMapping = known;
  // With a known type, show and delete of a channel use the typed form (GET/DELETE playlists/<id>/<type>/).
  if (type && (name === 'channels/show' || name === 'channels/delete')) mapped = { ...known, path: PLAYLIST_BY_TYPE };

  const fill = (path: string): string => {
    let filled = path;
    if (options.siteId !== undefined) filled = filled.replace('<site_id>', pathSegment('siteId', options.siteId));
    if (type) filled = filled.replace('<playlist_type>', playlistTypeSegment(type));
    for (const [param, placeholder] of Object.entries(V1_KEY_PARAMS)) {
      const value = query.get(param);
      if (value !== null) filled = filled.replace(placeholder, pathSegment(param, value));
    }
    return filled;
  };
  const result: V1RouteMapping = { method: mapped.method, path: fill(mapped.path) };
  if (mapped.also) result.also = mapped.also.map((step) => ({ method: step.method, path: fill(step.path) }));
  if (mapped.note) result.note = mapped.note;
  // Listing has no playlist_type path parameter; the type filters the list instead.
  if (type && name === 'channels/list') result.query = { q: `playlist_type:${type}` };
  return result;
}

// ------------------------------------------------------------------------------------------------------ field names

/** Spec, "Known fields" of media: v1 name → v2 name. */
export const V1_MEDIA_FIELD_RENAMES = {
  key: 'id',
  date: 'publish_start_date',
  expires_date: 'publish_end_date',
  error: 'error_message',
  link: 'permalink',
  mediatype: 'media_type',
  sourceformat: 'mime_type',
  sourcetype: 'hosting_type',
} as const;

/** Spec, media_renditions: `link` → `delivery_url` (and `filesize` string → integer). */
export const V1_RENDITION_FIELD_RENAMES = { key: 'id', link: 'delivery_url' } as const;

/** Fields that do not exist in v2 at all (spec: media `md5`, `size`; conversions `template`, renditions `duration`). */
export const V1_MEDIA_FIELDS_REMOVED = ['md5', 'size'] as const;

/** The v2 name of a v1 media field (unchanged when not renamed). */
export function renameV1MediaField(name: string): string {
  return (V1_MEDIA_FIELD_RENAMES as Record<string, string>)[name] ?? name;
}

// v1 request parameters that carried the old signature authentication; v2 uses the Bearer header instead.
const V1_AUTH_PARAMS = /^api_(key|signature|nonce|timestamp|format|kit)$/;

/** v1 dates were Unix seconds (as a number or string); v2 wants ISO 8601. Empty or 0 means "none". */
export function v1DateToIso(value: unknown, field: string): string | null {
  if (value === null || value === undefined || value === '' || value === 0 || value === '0') return null;
  let at: number;
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim()))) {
    at = Number(value) * 1000;
  } else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value.trim())) {
    at = Date.parse(value.trim());
  } else {
    at = Number.NaN;
  }
  if (!Number.isFinite(at)) throw new InvalidArgumentError(field, `${field} must be a Unix timestamp or an ISO 8601 date.`);
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function isoToV1Date(value: string | null): number | null {
  if (!value) return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.floor(at / 1000) : null;
}

function v1Tags(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (!list) throw new InvalidArgumentError('tags', 'tags must be a comma-separated string or a list.');
  return list.map((tag) => String(tag).trim()).filter((tag) => tag.length > 0);
}

function v1Text(value: unknown, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  throw new InvalidArgumentError(field, `${field} must be text.`);
}

/**
 * `custom.<name>` sets a parameter and `custom.-<name>` deletes it (spec, Versioning 6). Returns the changes, or null
 * when the v1 fields carried none.
 */
export function v1CustomChanges(v1Fields: Record<string, unknown>): CustomParamChanges | null {
  let changes: CustomParamChanges | null = null;
  for (const [field, value] of Object.entries(v1Fields)) {
    if (!field.startsWith('custom.')) continue;
    const name = field.slice('custom.'.length);
    changes ??= {};
    if (name.startsWith('-')) {
      if (name.length === 1) throw new InvalidArgumentError(field, 'custom.- needs a parameter name to delete.');
      changes[name.slice(1)] = null;
    } else {
      if (!name) throw new InvalidArgumentError(field, 'custom. needs a parameter name.');
      changes[name] = value === null || value === undefined ? '' : String(value);
    }
  }
  return changes;
}

// v1 `sourceformat` short names ↔ MIME types.
const SOURCE_FORMATS: Readonly<Record<string, string>> = {
  mp4: 'video/mp4', webm: 'video/webm', flv: 'video/x-flv', mov: 'video/quicktime', m3u8: 'application/vnd.apple.mpegurl',
  mpd: 'application/dash+xml', mp3: 'audio/mpeg', aac: 'audio/aac', m4a: 'audio/mp4', ogg: 'audio/ogg',
};

export function v1SourceFormatToMime(format: string): string {
  const lower = format.trim().toLowerCase();
  const mime = SOURCE_FORMATS[lower] ?? (lower.includes('/') ? lower : null);
  if (!mime) throw new InvalidArgumentError('sourceformat', `sourceformat ${JSON.stringify(format.slice(0, 20))} is not known.`);
  return mime;
}

function mimeToV1SourceFormat(mime: string | null): string | null {
  if (!mime) return null;
  return Object.entries(SOURCE_FORMATS).find(([, value]) => value === mime)?.[0] ?? mime;
}

const UPDATABLE_READ_ONLY: Readonly<Record<string, string>> = {
  mediatype: 'media_type is set by the platform from the upload.',
  sourceformat: 'mime_type is given in upload at creation only.',
  sourcetype: 'hosting_type is given by upload.method at creation only.',
  sourceurl: 'the source URL is given in upload at creation only.',
  download_url: 'the download URL is given in upload at creation only.',
  error: 'error_message is set by the platform.',
  status: 'status is set by the platform.',
  duration: 'duration is set by the platform.',
  md5: 'md5 does not exist in v2.',
  size: 'size does not exist in v2.',
  views: 'views are usage, read through query_usage.',
};

function metadataFromV1(
  v1Fields: Record<string, unknown>,
  currentCustomParams: CustomParams | undefined,
  allowed: ReadonlySet<string>,
): Partial<MediaMetadata> {
  const metadata: Partial<MediaMetadata> = {};
  for (const [field, value] of Object.entries(v1Fields)) {
    if (field.startsWith('custom.') || V1_AUTH_PARAMS.test(field) || field === 'video_key' || allowed.has(field)) continue;
    switch (field) {
      case 'title': metadata.title = v1Text(value, field) ?? ''; break;
      case 'description': metadata.description = v1Text(value, field); break;
      case 'author': metadata.author = v1Text(value, field); break;
      case 'link': metadata.permalink = v1Text(value, field); break;
      case 'tags': metadata.tags = v1Tags(value); break;
      case 'date': metadata.publish_start_date = v1DateToIso(value, field); break;
      case 'expires_date': metadata.publish_end_date = v1DateToIso(value, field); break;
      default: {
        const why = UPDATABLE_READ_ONLY[field];
        throw new InvalidArgumentError(field, why ? `${field} cannot be mapped here: ${why}` : `${field} is not a v1 video field.`);
      }
    }
  }
  const changes = v1CustomChanges(v1Fields);
  if (changes) {
    if (!currentCustomParams) {
      throw new InvalidArgumentError('currentCustomParams',
        'custom.<name> fields need the media\'s current custom_params: v2 replaces the whole object.');
    }
    metadata.custom_params = mergeCustomParams(currentCustomParams, changes);
  }
  return metadata;
}

/**
 * v1 `/videos/update` parameters → a v2 PATCH body. `currentCustomParams` (the media's stored object) is required as
 * soon as any `custom.*` field is present, because v2 replaces `custom_params` as a whole.
 */
export function mapV1MediaFields(v1Fields: Record<string, unknown>, currentCustomParams?: CustomParams): MediaUpdateBody {
  return { metadata: metadataFromV1(v1Fields, currentCustomParams, new Set()) };
}

/** v1 `/videos/create` parameters → a v2 POST body (source fields go into `upload`). */
export function mapV1MediaCreateFields(v1Fields: Record<string, unknown>): MediaCreateBody {
  const uploadFields = new Set(['sourcetype', 'sourceurl', 'sourceformat', 'download_url']);
  const metadata = metadataFromV1(v1Fields, {}, uploadFields);
  const sourceType = v1Text(v1Fields.sourcetype, 'sourcetype');
  const sourceFormat = v1Text(v1Fields.sourceformat, 'sourceformat');
  const mimeType = sourceFormat ? v1SourceFormatToMime(sourceFormat) : null;
  const body: MediaCreateBody = { metadata };
  if (sourceType === 'url') {
    const sourceUrl = v1Text(v1Fields.sourceurl, 'sourceurl');
    if (!sourceUrl) throw new InvalidArgumentError('sourceurl', 'sourcetype=url needs a sourceurl.');
    body.upload = { method: 'external', source_url: sourceUrl, mime_type: mimeType };
  } else if (sourceType === null || sourceType === 'file') {
    const downloadUrl = v1Text(v1Fields.download_url, 'download_url');
    // v1's download_url was where the platform fetched the file from: v2's fetch upload takes it as source_url.
    body.upload = downloadUrl ? { method: 'fetch', source_url: downloadUrl, mime_type: mimeType } : { method: 'direct', mime_type: mimeType };
  } else {
    throw new InvalidArgumentError('sourcetype', "sourcetype must be 'file' or 'url'.");
  }
  return body;
}

/** v1 conversion → v2 rendition fields: `link` → `delivery_url`, string `filesize` → integer. */
export function mapV1Conversion(v1: { key?: string; link?: string; filesize?: string | number; width?: number | string | null; height?: number | string | null }): Partial<MediaRendition> {
  const rendition: Partial<MediaRendition> = {};
  if (v1.key !== undefined) rendition.id = v1.key;
  if (v1.link !== undefined) rendition.delivery_url = v1.link;
  if (v1.filesize !== undefined) {
    const text = String(v1.filesize).trim();
    if (!/^\d{1,15}$/.test(text)) throw new InvalidArgumentError('filesize', 'filesize must be a whole number of bytes.');
    rendition.filesize = Number(text);
  }
  for (const side of ['width', 'height'] as const) {
    const value = v1[side];
    if (value === undefined) continue;
    rendition[side] = value === null || value === '' ? null : Number(value);
  }
  return rendition;
}

/** A v1 track `link` object (`{protocol, address, path}`) → the v2 single `delivery_url`. */
export function mapV1TrackLink(link: { protocol: string; address: string; path: string }): string {
  const protocol = link.protocol.replace(/:$/, '');
  const path = link.path.startsWith('/') ? link.path : `/${link.path}`;
  return new URL(`${protocol}://${link.address}${path}`).href;
}

// --------------------------------------------------------------------------------------------------------- players

const PLAYER_TOP_LEVEL = new Set(['name', 'release_channel']);

/**
 * v1 player options given at top level → `metadata.setup_config`, except `name` and `release_channel` (spec,
 * Versioning 7). v1 sent every option as text: "true"/"false" become booleans; other values pass unvalidated, as v2
 * does not validate them either. `custom.*` fields need the current `custom_params` like media do.
 */
export function mapV1PlayerOptions(v1: Record<string, unknown>, currentCustomParams?: CustomParams): Partial<PlayerMetadata> {
  const metadata: Partial<PlayerMetadata> = {};
  const setupConfig: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(v1)) {
    if (field.startsWith('custom.') || V1_AUTH_PARAMS.test(field) || field === 'player_key' || field === 'key') continue;
    if (PLAYER_TOP_LEVEL.has(field)) {
      const text = v1Text(value, field);
      if (text === null) throw new InvalidArgumentError(field, `${field} must not be empty.`);
      // A v1 channel name the platform does not list is passed on as given: the platform refuses it, in its words.
      if (field === 'name') metadata.name = text;
      else metadata.release_channel = text as PlayerMetadata['release_channel'];
    } else {
      setupConfig[field] = value === 'true' ? true : value === 'false' ? false : value;
    }
  }
  if (Object.keys(setupConfig).length > 0) metadata.setup_config = setupConfig;
  const changes = v1CustomChanges(v1);
  if (changes) {
    if (!currentCustomParams) {
      throw new InvalidArgumentError('currentCustomParams', 'custom.<name> fields need the player\'s current custom_params.');
    }
    metadata.custom_params = mergeCustomParams(currentCustomParams, changes);
  }
  return metadata;
}

// ----------------------------------------------------------------------------------------------------------- errors

export interface V1ErrorBody {
  status: 'error';
  /** CamelCase, e.g. `ServerError`, `NotFound`. */
  code: string;
  message: string;
  title?: string;
}

function snakeToCamel(code: string): string {
  return code.split(/[_\s]+/).filter(Boolean).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** v1 `{code, message}` → v2 `{errors: [{code, description}]}` (`ServerError` → `server_error`). */
export function mapV1Error(v1: { code: string; message?: string | null; title?: string | null }): V2ErrorBody {
  const code = typeof v1.code === 'string' && v1.code ? camelToSnake(v1.code) : 'server_error';
  const description = v1.message || v1.title || 'The request failed.';
  return { errors: [{ code, description }] };
}

/** v2 `errors[]` → the single v1 error object: the first error's code; all descriptions joined. */
export function mapV2ErrorToV1(errors: V2ErrorItem[] | V2ErrorBody): V1ErrorBody {
  const items = Array.isArray(errors) ? errors : errors.errors;
  const first = items[0] ?? { code: 'server_error', description: 'The request failed.' };
  const title = snakeToCamel(first.code).replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  return {
    status: 'error',
    code: snakeToCamel(first.code),
    title,
    message: items.map((item) => item.description).join('; ') || first.description,
  };
}

// ---------------------------------------------------------------------------------------------- v2 → v1 resources

export interface V1Video {
  key: string;
  title: string;
  description: string | null;
  author: string | null;
  link: string | null;
  /** Comma-separated. */
  tags: string;
  /** Unix seconds. */
  date: number | null;
  expires_date: number | null;
  /** Seconds as text with two decimals, as v1 sent it. */
  duration: string;
  status: string;
  error: string | null;
  mediatype: string;
  sourceformat: string | null;
  sourcetype: 'file' | 'url';
  sourceurl: string | null;
  custom: Record<string, string>;
}

export function toV1Video(media: Media): V1Video {
  const { metadata } = media;
  return {
    key: media.id,
    title: metadata.title,
    description: metadata.description,
    author: metadata.author,
    link: metadata.permalink,
    tags: metadata.tags.join(', '),
    date: isoToV1Date(metadata.publish_start_date),
    expires_date: isoToV1Date(metadata.publish_end_date),
    duration: (media.duration ?? 0).toFixed(2),
    status: media.status,
    error: media.error_message,
    mediatype: media.media_type,
    sourceformat: mimeToV1SourceFormat(media.mime_type),
    sourcetype: media.hosting_type === 'external' ? 'url' : 'file',
    // The platform's media answer does not say where an external media's source is.
    sourceurl: null,
    custom: { ...metadata.custom_params },
  };
}

export interface V1Channel {
  key: string;
  title: string;
  description: string | null;
  author: string | null;
  link: string | null;
  /** The v2 playlist type (v1 knew `manual` and `dynamic`). */
  type: string;
  custom: Record<string, string>;
}

/** A v2 playlist (the untyped answer, which names its type) as a v1 channel. */
export function toV1Channel(playlist: Playlist): V1Channel {
  // The answer may write the type either way (`manual` or `manual_playlist`); v1 knew the short name.
  const type = readPlaylistType(playlist.playlist_type) ?? String(playlist.playlist_type);
  return {
    key: playlist.id,
    title: playlist.metadata.title,
    description: playlist.metadata.description,
    author: playlist.metadata.author,
    link: playlist.metadata.link,
    type,
    custom: { ...playlist.metadata.custom_params },
  };
}

export type V1Player = { key: string; name: string; release_channel: string; custom: Record<string, string> } & Record<string, unknown>;

/** `setup_config` options back at top level, as v1 had them (an option named like a v1 field cannot shadow it). */
export function toV1Player(player: Player): V1Player {
  const reserved = new Set(['key', 'name', 'release_channel', 'custom']);
  const options = Object.fromEntries(Object.entries(player.metadata.setup_config).filter(([key]) => !reserved.has(key)));
  return {
    ...options,
    key: player.id,
    name: player.metadata.name,
    release_channel: player.metadata.release_channel,
    custom: { ...player.metadata.custom_params },
  };
}

export interface V1Conversion {
  key: string;
  status: string;
  link: string | null;
  /** Bytes as text, as v1 sent it. */
  filesize: string;
  width: number | null;
  height: number | null;
  mediatype: string;
}

export function toV1Conversion(conversion: MediaRendition | Original): V1Conversion {
  if (conversion.type === 'original') {
    return {
      key: conversion.id, status: conversion.status, link: null, filesize: conversion.size,
      width: null, height: null, mediatype: 'original',
    };
  }
  return {
    key: conversion.id, status: conversion.status, link: conversion.delivery_url, filesize: String(conversion.filesize),
    width: conversion.width, height: conversion.height,
    // v1's mediatype, from what the rendition is: a picture or not.
    mediatype: conversion.width === null && conversion.height === null && !/^m3u8$/i.test(conversion.format) ? 'audio' : 'video',
  };
}

export interface V1Track {
  key: string;
  label: string;
  kind: string;
  language: string;
  default: boolean;
  status: string;
  link: { protocol: string; address: string; path: string };
}

/** A v1 track; the default is the first captions or subtitles track of the platform's menu (projections.ts). */
export function toV1Track(track: TextTrack, isDefault = false): V1Track {
  let url: URL | null = null;
  try {
    url = track.delivery_url ? new URL(track.delivery_url) : null;
  } catch {
    url = null;
  }
  return {
    key: track.id,
    label: track.metadata.label,
    kind: track.track_kind,
    language: track.metadata.srclang,
    default: isDefault,
    // The platform's track has no state of its own: one with a file is ready.
    status: url ? 'ready' : 'processing',
    link: url ? { protocol: url.protocol.replace(/:$/, ''), address: url.host, path: `${url.pathname}${url.search}` }
      : { protocol: '', address: '', path: '' },
  };
}
