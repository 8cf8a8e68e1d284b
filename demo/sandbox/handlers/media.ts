// media/ routes: create (processing synchronously to `ready` when there is an upload), list, show, update with
// custom_params replacement (spec rule 3), delete with everything the media owns.
import type { Media, MediaMetadata, MediaUpload, TypedPlaylist } from '../../../worker/upstream/v2-types.ts';
import { field, isObject, onlyKnown, requireSection } from '../body.ts';
import { type RouteContext, nowIso, param, site } from '../context.ts';
import { durationFor, makeRendition, mediaTypeFor, processMedia } from '../conversions.ts';
import { MEDIA_FIELDS } from '../fields.ts';
import { invalid, json, noContent, notFound } from '../http.ts';
import { freshId } from '../prng.ts';
import { withOrigin } from '../present.ts';
import { listPage } from '../query.ts';

const METADATA_KEYS = ['title', 'description', 'author', 'permalink', 'category', 'language', 'tags', 'publish_start_date',
  'publish_end_date', 'custom_params', 'external_id'] as const;
/** v1 field names a migrating caller may still send, with their v2 names. */
const V1_HINTS: Record<string, string> = {
  date: 'publish_start_date', expires_date: 'publish_end_date', link: 'permalink', custom: 'custom_params',
  mediatype: 'media_type', sourceformat: 'mime_type', sourcetype: 'hosting_type', error: 'error_message',
};
const UPLOAD_KEYS = ['method', 'mime_type', 'source_url', 'download_url', 'trim_in_point', 'trim_out_point'] as const;

export function loadMedia(ctx: RouteContext, siteId: string): Media {
  const id = param(ctx, 'media');
  const media = ctx.store.get<Media>('media', siteId, id);
  if (!media) throw notFound(`Media '${id}' in site '${siteId}'`);
  return media;
}

/** Applies a metadata patch: each given field replaces the stored one; custom_params is replaced as a whole. */
export function applyMetadata(current: MediaMetadata, patch: Record<string, unknown>): MediaMetadata {
  onlyKnown(patch, 'metadata', METADATA_KEYS, V1_HINTS);
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    const at = `metadata.${key}`;
    switch (key) {
      case 'title': next.title = field.string(value, at, { nonEmpty: true, max: 500 }) as string; break;
      case 'description': next.description = field.string(value, at, { nullable: true, max: 5000 }); break;
      case 'author': case 'permalink': case 'category': case 'language': case 'external_id':
        next[key] = field.string(value, at, { nullable: true, max: 2000 }); break;
      case 'tags': next.tags = [...new Set(field.strings(value, at, { max: 100 }).map((tag) => tag.trim()))]; break;
      case 'publish_start_date': case 'publish_end_date': next[key] = field.timestamp(value, at); break;
      case 'custom_params': next.custom_params = field.customParams(value, at); break;
    }
  }
  if (next.publish_start_date && next.publish_end_date && next.publish_end_date <= next.publish_start_date) {
    throw invalid('invalid_parameter', 'metadata.publish_end_date must be after metadata.publish_start_date.');
  }
  return next;
}

function readUpload(section: Record<string, unknown>): MediaUpload {
  onlyKnown(section, 'upload', UPLOAD_KEYS);
  const method = field.oneOf(section.method ?? 'fetch', 'upload.method', ['direct', 'fetch', 'external', 'multipart'] as const);
  const upload: MediaUpload = {
    method,
    mime_type: section.mime_type === undefined ? null : field.string(section.mime_type, 'upload.mime_type', { nullable: true }),
    source_url: section.source_url === undefined || section.source_url === null ? null : field.url(section.source_url, 'upload.source_url'),
    download_url: section.download_url === undefined || section.download_url === null ? null : field.url(section.download_url, 'upload.download_url'),
    trim_in_point: section.trim_in_point === undefined ? null : field.string(section.trim_in_point, 'upload.trim_in_point', { nullable: true }),
    trim_out_point: section.trim_out_point === undefined ? null : field.string(section.trim_out_point, 'upload.trim_out_point', { nullable: true }),
  };
  if ((method === 'fetch' || method === 'external') && upload.source_url === null) {
    throw invalid('invalid_parameter', `upload.source_url is required when upload.method is '${method}'.`);
  }
  for (const key of ['trim_in_point', 'trim_out_point'] as const) {
    const value = upload[key];
    if (value !== null && !/^\d{2}:\d{2}:\d{2}(\.\d{1,3})?$/.test(value)) {
      throw invalid('invalid_parameter', `upload.${key} must be HH:MM:SS or HH:MM:SS.mmm.`);
    }
  }
  return upload;
}

