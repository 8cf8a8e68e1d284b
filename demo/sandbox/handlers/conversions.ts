// media/<id>/media_renditions/, originals/ and text_tracks/: the resources a media owns.
import type { Media, MediaRendition, Original, TextTrack, TextTrackKind } from '../records.ts';
import { field, onlyKnown, requireSection } from '../body.ts';
import { type RouteContext, nowIso, param, site } from '../context.ts';
import { makeRendition } from '../conversions.ts';
import { ORIGINAL_FIELDS, RENDITION_FIELDS, TEXT_TRACK_FIELDS } from '../fields.ts';
import { HttpError, invalid, json, noContent, notFound } from '../http.ts';
import { freshId } from '../prng.ts';
import { originalAnswer, renditionAnswer, textTrackAnswer } from '../answers.ts';
import { listPage } from '../query.ts';
import { track } from '../seed.ts';
import { startUpload, uploadLink } from '../uploads.ts';
import { loadMedia } from './media.ts';

const RENDITION_MIME_TYPES = ['video/mp4', 'video/webm', 'audio/mp4', 'application/vnd.apple.mpegurl'] as const;
const TRACK_KINDS: readonly TextTrackKind[] = ['captions', 'subtitles', 'chapters', 'descriptions', 'metadata'];

function listAnswer<T extends { id: string }>(ctx: RouteContext, key: string, docs: T[], fields: Parameters<typeof listPage>[2],
  answer: (doc: T) => unknown): Response {
  const page = listPage(docs, ctx.url.searchParams, fields, 'created:asc');
  return json({ page: page.page, page_length: page.page_length, total: page.total, [key]: page.items.map(answer) });
}

// ------------------------------------------------------------------------------------------------------- renditions

export function createRendition(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  if (media.status !== 'ready' || media.hosting_type !== 'hosted') {
    throw new HttpError(409, 'media_not_ready', `Media '${media.id}' is ${media.hosting_type === 'hosted' ? media.status : 'externally hosted'}; renditions can be added to ready, hosted media only.`);
  }
  const metadata = requireSection(ctx.body, 'metadata');
  onlyKnown(metadata, 'metadata', ['name', 'width', 'height', 'mime_type']);
  const mimeType = field.oneOf(metadata.mime_type ?? 'video/mp4', 'metadata.mime_type', RENDITION_MIME_TYPES);
  const sized = mimeType === 'video/mp4' || mimeType === 'video/webm';
  if (sized && metadata.width === undefined) throw invalid('invalid_parameter', `metadata.width is required for ${mimeType} renditions.`);
  const width = sized ? field.int(metadata.width, 'metadata.width', 16, 7680) : null;
  const height = sized && metadata.height !== undefined ? field.int(metadata.height, 'metadata.height', 16, 4320) : undefined;
  const name = metadata.name === undefined ? undefined : field.string(metadata.name, 'metadata.name', { nonEmpty: true, max: 100 }) as string;
  const rendition = makeRendition(freshId(), media, nowIso(ctx), {
    width, mime_type: mimeType, ...(name ? { name } : {}), ...(height !== undefined ? { height } : {}),
  });
  ctx.store.put('media_rendition', siteId, media.id, rendition);
  return json(renditionAnswer(rendition, ctx.origin), 201);
}

export function listRenditions(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  return listAnswer(ctx, 'media_renditions', ctx.store.list<MediaRendition>('media_rendition', siteId, media.id), RENDITION_FIELDS,
    (rendition) => renditionAnswer(rendition, ctx.origin));
}

function loadRendition(ctx: RouteContext, siteId: string, media: Media): MediaRendition {
  const id = param(ctx, 'rendition');
  const rendition = ctx.store.get<MediaRendition>('media_rendition', siteId, id);
  if (!rendition || rendition.media_id !== media.id) throw notFound(`Rendition '${id}' of media '${media.id}'`);
  return rendition;
}

export function showRendition(ctx: RouteContext): Response {
  const siteId = site(ctx);
  return json(renditionAnswer(loadRendition(ctx, siteId, loadMedia(ctx, siteId)), ctx.origin));
}

