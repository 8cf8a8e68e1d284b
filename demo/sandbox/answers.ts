// The platform's answers, made from the sandbox's records (records.ts): exactly the members its published definition
// documents for each resource (test/platform/schemas.json checks every answer the suites receive), with null where a
// member is unset. Delivery URLs get the caller's origin (present.ts).
import type {
  Media as MediaAnswer, MediaRendition as RenditionAnswer, Original as OriginalAnswer, Playlist as PlaylistAnswer,
  TextTrack as TextTrackAnswer, TypedPlaylist as TypedPlaylistAnswer,
} from '../../worker/contract/v2-types.ts';
import { IAB_CATEGORIES, SOURCE_MIME_TYPES } from './media-vocabulary.ts';
import { withOrigin } from './present.ts';
import type { Media, MediaRendition, Original, Playlist, TextTrack } from './records.ts';

export const SCHEMAS = {
  media: 'https://schema.jwplayer.com/types/media.json',
  media_rendition: 'https://schema.jwplayer.com/types/media_rendition.json',
  original: 'https://schema.jwplayer.com/types/original.json',
  text_track: 'https://schema.jwplayer.com/types/text_track.json',
} as const;

const ISO_639_1 = /^[a-z]{2}$/;

/** The members every answer starts with: the resource's schema, its id, type and times, and no relationships. */
function base<T extends string>(record: { id: string; type: T; created: string; last_modified: string }, schema: string) {
  return { schema, id: record.id, type: record.type, created: record.created, last_modified: record.last_modified, relationships: {} };
}

export function mediaAnswer(media: Media): MediaAnswer {
  const m = media.metadata;
  return {
    ...base(media, SCHEMAS.media),
    status: media.status,
    error_message: media.error_message,
    duration: media.duration,
    // The platform knows audio and video only; a source of neither kind is taken for video until it fails.
    media_type: media.media_type === 'audio' ? 'audio' : 'video',
    mime_type: media.mime_type !== null && (SOURCE_MIME_TYPES as readonly string[]).includes(media.mime_type) ? media.mime_type : null,
    hosting_type: media.hosting_type,
    external_id: m.external_id,
    trim_in_point: media.upload?.trim_in_point ?? null,
    trim_out_point: media.upload?.trim_out_point ?? null,
    metadata: {
      title: m.title,
      description: m.description,
      author: m.author,
      permalink: m.permalink,
      category: m.category !== null && (IAB_CATEGORIES as readonly string[]).includes(m.category) ? m.category : null,
      language: m.language !== null && ISO_639_1.test(m.language) ? m.language : null,
      tags: [...m.tags],
      publish_start_date: m.publish_start_date,
      publish_end_date: m.publish_end_date,
      custom_params: { ...m.custom_params },
      // The sandbox protects nothing with DRM.
      drm: false,
      duration: media.duration,
    },
  };
}

const HLS_MIME = 'application/vnd.apple.mpegurl';

/** The file extension the platform writes as a rendition's `format`. */
export function renditionFormat(mimeType: string): string {
  if (mimeType === HLS_MIME) return 'm3u8';
  if (mimeType.startsWith('audio/')) return 'm4a';
  if (mimeType === 'video/webm') return 'webm';
  return 'mp4';
}

export function renditionAnswer(rendition: MediaRendition, origin: string): RenditionAnswer {
  return withOrigin({
    ...base(rendition, SCHEMAS.media_rendition),
    status: rendition.status,
    error_message: rendition.status === 'failed' ? 'The rendition could not be made from the source.' : null,
    delivery_url: rendition.delivery_url,
    format: renditionFormat(rendition.mime_type),
    filesize: rendition.filesize,
    width: rendition.width,
    height: rendition.height,
    metadata: {},
  }, origin);
}

/** Container format by the source's MIME type, as the platform's media analysis names it. */
function containerFormat(mimeType: string): string {
  if (mimeType === 'audio/mpeg') return 'mp3';
  if (mimeType.startsWith('audio/')) return 'mp4';
  return mimeType.split('/')[1] ?? 'mp4';
}

export function originalAnswer(original: Original): OriginalAnswer {
  return {
    ...base(original, SCHEMAS.original),
    status: original.status,
    error_message: original.status === 'failed' ? 'The source could not be read.' : null,
    size: String(original.filesize),
    container_format: containerFormat(original.mime_type),
    md5: null,
    original_type: 'primary',
    metadata: { name: original.metadata.name, type: 'other', language: null, language_code: null },
  };
}

export function textTrackAnswer(track: TextTrack, origin: string): TextTrackAnswer {
  return withOrigin({
    ...base(track, SCHEMAS.text_track),
    status: track.status,
    error_message: track.error_message,
    track_kind: track.track_kind,
    // The definition: "only returned when the text track status is ready or draft" (a draft has its file, unpublished).
    delivery_url: track.status === 'ready' || track.status === 'draft' ? track.delivery_url : null,
    metadata: { label: track.metadata.label, srclang: track.metadata.srclang, position: track.metadata.position },
  }, origin);
}

const PLAYLIST_SCHEMA = 'https://schema.jwplayer.com/types/playlist.json';

/** GET playlists/<id>/ and list items: the playlist's own fields, its type and its default flag, no rules. */
export function untypedPlaylistAnswer(playlist: Playlist): PlaylistAnswer {
  const { title, description, author, link, custom_params } = playlist.metadata;
  return {
    ...base(playlist, PLAYLIST_SCHEMA),
    metadata: { title, description, author, link, custom_params: { ...custom_params } },
    playlist_type: playlist.playlist_type,
    default: playlist.default,
  };
}

/** The typed answers (create, show, update): the fields and the rules, all under `metadata`, and no type. */
export function typedPlaylistAnswer(playlist: Playlist): TypedPlaylistAnswer {
  return {
    ...base(playlist, PLAYLIST_SCHEMA),
    metadata: structuredClone(playlist.metadata) as TypedPlaylistAnswer['metadata'],
  };
}