export function createMedia(ctx: RouteContext): Response {
  const siteId = site(ctx);
  if (ctx.body.relationships) throw invalid('invalid_body', "Creating a media takes 'metadata' and 'upload', not 'relationships'.");
  const at = nowIso(ctx);
  const empty: MediaMetadata = {
    title: 'Untitled', description: null, author: null, permalink: null, category: null, language: null, tags: [],
    publish_start_date: null, publish_end_date: null, custom_params: {}, external_id: null,
  };
  const metadata = applyMetadata(empty, ctx.body.metadata ?? {});
  const upload = ctx.body.upload ? readUpload(ctx.body.upload) : null;
  const id = freshId();
  const media: Media = {
    id, type: 'media', created: at, last_modified: at,
    status: upload ? 'ready' : 'created',
    error_message: null,
    duration: upload && upload.method !== 'external' ? durationFor(upload.source_url ?? id) : null,
    media_type: mediaTypeFor(upload?.mime_type),
    mime_type: upload?.mime_type ?? (upload ? 'video/mp4' : null),
    hosting_type: upload?.method === 'external' ? 'external' : 'hosted',
    metadata, upload, relationships: { poster: null },
  };
  if (upload?.method === 'external') {
    // Externally hosted media are not transcoded: one rendition that points at the source as given.
    const rendition = makeRendition(freshId(), media, at, { width: null, mime_type: upload.mime_type ?? 'video/mp4', name: 'External' });
    rendition.delivery_url = upload.source_url as string;
    rendition.filesize = 0;
    ctx.store.put('media_rendition', siteId, id, rendition);
  } else if (upload) {
    // The platform fetches, transcodes and thumbnails; the sandbox does it at once (it has no bytes to wait for).
    const conv = processMedia(media, at, freshId);
    ctx.store.put('original', siteId, id, conv.original);
    for (const rendition of conv.renditions) ctx.store.put('media_rendition', siteId, id, rendition);
    for (const thumbnail of conv.thumbnails) ctx.store.put('thumbnail', siteId, id, thumbnail);
    const poster = conv.thumbnails[0]!;
    media.relationships.poster = { id: poster.id, delivery_url: poster.delivery_url };
  }
  ctx.store.put('media', siteId, null, media);
  return json(withOrigin(media, ctx.origin), 201);
}

export function listMedia(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const page = listPage(ctx.store.list<Media>('media', siteId), ctx.url.searchParams, MEDIA_FIELDS, 'created:desc');
  return json({ page: page.page, page_length: page.page_length, total: page.total, media: withOrigin(page.items, ctx.origin) });
}

export function showMedia(ctx: RouteContext): Response {
  return json(withOrigin(loadMedia(ctx, site(ctx)), ctx.origin));
}

export function updateMedia(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  if (ctx.body.upload || ctx.body.relationships) {
    throw invalid('invalid_body', "Updating a media takes 'metadata' only (set the poster through thumbnails/).");
  }
  const patch = requireSection(ctx.body, 'metadata');
  media.metadata = applyMetadata(media.metadata, patch);
  media.last_modified = nowIso(ctx);
  ctx.store.put('media', siteId, null, media);
  return json(withOrigin(media, ctx.origin));
}

export function deleteMedia(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  ctx.store.deleteChildren(siteId, media.id);
  ctx.store.delete('media', siteId, media.id);
  // Lists that name the media stop naming it, as the platform's would.
  for (const playlist of ctx.store.list<TypedPlaylist>('playlist', siteId)) {
    const sub = (playlist as unknown as Record<string, unknown>)[playlist.playlist_type];
    if (isObject(sub) && Array.isArray(sub.media_ids) && sub.media_ids.includes(media.id)) {
      sub.media_ids = sub.media_ids.filter((id) => id !== media.id);
      ctx.store.put('playlist', siteId, null, playlist);
    }
    if (isObject(sub) && sub.seed_media_id === media.id) {
      sub.seed_media_id = null;
      ctx.store.put('playlist', siteId, null, playlist);
    }
  }
  return noContent();
}
