// What the platform's processing produces for a media: an original, MP4 renditions at several widths, and thumbnails
// (the first one the poster). HLS is packaged from the MP4 ladder on the delivery side (assets.ts `hlsLadder`): the
// Management API lists no rendition for it, as the platform's lists none. The seed and POST media/ both use this, so created media look like seeded ones.
// Delivery URLs are stored as paths of the delivery host's layout (delivery-paths.ts) and given the caller's origin when
// answered (see present.ts).
import type { Thumbnail } from '../../worker/contract/v2-types.ts';
import type { Media, MediaRendition, MediaType, Original } from './records.ts';
import { deliveryPath } from './delivery-paths.ts';
import { hashString } from './prng.ts';

export const VIDEO_WIDTHS = [320, 640, 1280, 1920] as const;
const HLS_MIME = 'application/vnd.apple.mpegurl';

/** Rendition label by width, as an encoding ladder names them. */
export function renditionName(width: number | null, mimeType: string): string {
  if (mimeType === HLS_MIME) return 'HLS';
  if (width === null) return 'AAC Audio';
  const height = Math.round((width * 9) / 16);
  return `${height}p`;
}

/** Bytes of a rendition: its bitrate (by width) times the media's duration. */
export function renditionFilesize(width: number | null, mimeType: string, duration: number): number {
  if (mimeType === HLS_MIME) return 1024 + ((duration / 6) | 0) * 48;
  const kbps = width === null ? 128 : Math.round(width * 2.2);
  return Math.round((kbps * 1000 * duration) / 8);
}

export function makeRendition(
  id: string, media: Media, at: string,
  spec: { width: number | null; mime_type: string; name?: string; height?: number | null },
): MediaRendition {
  const duration = media.duration ?? 0;
  const isHls = spec.mime_type === HLS_MIME;
  const height = spec.height !== undefined ? spec.height : spec.width === null ? null : Math.round((spec.width * 9) / 16);
  return {
    id, type: 'media_rendition', created: at, last_modified: at,
    media_id: media.id,
    status: 'ready',
    delivery_url: isHls ? deliveryPath.manifest(media.id) : deliveryPath.video(media.id, id, spec.mime_type.startsWith('audio/')),
    filesize: renditionFilesize(spec.width, spec.mime_type, duration),
    width: isHls ? null : spec.width,
    height: isHls ? null : height,
    mime_type: spec.mime_type,
    media_type: media.media_type,
    metadata: { name: spec.name ?? renditionName(isHls ? null : spec.width, spec.mime_type) },
  };
}

export interface Conversions {
  original: Original;
  renditions: MediaRendition[];
  thumbnails: Thumbnail[];
  /** Whether the media is delivered as HLS too (stored on the media: `Media.hls`). */
  hls: boolean;
}

/**
 * The result of processing a media that now has a duration: ids come from `nextId` so the seed stays deterministic.
 * `widths` lets the seed vary the ladder; audio media get one AAC rendition. `hls: false` is a media delivered as MP4
 * files only.
 */
export function processMedia(media: Media, at: string, nextId: () => string, widths: readonly number[] = VIDEO_WIDTHS,
  hls = true): Conversions {
  const duration = media.duration ?? 0;
  const audio = media.media_type === 'audio';
  const original: Original = {
    id: nextId(), type: 'original', created: at, last_modified: at,
    media_id: media.id, status: 'ready', duration,
    filesize: renditionFilesize(audio ? null : 3840, 'video/mp4', duration),
    mime_type: media.mime_type ?? (audio ? 'audio/mpeg' : 'video/mp4'),
    metadata: { name: 'Original' },
  };
  const renditions: MediaRendition[] = audio
    ? [makeRendition(nextId(), media, at, { width: null, mime_type: 'audio/mp4' })]
    : widths.map((width) => makeRendition(nextId(), media, at, { width, mime_type: 'video/mp4' }));
  // The id an HLS rendition was once drawn with (the platform lists none): still drawn, so every id of the seed after it,
  // those the demo page and the READMEs name among them, stays as it was.
  if (hls) nextId();
  // The platform's default thumbnail (from ten seconds in), and for video one more frame to choose from.
  const thumbnails = audio ? [makeThumbnail(nextId(), media.id, at, 'default')] : [
    makeThumbnail(nextId(), media.id, at, 'default'),
    makeThumbnail(nextId(), media.id, at, 'thumbstrip_image'),
  ];
  return { original, renditions, thumbnails, hls: hls && !audio };
}

export const THUMBNAIL_SCHEMA = 'https://schema.jwplayer.com/types/thumbnail.json';

/** A ready still thumbnail of a media, as the definition answers it (the first one of a media is its poster). */
export function makeThumbnail(id: string, mediaId: string, at: string, sourceType: Thumbnail['source_type']): Thumbnail {
  return {
    schema: THUMBNAIL_SCHEMA,
    id, type: 'thumbnail', created: at, last_modified: at,
    relationships: { media: [{ id: { id: mediaId, type: 'media' } }] },
    delivery_url: deliveryPath.thumbnail(mediaId, id),
    file_type: 'jpeg',
    status: 'ready',
    thumbnail_type: 'static',
    source_type: sourceType,
    metadata: {},
  };
}

/** A duration (seconds) derived from a string, for media created from a URL: stable across calls. */
export function durationFor(seed: string): number {
  return 30 + (hashString(seed) % 1170);
}

export function mediaTypeFor(mimeType: string | null | undefined): MediaType {
  if (!mimeType) return 'video';
  if (mimeType.startsWith('audio/')) return 'audio';
  if (mimeType.startsWith('video/') || mimeType === HLS_MIME) return 'video';
  return 'unknown';
}