export function deleteRendition(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const rendition = loadRendition(ctx, siteId, loadMedia(ctx, siteId));
  ctx.store.delete('media_rendition', siteId, rendition.id);
  return noContent();
}

// -------------------------------------------------------------------------------------------------------- originals

export function listOriginals(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  return listAnswer(ctx, 'originals', ctx.store.list<Original>('original', siteId, media.id), ORIGINAL_FIELDS, originalAnswer);
}

// ------------------------------------------------------------------------------------------------------ text tracks

const SRCLANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

function applyTrackMetadata(current: TextTrack['metadata'], patch: Record<string, unknown>): TextTrack['metadata'] {
  onlyKnown(patch, 'metadata', ['label', 'srclang', 'kind', 'track_kind', 'default', 'position']);
  const next = { ...current };
  // `track_kind` is the platform's name (what the official clients send); `kind` is the same field.
  if (patch.kind !== undefined && patch.track_kind !== undefined && patch.kind !== patch.track_kind) {
    throw invalid('invalid_parameter', 'metadata.kind and metadata.track_kind name the same field; give one.');
  }
  if (patch.track_kind !== undefined) next.kind = field.oneOf(patch.track_kind, 'metadata.track_kind', TRACK_KINDS);
  if (patch.position !== undefined) next.position = field.int(patch.position, 'metadata.position', 0, 100);
  if (patch.label !== undefined) next.label = field.string(patch.label, 'metadata.label', { nonEmpty: true, max: 100 }) as string;
  if (patch.srclang !== undefined) {
    const srclang = field.string(patch.srclang, 'metadata.srclang', { nonEmpty: true }) as string;
    if (!SRCLANG.test(srclang)) throw invalid('invalid_parameter', `metadata.srclang must be a BCP 47 language tag such as 'en' or 'pt-BR', got '${srclang}'.`);
    next.srclang = srclang;
  }
  if (patch.kind !== undefined) next.kind = field.oneOf(patch.kind, 'metadata.kind', TRACK_KINDS);
  if (patch.default !== undefined) next.default = field.boolean(patch.default, 'metadata.default');
  return next;
}

/** Only one track of a media is the default: setting one clears the others. */
function clearOtherDefaults(ctx: RouteContext, siteId: string, mediaId: string, keep: string): void {
  for (const other of ctx.store.list<TextTrack>('text_track', siteId, mediaId)) {
    if (other.id !== keep && other.metadata.default) {
      other.metadata.default = false;
      ctx.store.put('text_track', siteId, mediaId, other);
    }
  }
}

export function createTextTrack(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  const metadata = requireSection(ctx.body, 'metadata');
  if (metadata.srclang === undefined) throw invalid('invalid_parameter', 'metadata.srclang is required (e.g. en).');
  // The official clients send `download_url` for a fetch and `file_format` for a direct upload (the Go client's
  // TextTrackUploadRequest); `source_url` is the name the media upload uses, accepted too.
  let method: 'fetch' | 'direct' | null = null;
  let mimeType: string | null = null;
  let autoPublish = true;
  if (ctx.body.upload) {
    const upload = ctx.body.upload;
    onlyKnown(upload, 'upload', ['method', 'source_url', 'download_url', 'mime_type', 'file_format', 'auto_publish']);
    method = field.oneOf(upload.method ?? (upload.source_url ?? upload.download_url ? 'fetch' : 'direct'), 'upload.method', ['fetch', 'direct'] as const);
    if (method === 'fetch') {
      if (upload.source_url === undefined && upload.download_url === undefined) {
        throw invalid('invalid_parameter', "upload.download_url (or upload.source_url) is required when upload.method is 'fetch'.");
      }
      field.url(upload.download_url ?? upload.source_url, upload.download_url !== undefined ? 'upload.download_url' : 'upload.source_url');
    }
    if (upload.mime_type !== undefined) mimeType = field.oneOf(upload.mime_type, 'upload.mime_type', ['text/vtt', 'application/x-subrip', 'application/ttml+xml'] as const);
    if (upload.file_format !== undefined) {
      const format = field.oneOf(upload.file_format, 'upload.file_format', ['vtt', 'srt', 'dfxp'] as const);
      mimeType ??= format === 'vtt' ? 'text/vtt' : format === 'srt' ? 'application/x-subrip' : 'application/ttml+xml';
    }
    if (upload.auto_publish !== undefined) autoPublish = field.boolean(upload.auto_publish, 'upload.auto_publish');
  }
  const meta = applyTrackMetadata({ label: '', srclang: 'en', kind: 'captions', default: false, position: 0 }, metadata);
  if (meta.label === '') meta.label = meta.srclang;
  if (metadata.position === undefined) meta.position = ctx.store.list<TextTrack>('text_track', siteId, media.id).length;
  const created = track(freshId(), media.id, nowIso(ctx), meta);
  // Processed at once for a fetch (a caption file needs no transcoding): published, or a draft when asked.
  created.auto_publish = autoPublish;
  if (!autoPublish) created.status = 'draft';
  // A direct upload waits for its file: `processing` until the bytes are PUT to the upload link.
  const upload = method === 'direct' ? startUpload(ctx.store, siteId, 'text_track', created.id, 'direct', mimeType, nowIso(ctx)) : null;
  if (upload) created.status = 'processing';
  ctx.store.put('text_track', siteId, media.id, created);
  if (meta.default) clearOtherDefaults(ctx, siteId, media.id, created.id);
  return json({ ...textTrackAnswer(created, ctx.origin), ...(upload ? { upload_link: uploadLink(ctx.origin, upload, 'direct') } : {}) }, 201);
}

