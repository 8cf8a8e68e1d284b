// media/ routes: create (with the upload flow its method asks for, see ../uploads.ts), re-upload, list, show, update
// with custom_params replacement (spec rule 3), delete with everything the media owns.
import type { Media, MediaMetadata, MediaUpload } from '../records.ts';
import { field, onlyKnown, requireSection } from '../body.ts';
import { type RouteContext, nowIso, param, site } from '../context.ts';
import { makeRendition, mediaTypeFor } from '../conversions.ts';
import { MEDIA_FIELDS } from '../fields.ts';
import { HttpError, invalid, json, noContent, notFound } from '../http.ts';
import { freshId } from '../prng.ts';
import { mediaAnswer } from '../answers.ts';
import { forgetMediaInPlaylists } from './playlists.ts';
import { IAB_CATEGORIES } from '../media-vocabulary.ts';
import { listPage } from '../query.ts';
import { startProcessing, startUpload, uploadAnswer, type UploadDoc } from '../uploads.ts';

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
      case 'author': case 'permalink': case 'external_id':
        next[key] = field.string(value, at, { nullable: true, max: 2000 }); break;
      case 'category': next.category = value === null ? null : field.oneOf(value, at, IAB_CATEGORIES); break;
      case 'language': {
        const language = field.string(value, at, { nullable: true });
        if (language !== null && !/^[a-z]{2}$/.test(language)) throw invalid('invalid_parameter', `${at} must be an ISO 639-1 code such as 'en'.`);
        next.language = language;
        break;
      }
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

function readUpload(section: Record<string, unknown>, methods: readonly MediaUpload['method'][] = ['direct', 'fetch', 'external', 'multipart']): MediaUpload {
  onlyKnown(section, 'upload', UPLOAD_KEYS);
  const method = field.oneOf(section.method ?? 'fetch', 'upload.method', methods);
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
    status: upload?.method === 'external' ? 'ready' : 'created',
    error_message: null,
    duration: null,
    media_type: mediaTypeFor(upload?.mime_type),
    mime_type: upload?.mime_type ?? (upload?.method === 'external' ? 'video/mp4' : null),
    hosting_type: upload?.method === 'external' ? 'external' : 'hosted',
    metadata, upload,
  };
  if (upload?.method === 'external') {
    // Externally hosted media are not transcoded: one rendition that points at the source as given.
    const rendition = makeRendition(freshId(), media, at, { width: null, mime_type: upload.mime_type ?? 'video/mp4', name: 'External' });
    rendition.delivery_url = upload.source_url as string;
    rendition.filesize = 0;
    ctx.store.put('media_rendition', siteId, id, rendition);
  }
  const started = upload ? beginUpload(ctx, siteId, media, upload) : null;
  ctx.store.put('media', siteId, null, media);
  return json({ ...mediaAnswer(media), ...uploadAnswer(ctx.origin, started) }, 201);
}

/**
 * The flow an upload method asks for: `fetch` is processing at once (the platform fetches the source), `direct` and
 * `multipart` wait for the bytes (the answer says where to send them). Returns the upload to announce, if any.
 */
function beginUpload(ctx: RouteContext, siteId: string, media: Media, upload: MediaUpload): UploadDoc | null {
  if (upload.method === 'fetch') {
    startProcessing(ctx.store, siteId, media, ctx.now.getTime(),
      { failure: null, mime_type: upload.mime_type ?? 'video/mp4', seed: upload.source_url ?? media.id });
    return null;
  }
  if (upload.method === 'direct' || upload.method === 'multipart') {
    return startUpload(ctx.store, siteId, 'media', media.id, upload.method, upload.mime_type, nowIso(ctx));
  }
  return null;
}

/**
 * PUT (or POST) media/<id>/reupload/: a new source for a hosted media. Its metadata, text tracks and id stay; a ready
 * media is `updating` (still served from its old renditions) until the new source is processed.
 */
export function reuploadMedia(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  if (ctx.body.metadata || ctx.body.relationships) throw invalid('invalid_body', "A re-upload takes 'upload' only; change metadata with PATCH media/<id>/.");
  const upload = readUpload(requireSection(ctx.body, 'upload'), ['direct', 'fetch', 'multipart']);
  if (media.hosting_type !== 'hosted') {
    throw new HttpError(409, 'media_not_ready', `Media '${media.id}' is externally hosted; only hosted media can be re-uploaded.`);
  }
  if (media.status === 'processing' || media.status === 'updating') {
    throw new HttpError(409, 'media_not_ready', `Media '${media.id}' is ${media.status}; re-upload it once that has finished.`);
  }
  media.upload = upload;
  media.last_modified = nowIso(ctx);
  if (media.status === 'failed') media.status = 'created';
  const started = beginUpload(ctx, siteId, media, upload);
  if (started && media.status === 'ready') media.status = 'updating';
  ctx.store.put('media', siteId, null, media);
  return json({ ...mediaAnswer(media), ...uploadAnswer(ctx.origin, started) });
}

export function listMedia(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const page = listPage(ctx.store.list<Media>('media', siteId), ctx.url.searchParams, MEDIA_FIELDS, 'created:desc');
  return json({ page: page.page, page_length: page.page_length, total: page.total, media: page.items.map(mediaAnswer) });
}

export function showMedia(ctx: RouteContext): Response {
  return json(mediaAnswer(loadMedia(ctx, site(ctx))));
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
  return json(mediaAnswer(media));
}

export function deleteMedia(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  ctx.store.deleteChildren(siteId, media.id);
  ctx.store.delete('media', siteId, media.id);
  // Lists that name the media stop naming it, as the platform's would.
  forgetMediaInPlaylists(ctx, siteId, media.id);
  return noContent();
}
