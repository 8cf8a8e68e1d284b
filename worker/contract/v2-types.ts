/**
 * Types of the platform's Management API v2 (see ../shared/spec/upstream-apis.md).
 *
 * The spec names resources and a handful of fields and leaves the rest of the bodies "not shown". Where it is silent
 * these types fix one concrete shape, modelled on the platform family this API belongs to; the sandbox upstream
 * (`demo/sandbox/`) answers exactly these shapes and the worker reads nothing else. Every shape keeps an index
 * signature-free, explicit form so a missing field is a compile error, not a silent `undefined`.
 */

/** ISO 8601 timestamp, UTC, e.g. `2026-05-01T12:00:00Z`. */
export type Timestamp = string;

/** v2 error body: one or more errors, each with a machine code and a human description. */
export interface V2ErrorItem {
  code: string;
  description: string;
}
export interface V2ErrorBody {
  errors: V2ErrorItem[];
}

/** Fields every resource carries. */
export interface ResourceBase<T extends string> {
  id: string;
  type: T;
  created: Timestamp;
  last_modified: Timestamp;
}

/** `custom_params`: flat string map. On update the object sent replaces the stored one (omitted keys are deleted). */
export type CustomParams = Record<string, string>;

// ---------------------------------------------------------------------------------------------------------------- media

export type MediaStatus = 'created' | 'processing' | 'ready' | 'updating' | 'failed';
export type MediaType = 'video' | 'audio' | 'unknown';
export type HostingType = 'hosted' | 'external';

export interface MediaMetadata {
  title: string;
  description: string | null;
  author: string | null;
  /** v1 name `link`. */
  permalink: string | null;
  category: string | null;
  language: string | null;
  tags: string[];
  /** v1 name `date`. Media is public from this instant on; null means "not scheduled" (not public). */
  publish_start_date: Timestamp | null;
  /** v1 name `expires_date`. Null means no end. */
  publish_end_date: Timestamp | null;
  custom_params: CustomParams;
  external_id: string | null;
}

export interface MediaUpload {
  method: 'direct' | 'fetch' | 'external' | 'multipart';
  mime_type: string | null;
  source_url: string | null;
  download_url: string | null;
  trim_in_point: string | null;
  trim_out_point: string | null;
}

export interface Media extends ResourceBase<'media'> {
  status: MediaStatus;
  /** v1 name `error`. */
  error_message: string | null;
  /** Seconds; null until processed. */
  duration: number | null;
  /** v1 name `mediatype`. */
  media_type: MediaType;
  /** v1 name `sourceformat`. */
  mime_type: string | null;
  /** v1 name `sourcetype`. */
  hosting_type: HostingType;
  metadata: MediaMetadata;
  upload: MediaUpload | null;
  relationships: {
    /** The thumbnail chosen as poster, with its URL so a feed needs no extra call per item. */
    poster: { id: string; delivery_url: string } | null;
  };
}

export interface MediaCreateBody {
  metadata?: Partial<MediaMetadata>;
  upload?: Partial<MediaUpload>;
}

/**
 * What POST media/ (and PUT media/<id>/reupload/) answer: the media, plus what the caller needs to send the file.
 * `direct`: `upload_link`, a pre-signed URL to PUT the whole file to (no credential; the answer's `ETag` is the quoted
 * MD5 of the bytes). `multipart`: `upload_id` and `upload_token`, for `GET uploads/<upload_id>/parts` and
 * `PUT uploads/<upload_id>/complete` with `Authorization: Bearer <upload_token>`. The media is `created` (or
 * `updating` on a re-upload) until the bytes are in, then `processing`, then `ready` or `failed`.
 */
export type MediaCreateResult = Media & {
  upload_link?: string;
  upload_id?: string;
  upload_token?: string;
};

/** PUT media/<id>/reupload/: a new source for an existing media (its metadata is kept). */
export interface MediaReuploadBody {
  upload: Partial<MediaUpload>;
}

/** One part of a multipart upload, as GET uploads/<upload_id>/parts lists it. */
export interface UploadPart {
  /** The part number, from 1 (the official Python client reads it as `id`). */
  id: number;
  /** The same number under the name the platform's documentation uses. */
  part_number: number;
  /** Pre-signed URL to PUT this part's bytes to (every part but the last at least 5 MiB). */
  upload_link: string;
  /** MD5 hex of the bytes received for this part (unquoted), or null while none were. */
  etag: string | null;
}
export type UploadPartList = PageInfo & { parts: UploadPart[] };

/** Every part but the last of a multipart upload must hold at least this many bytes. */
export const MIN_UPLOAD_PART_BYTES = 5 * 1024 * 1024;
/** At most this many parts in one multipart upload. */
export const MAX_UPLOAD_PARTS = 10_000;
export interface MediaUpdateBody {
  metadata?: Partial<MediaMetadata>;
}

// ----------------------------------------------------------------------------------------------- renditions, originals

