// thumbnails/: a frame of a media or an uploaded image; PATCH with is_poster makes it the media's poster.
import type { Media, Thumbnail } from '../../../worker/contract/v2-types.ts';
import { field, isObject, onlyKnown, requireSection } from '../body.ts';
import { type RouteContext, nowIso, param, site } from '../context.ts';
import { makeThumbnail } from '../conversions.ts';
import { HttpError, invalid, json, notFound } from '../http.ts';
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

export function createThumbnail(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const entry = singleMediaEntry(requireSection(ctx.body, 'relationships'));
  onlyKnown(entry, 'relationships.media[0]', ['id']);
  const mediaId = field.string(entry.id, 'relationships.media[0].id', { nonEmpty: true }) as string;
  const media = ctx.store.get<Media>('media', siteId, mediaId);
  if (!media) throw notFound(`Media '${mediaId}' in site '${siteId}'`);
  const upload = requireSection(ctx.body, 'upload');
  const sourceType = field.oneOf(upload.source_type, 'upload.source_type', ['static_frame', 'custom_upload'] as const);
  if (upload.thumbnail_type !== undefined) field.oneOf(upload.thumbnail_type, 'upload.thumbnail_type', ['static'] as const);
  if (sourceType === 'static_frame') {
    onlyKnown(upload, 'upload', ['source_type', 'thumbnail_type', 'time']);
    if (media.status !== 'ready' || media.duration === null) {
      throw new HttpError(409, 'media_not_ready', `Media '${media.id}' is ${media.status}; a frame can be taken from ready media only.`);
    }
    if (upload.time !== undefined) {
      if (typeof upload.time !== 'number' || upload.time < 0 || upload.time > media.duration) {
        throw invalid('invalid_parameter', `upload.time must be a number of seconds from 0 to ${media.duration}.`);
      }
    }
  } else {
    onlyKnown(upload, 'upload', ['source_type', 'thumbnail_type', 'method', 'source_url']);
    field.oneOf(upload.method, 'upload.method', ['fetch'] as const);
    field.url(upload.source_url, 'upload.source_url');
  }
  const thumbnail = makeThumbnail(freshId(), media.id, nowIso(ctx), sourceType, false);
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

export function updateThumbnail(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const thumbnail = loadThumbnail(ctx, siteId);
  if (ctx.body.metadata || ctx.body.upload) throw invalid('invalid_body', "Updating a thumbnail takes 'relationships' only.");
  const entry = singleMediaEntry(requireSection(ctx.body, 'relationships'));
  onlyKnown(entry, 'relationships.media[0]', ['is_poster']);
  const isPoster = field.boolean(entry.is_poster, 'relationships.media[0].is_poster');
  const mediaId = thumbnail.relationships.media[0]?.id ?? '';
  const media = ctx.store.get<Media>('media', siteId, mediaId);
  if (!media) throw notFound(`Media '${mediaId}' of thumbnail '${thumbnail.id}'`);
  const at = nowIso(ctx);
  if (isPoster) {
    // One poster per media: the previous one stops being it.
    for (const other of ctx.store.list<Thumbnail>('thumbnail', siteId, media.id)) {
      if (other.id !== thumbnail.id && other.relationships.media[0]?.is_poster) {
        other.relationships.media = [{ id: media.id, is_poster: false }];
        ctx.store.put('thumbnail', siteId, media.id, other);
      }
    }
    media.relationships.poster = { id: thumbnail.id, delivery_url: thumbnail.delivery_url };
  } else if (media.relationships.poster?.id === thumbnail.id) {
    media.relationships.poster = null;
  }
  media.last_modified = at;
  ctx.store.put('media', siteId, null, media);
  thumbnail.relationships.media = [{ id: media.id, is_poster: isPoster }];
  thumbnail.last_modified = at;
  ctx.store.put('thumbnail', siteId, media.id, thumbnail);
  return json(withOrigin(thumbnail, ctx.origin));
}
