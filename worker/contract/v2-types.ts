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
  /** The resource's JSON schema URL, as every answer of the platform names it. */
  schema: string;
  id: string;
  type: T;
  created: Timestamp;
  last_modified: Timestamp;
}

/** `custom_params`: flat string map. On update the object sent replaces the stored one (omitted keys are deleted). */
export type CustomParams = Record<string, string>;

// ---------------------------------------------------------------------------------------------------------------- media

export type MediaStatus = 'created' | 'processing' | 'ready' | 'updating' | 'failed';
export type MediaType = 'video' | 'audio';
export type HostingType = 'hosted' | 'external' | 'renditions';

/**
 * A media's own fields, as the platform's definition answers them. Every member that can be unset is null while it
 * is (the definition writes none as nullable; see test/platform/extract-schemas.mjs, NULLABLE).
 */
export interface MediaMetadata {
  title: string;
  description: string | null;
  author: string | null;
  /** v1 name `link`. */
  permalink: string | null;
  /** One of the platform's IAB categories. */
  category: string | null;
  /** ISO 639-1. */
  language: string | null;
  tags: string[];
  /** v1 name `date`. Media is public from this instant on; null means "not scheduled" (not public). */
  publish_start_date: Timestamp | null;
  /** v1 name `expires_date`. Null means no end. */
  publish_end_date: Timestamp | null;
  custom_params: CustomParams;
  /** Whether the media is DRM-protected (the platform's default is true). */
  drm: boolean;
  /** Seconds, as the media's metadata states it; null until known. */
  duration: number | null;
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
  /** v1 name `sourceformat`: the source's MIME type, one of the platform's list, else null. */
  mime_type: string | null;
  /** v1 name `sourcetype`. */
  hosting_type: HostingType;
  /** The publisher's own id for it (set under `metadata` on create and update, answered here). */
  external_id: string | null;
  trim_in_point: string | null;
  trim_out_point: string | null;
  metadata: MediaMetadata;
  /** `protection_rule` only when one applies to the media. */
  relationships: { protection_rule?: { id: string; type: string } };
}

/** What create and update bodies take under `metadata`: the media's fields, and its external id. */
export type MediaMetadataInput = Partial<Omit<MediaMetadata, 'duration'>> & { external_id?: string | null };

export interface MediaCreateBody {
  metadata?: MediaMetadataInput;
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
  metadata?: MediaMetadataInput;
}

// ----------------------------------------------------------------------------------------------- renditions, originals

/**
 * A rendition as the platform's definition answers it: the file's `format` (its extension: `mp4`, `m3u8`, `m4a`…) and
 * size, never a MIME type (worker/catalog/source-types.ts reads the kind from the format and the URL). Width and
 * height are null where there is no picture (audio) or no single one (an adaptive stream).
 */
export interface MediaRendition extends ResourceBase<'media_rendition'> {
  status: 'processing' | 'ready' | 'failed';
  error_message: string | null;
  /** v1 name `link`. */
  delivery_url: string;
  format: string;
  /** Bytes; an integer (v1 sent a string). */
  filesize: number;
  width: number | null;
  height: number | null;
  metadata: Record<string, never>;
  /** The template it was made from, when it was. */
  relationships: { media_rendition_template?: { id: string; type: string } };
}
export interface MediaRenditionCreateBody {
  metadata: { name?: string; width?: number; height?: number; mime_type?: string };
}

/** The file a media was made from. `size` is a string of bytes, as the platform writes it. */
export interface Original extends ResourceBase<'original'> {
  status: 'created' | 'processing' | 'ready' | 'updating' | 'failed';
  error_message: string | null;
  size: string;
  container_format: string | null;
  md5: string | null;
  original_type: 'primary' | 'secondary';
  metadata: {
    name: string;
    type: 'audio-description' | 'commentary' | 'language' | 'music' | 'other';
    language: string | null;
    language_code: string | null;
  };
  relationships: Record<string, never>;
}

// --------------------------------------------------------------------------------------------------------- text tracks

export type TextTrackKind = 'captions' | 'subtitles' | 'chapters' | 'descriptions' | 'metadata';
/**
 * A text track as the platform's definition answers it: its kind at the top level, its label, language and menu
 * position under `metadata`, no state and no default flag (worker/catalog/projections.ts says which track is the default).
 */