export interface MediaRendition extends ResourceBase<'media_rendition'> {
  media_id: string;
  status: 'processing' | 'ready' | 'failed';
  /** v1 name `link`. */
  delivery_url: string;
  /** Bytes; an integer (v1 sent a string). */
  filesize: number;
  width: number | null;
  height: number | null;
  /** e.g. `video/mp4`, `audio/mp4`, `application/vnd.apple.mpegurl`. */
  mime_type: string;
  media_type: MediaType;
  metadata: { name: string };
}
export interface MediaRenditionCreateBody {
  metadata: { name?: string; width?: number; height?: number; mime_type?: string };
}

export interface Original extends ResourceBase<'original'> {
  media_id: string;
  status: 'processing' | 'ready' | 'failed';
  /** Seconds. Only originals carry a duration among conversions. */
  duration: number;
  filesize: number;
  mime_type: string;
  metadata: { name: string };
}

// --------------------------------------------------------------------------------------------------------- text tracks

export type TextTrackKind = 'captions' | 'subtitles' | 'chapters' | 'descriptions' | 'metadata';
export interface TextTrack extends ResourceBase<'text_track'> {
  media_id: string;
  status: 'processing' | 'ready' | 'failed';
  /** Why processing failed, else null. */
  error_message: string | null;
  /** The kind, at the top level where the official clients read it (the same as `metadata.kind`). */
  track_kind: TextTrackKind;
  /** One URL (v1 had a `link` object). Serves WebVTT. */
  delivery_url: string;
  /** `position`: the track's place in the player's menu (from 0). */
  metadata: { label: string; srclang: string; kind: TextTrackKind; default: boolean; position: number };
}
export interface TextTrackCreateBody {
  /** `track_kind` is the platform's name for the kind on create; `kind` is accepted too. */
  metadata: Partial<TextTrack['metadata']> & { track_kind?: TextTrackKind };
  upload?: {
    method: 'fetch' | 'direct';
    source_url?: string;
    download_url?: string;
    mime_type?: string;
    file_format?: 'vtt' | 'srt' | 'dfxp';
    auto_publish?: boolean;
  };
}
/** POST text_tracks/ with `upload.method: 'direct'` also answers where to PUT the file. */
export type TextTrackCreateResult = TextTrack & { upload_link?: string };

// ---------------------------------------------------------------------------------------------------------- thumbnails

export interface Thumbnail extends ResourceBase<'thumbnail'> {
  status: 'processing' | 'ready' | 'failed';
  delivery_url: string;
  source_type: 'static_frame' | 'custom_upload';
  thumbnail_type: 'static';
  width: number;
  height: number;
  relationships: { media: Array<{ id: string; is_poster: boolean }> };
}
/** POST thumbnails/: a frame of a media, or an uploaded image. */
export interface ThumbnailCreateBody {
  relationships: { media: Array<{ id: string }> };
  upload: { source_type: 'static_frame'; thumbnail_type?: 'static'; time?: number } | {
    source_type: 'custom_upload'; thumbnail_type?: 'static'; method: 'fetch'; source_url: string;
  };
}
/** PATCH thumbnails/<id>: `is_poster: true` makes it the media's poster. */
export interface ThumbnailUpdateBody {
  relationships: { media: Array<{ is_poster: boolean }> };
}

// ----------------------------------------------------------------------------------------------------------- playlists

/**
 * Playlist types by their short names, as answers write them in `playlist_type` and as reelgate's public API names
 * them. Paths spell them with a `_playlist` suffix (`playlists/manual_playlist/`): see `playlistTypeSegment()` in
 * path-segments.ts, the one place a type becomes a path segment or is read back. `watchlist` is the platform's
 * per-viewer list: its contents are each viewer's own, so a feed of it has no items.
 */
export const PLAYLIST_TYPES = ['article_matching', 'dynamic', 'manual', 'recommendations', 'search', 'trending', 'watchlist'] as const;
export type PlaylistType = (typeof PLAYLIST_TYPES)[number];

/** The playlist's own fields: the spec's top-level fields. */
export interface PlaylistMetadata {
  title: string;
  description: string | null;
  author: string | null;
  link: string | null;
  custom_params: CustomParams;
}

/**
 * Per-type subresources: what media a playlist holds. Every type has `max_items` (at most how many media it yields).
 * `q` values use the list routes' query syntax (see `ListParams.q`).
 */
export interface PlaylistSubresources {
  /** An editor's ordered list. */
  manual: { media_ids: string[]; max_items: number };
  /** Media carrying the tags (all of them, or any), newest first by default. */
  dynamic: { tags: string[]; tags_mode: 'all' | 'any'; sort: string; max_items: number };
  /** Media answering a saved query. */
  search: { q: string; sort: string; max_items: number };
  /** The platform's ranking over a window, materialised by the platform into an ordered list. */
  trending: { window: '24h' | '7d' | '30d'; media_ids: string[]; max_items: number };
  /** Media related to a seed media by shared tags; the feed caller may pass another seed. */
  recommendations: { related_by: 'tags'; seed_media_id: string | null; max_items: number };
  /** Media matching the tags of the article page the widget sits on (given by the caller), else these defaults. */
  article_matching: { match_field: 'tags'; default_tags: string[]; max_items: number };
  /** Each viewer's own saved media: nothing a management call or a public feed can list. */
  watchlist: { max_items: number };
}