export function listTextTracks(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  return listAnswer(ctx, 'text_tracks', ctx.store.list<TextTrack>('text_track', siteId, media.id), TEXT_TRACK_FIELDS,
    (track) => textTrackAnswer(track, ctx.origin));
}

function loadTrack(ctx: RouteContext, siteId: string, media: Media): TextTrack {
  const id = param(ctx, 'track');
  const found = ctx.store.get<TextTrack>('text_track', siteId, id);
  if (!found || found.media_id !== media.id) throw notFound(`Text track '${id}' of media '${media.id}'`);
  return found;
}

export function showTextTrack(ctx: RouteContext): Response {
  const siteId = site(ctx);
  return json(textTrackAnswer(loadTrack(ctx, siteId, loadMedia(ctx, siteId)), ctx.origin));
}

export function updateTextTrack(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  const found = loadTrack(ctx, siteId, media);
  if (ctx.body.upload || ctx.body.relationships) throw invalid('invalid_body', "Updating a text track takes 'metadata' only.");
  found.metadata = applyTrackMetadata(found.metadata, requireSection(ctx.body, 'metadata'));
  found.track_kind = found.metadata.kind;
  found.last_modified = nowIso(ctx);
  ctx.store.put('text_track', siteId, media.id, found);
  if (found.metadata.default) clearOtherDefaults(ctx, siteId, media.id, found.id);
  return json(textTrackAnswer(found, ctx.origin));
}

/**
 * `PUT text_tracks/<id>/publish/` and `unpublish/`: a draft becomes ready (delivered) and back; 204, or 409 when the
 * track is not in the state the action moves it from (still processing, failed, or already there).
 */
function moveTrack(ctx: RouteContext, from: TextTrack['status'], to: TextTrack['status']): Response {
  const siteId = site(ctx);
  const media = loadMedia(ctx, siteId);
  const found = loadTrack(ctx, siteId, media);
  if (found.status !== from) {
    throw new HttpError(409, 'text_track_status_conflict',
      `Text track '${found.id}' is ${found.status}; only a ${from} track can be made ${to}.`);
  }
  found.status = to;
  found.last_modified = nowIso(ctx);
  ctx.store.put('text_track', siteId, media.id, found);
  return noContent();
}

export function publishTextTrack(ctx: RouteContext): Response {
  return moveTrack(ctx, 'draft', 'ready');
}

export function unpublishTextTrack(ctx: RouteContext): Response {
  return moveTrack(ctx, 'ready', 'draft');
}

export function deleteTextTrack(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const found = loadTrack(ctx, siteId, loadMedia(ctx, siteId));
  ctx.store.delete('text_track', siteId, found.id);
  return noContent();
}