/**
 * Where a text track is: `ready` tracks are published (the Delivery API serves them), `draft` ones are processed but
 * unpublished (an upload with `auto_publish: false`, or unpublished since). The definition leaves `status` out of its
 * text track schema while its `delivery_url` says "only returned when the text track status is ready or draft";
 * jwplatform-go's TextTrackResource carries it, and its fixtures send "draft" and "created".
 */
export type TextTrackStatus = 'created' | 'processing' | 'ready' | 'draft' | 'failed';

export interface TextTrack extends ResourceBase<'text_track'> {
  /** See `TextTrackStatus` (not in the definition, so an answer may lack it); a player is given `ready` tracks only. */
  status?: TextTrackStatus;
  /** Why processing failed, else null. */
  error_message: string | null;
  track_kind: TextTrackKind;
  /** One URL (v1 had a `link` object), serving WebVTT; null until the track is processed. */
  delivery_url: string | null;
  /** `position`: the track's place in the captions menu, from 0 (captions and subtitles). */
  metadata: { label: string; srclang: string; position: number };
  relationships: Record<string, never>;
}
export interface TextTrackCreateBody {
  /** `track_kind` is the platform's name for the kind on create; `kind` is accepted too. */
  metadata: Partial<TextTrack['metadata']> & { track_kind?: TextTrackKind; kind?: TextTrackKind; default?: boolean };
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

/**
 * A thumbnail as the platform's definition answers it. Its media is `relationships.media[0].id.id` (the definition
 * nests the reference one level more than other resources do); whether it is the poster is not in the answer.
 */
export interface Thumbnail extends ResourceBase<'thumbnail'> {
  schema: string;
  status: 'created' | 'processing' | 'failed' | 'ready';
  delivery_url: string;
  file_type: 'jpeg' | 'mp4';
  /** `default`: taken from the video by the platform; `thumbstrip_image`: chosen from it; `custom_upload`: uploaded. */
  source_type: 'custom_upload' | 'default' | 'generic_audio' | 'generic_video' | 'thumbstrip_image';
  thumbnail_type: 'static' | 'video';
  metadata: Record<string, never>;
  relationships: { media: Array<{ id: { id: string; type: string } }> };
}
/** POST thumbnails/: a frame of a media (`thumbstrip_image`), or an image fetched from a URL (`custom_upload`). */
export interface ThumbnailCreateBody {
  relationships: { media: Array<{ id: string }> };
  upload: {
    source_type: 'thumbstrip_image'; source_media_id: string; thumbnail_type?: 'static';
    video_position?: number; thumbstrip_index?: number;
  } | {
    source_type?: 'custom_upload'; thumbnail_type?: 'static'; method: 'fetch'; download_url: string;
  };
}
/** PATCH thumbnails/<id>: `is_poster: true` makes it the media's poster. */
export interface ThumbnailUpdateBody {
  relationships: { media: Array<{ is_poster: boolean }> };
}

// ----------------------------------------------------------------------------------------------------------- playlists

/**
 * Playlist types by their short names, as the untyped answers write them in `playlist_type` and as reelgate's public
 * API names them. Paths spell them with a `_playlist` suffix (`playlists/manual_playlist/`): see
 * `playlistTypeSegment()` in path-segments.ts, the one place a type becomes a path segment or is read back. The
 * platform has no trending type: a trending playlist is a dynamic one sorted `trending:dsc`. `watchlist` is each
 * viewer's own list: a feed of it has no items.
 */
export const PLAYLIST_TYPES = ['article_matching', 'dynamic', 'manual', 'recommendations', 'search', 'watchlist'] as const;
export type PlaylistType = (typeof PLAYLIST_TYPES)[number];

/** The fields every playlist has, under `metadata`. */
export interface PlaylistMetadata {
  title: string;
  description: string | null;
  author: string | null;
  link: string | null;
  custom_params: CustomParams;
}

export type FilterMatch = 'any' | 'all';
export interface TagFilter {
  include: { values: string[]; match: FilterMatch };
  exclude: { values: string[]; match: FilterMatch };
}
export interface CustomParamFilter {
  include: { values: CustomParams; match: FilterMatch };
  exclude: { values: CustomParams; match: FilterMatch };
}

/** How a dynamic playlist orders its media (the platform's default is `publish_start_date:dsc`). */
export const PLAYLIST_SORTS = [
  'duration:asc', 'duration:dsc', 'plays:asc', 'plays:dsc', 'publish_start_date:asc', 'publish_start_date:dsc', 'shuffle',
  'title:asc', 'title:dsc', 'trending:asc', 'trending:dsc',
] as const;
export type PlaylistSort = (typeof PLAYLIST_SORTS)[number];
/** How many media a filtered playlist holds when its `media_filter.limit` is not set. */
export const DEFAULT_PLAYLIST_LIMIT = 25;

/** What a filtered playlist (dynamic, search, recommendations, article matching) selects by. */
export interface FilterRules {
  tag_filter: TagFilter;
  custom_param_filter: CustomParamFilter;
  /** The first two places, held by these media whatever the filters say; null when a slot is free. */
  pinning: { slot1: string | null; slot2: string | null };
  /** Only media published within this span: a whole number and `D` or `YR` (`30D`, `1YR`); null for no limit. */
  recency: string | null;
}

/**
 * Each type's metadata as its typed answer (`playlists/<id>/<type>_playlist/`) carries it. A manual playlist's
 * media are its ordered ids in `media_filter.include.values`; a dynamic one also sorts; the other filtered types take
 * the rest of their selection from the caller at delivery time (a search phrase, a related media, an article's tags).
 */
export interface PlaylistRules {
  manual: { media_filter: { include: { match: 'any'; values: string[] } } };
  dynamic: FilterRules & { media_filter: { sort: PlaylistSort; limit: number } };
  search: FilterRules & { media_filter: { limit: number } };
  recommendations: FilterRules & { media_filter: { limit: number } };
  article_matching: FilterRules & { media_filter: { limit: number } };
  watchlist: Record<string, never>;
}

/** GET playlists/<id>/ and the list: the fields, the type, and whether it is the site's default recommendations. */
export interface Playlist extends ResourceBase<'playlist'> {
  playlist_type: PlaylistType;
  default: boolean;
  metadata: PlaylistMetadata;
  relationships: Record<string, never>;
}
/** GET playlists/<id>/<type>_playlist/: the fields and the type's rules, all under `metadata` (no `playlist_type`). */
export interface TypedPlaylist<T extends PlaylistType = PlaylistType> extends ResourceBase<'playlist'> {
  metadata: PlaylistMetadata & PlaylistRules[T];
  relationships: Record<string, never>;
}

/** What create and update bodies take: everything under `metadata`, rules included (partial on update). */
export type PlaylistRulesInput<T extends PlaylistType> = { [K in keyof PlaylistRules[T]]?: unknown };
export interface PlaylistCreateBody<T extends PlaylistType = PlaylistType> {
  metadata: Partial<PlaylistMetadata> & { title: string } & PlaylistRulesInput<T>;
}
export interface PlaylistUpdateBody<T extends PlaylistType = PlaylistType> {
  metadata: Partial<PlaylistMetadata> & PlaylistRulesInput<T>;
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

/** PUT remove_tag/: removes the tag from every media and playlist of the site; answers 202 with no body. */
export interface RemoveTagBody {
  tag: string;
}
/**
 * PUT rename_tag/: renames the tag on every media and playlist of the site (merging where the new tag exists);
 * answers 202 with no body. The platform limits `original_tag` to 128 characters.
 */
export interface RenameTagBody {
  original_tag: string;
  new_tag: string;
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

/**
 * Rate-limit headers carried by every response (spec: Limits, rule 2), in the spec's neutral spelling (`svc-`) and
 * under the platform's own prefix, as its authentication and rate-limit page names them (`jw-`). Read in either; the
 * platform's wins when both come.
 */
export const RATE_LIMIT_HEADER = 'svc-request-limit';
export const RATE_REMAINING_HEADER = 'svc-request-remaining';
export const PLATFORM_RATE_LIMIT_HEADER = 'jw-request-limit';
export const PLATFORM_RATE_REMAINING_HEADER = 'jw-request-remaining';
/** The platform's documented limit, per minute: what the configured rates are shares of. */
export const DOCUMENTED_RATE_LIMIT = 60;