export type PlaylistSubresource<T extends PlaylistType = PlaylistType> = PlaylistSubresources[T];

/** GET playlists/<id>/ (no type in the path): the top-level fields and the type. */
export interface Playlist extends ResourceBase<'playlist'> {
  playlist_type: PlaylistType;
  metadata: PlaylistMetadata;
}
/** GET playlists/<id>/<type>/: the same plus the type's subresource under a key named by the type. */
export type TypedPlaylist<T extends PlaylistType = PlaylistType> = Playlist & {
  playlist_type: T;
} & { [K in T]: PlaylistSubresources[K] };

export interface PlaylistCreateBody<T extends PlaylistType = PlaylistType> {
  metadata: Partial<PlaylistMetadata> & { title: string } & { [K in T]?: Partial<PlaylistSubresources[K]> };
}
export interface PlaylistUpdateBody<T extends PlaylistType = PlaylistType> {
  metadata: Partial<PlaylistMetadata> & { [K in T]?: Partial<PlaylistSubresources[K]> };
}

// ------------------------------------------------------------------------------------------------------------- players

/** The release channels the platform's definition lists for a player. */
export const RELEASE_CHANNELS = ['latest', 'biannual', 'downgrade', 'preview', 'previous'] as const;
export type ReleaseChannel = (typeof RELEASE_CHANNELS)[number];

export interface PlayerMetadata {
  name: string;
  release_channel: ReleaseChannel;
  /** Any option the player supports; the API does not validate members. */
  setup_config: Record<string, unknown>;
  custom_params: CustomParams;
}
/** A link to another resource, as the platform's answers write one. */
export interface ResourceLink {
  id: string;
  type: string;
}
export interface Player extends ResourceBase<'player'> {
  /** The resource's JSON schema URL, as every answer of the platform names it. */
  schema: string;
  metadata: PlayerMetadata;
  /** The player's major version; the definition lists only `8`. */
  version: '8';
  /** Present once the player names a recommendations playlist or an ad schedule. */
  relationships: { recommendations_playlist?: ResourceLink; adschedule?: ResourceLink };
}
export interface PlayerCreateBody {
  metadata: Partial<PlayerMetadata> & { name: string };
}
export interface PlayerUpdateBody {
  metadata: Partial<PlayerMetadata>;
}

// ------------------------------------------------------------------------------------------------------------- actions

/** PUT remove_tag/: removes the tag from every media of the site. */
export interface RemoveTagBody {
  metadata: { tag: string };
}
/** PUT rename_tag/: renames the tag on every media of the site (merging where the new tag exists). */
export interface RenameTagBody {
  metadata: { tag: string; new_tag: string };
}
export interface TagActionResult {
  tag: string;
  new_tag?: string;
  media_affected: number;
}

/** PUT query_usage/: usage between two dates (inclusive), optionally per day. */
export interface QueryUsageBody {
  metadata: { start_date: string; end_date: string; group_by?: 'total' | 'day' };
}
export interface UsageFigures {
  plays: number;
  delivered_bytes: number;
  stored_bytes: number;
  api_calls: number;
}
export interface UsageResult {
  site_id: string;
  start_date: string;
  end_date: string;
  total: UsageFigures;
  /** Present when `group_by` is `day`. */
  days?: Array<{ date: string } & UsageFigures>;
}

// ---------------------------------------------------------------------------------------------------------- pagination

/**
 * List query. `q` is `field:value` terms joined by ` AND ` or ` OR ` (AND binds tighter), a value in double quotes may
 * hold spaces; fields are a resource's top-level or metadata fields (`id`, `title`, `tags`, `status`,
 * `media_type`, `publish_start_date`, custom params as `custom_params.<name>`...). `tags:x` matches a media carrying x.
 * Ranges: `publish_start_date:[2026-01-01 TO 2026-06-30]`. `sort` is `<field>:asc|desc` (`dsc`, the spelling of the
 * platform's own documentation, is the same as `desc`).
 */
export interface ListParams {
  /** `field:value` terms; a space after the colon is allowed (`external_id: abc`). */
  q?: string;
  page?: number;
  page_length?: number;
  sort?: string;
}

/** Every list answer: the items under a key named by the resource, plus paging figures. */
export interface PageInfo {
  page: number;
  page_length: number;
  total: number;
}
export type MediaList = PageInfo & { media: Media[] };
export type MediaRenditionList = PageInfo & { media_renditions: MediaRendition[] };
export type OriginalList = PageInfo & { originals: Original[] };
export type TextTrackList = PageInfo & { text_tracks: TextTrack[] };
export type PlaylistList = PageInfo & { playlists: Playlist[] };
export type PlayerList = PageInfo & { players: Player[] };

/** Default and maximum `page_length` the platform applies. */
export const DEFAULT_PAGE_LENGTH = 10;
export const MAX_PAGE_LENGTH = 1000;

// --------------------------------------------------------------------------------------------------------- rate limits

/** Rate-limit headers carried by every response (spec: Limits, rule 2). */
export const RATE_LIMIT_HEADER = 'svc-request-limit';
export const RATE_REMAINING_HEADER = 'svc-request-remaining';
