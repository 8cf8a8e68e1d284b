// thumbnails/: a frame of a media (`thumbstrip_image`) or an image fetched from a URL (`custom_upload`); PATCH with
// `is_poster` makes one the media's poster. Answers are the definition's shape: no poster flag, no size.
import type { Thumbnail } from '../../../worker/contract/v2-types.ts';
import type { Media } from '../records.ts';
import { field, isObject, onlyKnown, requireSection } from '../body.ts';
import { type RouteContext, nowIso, param, site } from '../context.ts';
import { makeThumbnail } from '../conversions.ts';
import { HttpError, invalid, json, notFound } from '../http.ts';
import { choosePoster, isPoster, thumbnailMediaId } from '../poster-choice.ts';
import { freshId } from '../prng.ts';
import { withOrigin } from '../present.ts';

/** `relationships.media` must hold exactly one entry: a thumbnail belongs to one media. */
function singleMediaEntry(relationships: Record<string, unknown>): Record<string, unknown> {
  onlyKnown(relationships, 'relationships', ['media']);
  const list = relationships.media;
  if (!Array.isArray(list) || list.length !== 1 || !isObject(list[0])) {
    throw invalid('invalid_parameter', 'relationships.media must be an array of exactly one object.');
  }
  return list[0];
}

function loadMedia(ctx: RouteContext, siteId: string, mediaId: string): Media {
  const media = ctx.store.get<Media>('media', siteId, mediaId);
  if (!media) throw notFound(`Media '${mediaId}' in site '${siteId}'`);
  return media;
}

/** A frame of a ready media, at `video_position` seconds or the `thumbstrip_index`-th strip image (not both). */
function checkFrame(ctx: RouteContext, siteId: string, media: Media, upload: Record<string, unknown>): void {
  onlyKnown(upload, 'upload', ['source_type', 'thumbnail_type', 'source_media_id', 'video_position', 'thumbstrip_index']);
  const source = field.string(upload.source_media_id, 'upload.source_media_id', { nonEmpty: true }) as string;
  if (source !== media.id) loadMedia(ctx, siteId, source);
  if (media.status !== 'ready' || media.duration === null) {
    throw new HttpError(409, 'media_not_ready', `Media '${media.id}' is ${media.status}; a frame can be taken from ready media only.`);
  }
  if (upload.video_position !== undefined && upload.thumbstrip_index !== undefined) {
    throw invalid('invalid_parameter', 'Give upload.video_position or upload.thumbstrip_index, not both.');
  }
  const position = upload.video_position;
  if (position !== undefined && (typeof position !== 'number' || position < 0 || position > media.duration)) {
    throw invalid('invalid_parameter', `upload.video_position must be a number of seconds from 0 to ${media.duration}.`);
  }
  const index = upload.thumbstrip_index;
  if (index !== undefined && (typeof index !== 'number' || !Number.isInteger(index) || index < 1)) {
    throw invalid('invalid_parameter', 'upload.thumbstrip_index must be a whole number from 1.');
  }
}

export function createThumbnail(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const entry = singleMediaEntry(requireSection(ctx.body, 'relationships'));
  onlyKnown(entry, 'relationships.media[0]', ['id']);
  const media = loadMedia(ctx, siteId, field.string(entry.id, 'relationships.media[0].id', { nonEmpty: true }) as string);
  const upload = requireSection(ctx.body, 'upload');
  const sourceType = upload.source_type === undefined ? 'custom_upload'
    : field.oneOf(upload.source_type, 'upload.source_type', ['thumbstrip_image', 'custom_upload'] as const);
  if (upload.thumbnail_type !== undefined) {
    // Video thumbnails (short clips) are the platform's; the sandbox makes still images only.
    field.oneOf(upload.thumbnail_type, 'upload.thumbnail_type', ['static'] as const);
  }
  if (sourceType === 'thumbstrip_image') {
    checkFrame(ctx, siteId, media, upload);
  } else {
    onlyKnown(upload, 'upload', ['source_type', 'thumbnail_type', 'method', 'download_url']);
    // `direct` and `multipart` uploads of a thumbnail answer where to send the file; the sandbox fetches only.
    field.oneOf(upload.method, 'upload.method', ['fetch'] as const);
    field.url(upload.download_url, 'upload.download_url');
  }
  const thumbnail = makeThumbnail(freshId(), media.id, nowIso(ctx), sourceType);
  ctx.store.put('thumbnail', siteId, media.id, thumbnail);
  return json(withOrigin(thumbnail, ctx.origin), 201);
}

function loadThumbnail(ctx: RouteContext, siteId: string): Thumbnail {
  const id = param(ctx, 'thumbnail');
  const thumbnail = ctx.store.get<Thumbnail>('thumbnail', siteId, id);
  if (!thumbnail) throw notFound(`Thumbnail '${id}' in site '${siteId}'`);
  return thumbnail;
}

export function showThumbnail(ctx: RouteContext): Response {
  return json(withOrigin(loadThumbnail(ctx, site(ctx)), ctx.origin));
}

/** PATCH `relationships.media[0].is_poster`: true makes it the poster; false, when it is, goes back to the default. */
export function updateThumbnail(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const thumbnail = loadThumbnail(ctx, siteId);
  if (ctx.body.metadata || ctx.body.upload) throw invalid('invalid_body', "Updating a thumbnail takes 'relationships' only.");
  const entry = singleMediaEntry(requireSection(ctx.body, 'relationships'));
  onlyKnown(entry, 'relationships.media[0]', ['is_poster']);
  const poster = field.boolean(entry.is_poster, 'relationships.media[0].is_poster');
  const media = loadMedia(ctx, siteId, thumbnailMediaId(thumbnail));
  if (poster && thumbnail.status !== 'ready') {
    throw new HttpError(409, 'thumbnail_not_ready', `Thumbnail '${thumbnail.id}' is ${thumbnail.status}; only a ready thumbnail can be the poster.`);
  }
  if (poster) choosePoster(ctx.store, siteId, media.id, thumbnail.id);
  else if (isPoster(ctx.store, siteId, thumbnail)) choosePoster(ctx.store, siteId, media.id, null);
  const at = nowIso(ctx);
  media.last_modified = at;
  ctx.store.put('media', siteId, null, media);
  thumbnail.last_modified = at;
  ctx.store.put('thumbnail', siteId, media.id, thumbnail);
  return json(withOrigin(thumbnail, ctx.origin));
}
