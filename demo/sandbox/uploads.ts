// Uploads and processing, as the platform does them and the official clients drive them.
//
// - `direct`: POST media/ answers an `upload_link`, a pre-signed URL (no credential) the client PUTs the whole file
//   to; the answer's ETag is the quoted MD5 of the bytes, which the Python client checks. The media is `created` until
//   the bytes are in, then `processing`.
// - `multipart`: POST media/ answers `upload_id` and `upload_token`. With `Authorization: Bearer <upload_token>` the
//   client lists `GET /v2/uploads/<id>/parts?page=&page_length=` (each part `{id, part_number, upload_link, etag}`),
//   PUTs each chunk to its link (every part but the last at least 5 MiB) and calls `PUT /v2/uploads/<id>/complete`.
// - `fetch`: the platform fetches the source itself: `processing` from the start.
// Processing ends `processing_seconds` after it began (5 by default, `/_sandbox/processing` changes it or finishes
// everything at once), judged whenever the sandbox is next called: `ready` with a duration, an original, renditions
// and thumbnails when the bytes look like audio or video, else `failed` with an `error_message`. A re-upload keeps
// the media `updating` (its old renditions still serve) until the new source is processed.
import type { UploadPart } from '../../worker/contract/v2-types.ts';
import type { Media, TextTrack } from './records.ts';
import { MAX_UPLOAD_PARTS, MIN_UPLOAD_PART_BYTES } from '../../worker/contract/v2-types.ts';
import { type RouteContext, param } from './context.ts';
import { durationFor, processMedia } from './conversions.ts';
import { errorResponse, HttpError, invalid, json, notFound } from './http.ts';
import { freshId } from './prng.ts';
import { parsePaging } from './query.ts';
import type { Store } from './store.ts';

export const DEFAULT_PROCESSING_SECONDS = 5;

interface PartRecord {
  size: number;
  md5: string;
  /** The first bytes, hex: what the platform's probe looks at. */
  head: string;
}

export interface UploadDoc {
  id: string;
  type: 'upload';
  site: string;
  /** What the bytes are for. */
  target: 'media' | 'text_track';
  target_id: string;
  method: 'direct' | 'multipart';
  /** Multipart only: the Bearer credential of the uploads/ routes. */
  token: string | null;
  /** The secret part of every upload link of this upload. */
  link_key: string;
  mime_type: string | null;
  parts: Record<string, PartRecord>;
  status: 'waiting' | 'completed';
  created: string;
}

interface Pending {
  site: string;
  media_id: string;
  started: number;
  /** Null: processed to ready; else the error message it fails with. */
  failure: string | null;
  mime_type: string | null;
  /** Seeds the duration, so the same file gives the same figures. */
  seed: string;
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fresh upload for a media or text track; its id and, for multipart, its token go into the create answer. */
export function startUpload(store: Store, site: string, target: UploadDoc['target'], targetId: string,
  method: UploadDoc['method'], mimeType: string | null, at: string): UploadDoc {
  // One upload at a time per target: a new one (a re-upload) makes the links of the old one dead.
  for (const old of store.list<UploadDoc>('upload', site, targetId)) store.delete('upload', site, old.id);
  const upload: UploadDoc = {
    id: freshId(), type: 'upload', site, target, target_id: targetId, method,
    token: method === 'multipart' ? randomHex(24) : null,
    link_key: randomHex(16), mime_type: mimeType, parts: {}, status: 'waiting', created: at,
  };
  store.put('upload', site, targetId, upload);
  return upload;
}

export function uploadLink(origin: string, upload: UploadDoc, part: number | 'direct'): string {
  return `${origin}/upload/${upload.id}/${part}?key=${upload.link_key}`;
}

/** What a create (or re-upload) answer adds for the caller to send the file. */
export function uploadAnswer(origin: string, upload: UploadDoc | null): Record<string, string> {
  if (!upload) return {};
  return upload.method === 'direct'
    ? { upload_id: upload.id, upload_link: uploadLink(origin, upload, 'direct') }
    : { upload_id: upload.id, upload_token: upload.token as string };
}

// --------------------------------------------------------------------------------------------------- processing

function processingSeconds(store: Store): number {
  return store.getMeta<number>('processing_seconds') ?? DEFAULT_PROCESSING_SECONDS;
}

function queue(store: Store): Pending[] {
  return store.getMeta<Pending[]>('processing') ?? [];
}

/** Starts processing a media's new source (bytes in, or a fetch accepted). */
export function startProcessing(store: Store, site: string, media: Media, now: number,
  outcome: { failure: string | null; mime_type: string | null; seed: string }): void {
  const rest = queue(store).filter((entry) => !(entry.site === site && entry.media_id === media.id));
  rest.push({ site, media_id: media.id, started: now, ...outcome });
  store.setMeta('processing', rest);
  // A media that was ready keeps serving its old renditions while the new source is processed.
  media.status = media.status === 'ready' || media.status === 'updating' ? 'updating' : 'processing';
  media.error_message = null;
}

/** Finishes every processing whose time has come (all of them with `everything`). */
export function advanceProcessing(store: Store, now: number, everything = false): void {
  const pending = queue(store);
  if (pending.length === 0) return;
  const due = pending.filter((entry) => everything || entry.started + processingSeconds(store) * 1000 <= now);
  if (due.length === 0) return;
  store.setMeta('processing', pending.filter((entry) => !due.includes(entry)));
  for (const entry of due) finish(store, entry, Math.max(now, entry.started));
}

function finish(store: Store, entry: Pending, at: number): void {
  const media = store.get<Media>('media', entry.site, entry.media_id);
  if (!media) return;
  const when = new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
  media.last_modified = when;
  if (entry.failure !== null) {
    media.status = 'failed';
    media.error_message = entry.failure;
    store.put('media', entry.site, null, media);
    return;
  }
  // The new source replaces what the old one produced; text tracks are the media's own and stay.
  store.deleteChildren(entry.site, media.id, ['original', 'media_rendition', 'thumbnail']);
  media.mime_type = entry.mime_type ?? media.mime_type ?? 'video/mp4';
  media.media_type = media.mime_type.startsWith('audio/') ? 'audio' : 'video';
  media.duration = durationFor(entry.seed);
  media.status = 'ready';
  media.error_message = null;
  const conv = processMedia(media, when, freshId);
  media.hls = conv.hls;
  store.put('original', entry.site, media.id, conv.original);
  for (const rendition of conv.renditions) store.put('media_rendition', entry.site, media.id, rendition);
  for (const thumbnail of conv.thumbnails) store.put('thumbnail', entry.site, media.id, thumbnail);
  store.put('media', entry.site, null, media);
}

/** GET and POST /_sandbox/processing: how long processing takes, what is pending; `{finish: true}` ends it all now. */
export function processingControl(store: Store, body: Record<string, unknown> | null, now: number): Response {
  if (body) {
    for (const key of Object.keys(body)) {
      if (key !== 'seconds' && key !== 'finish') throw invalid('invalid_parameter', `Unknown processing option '${key}'; known: seconds, finish.`);
    }
    const { seconds, finish: finishAll } = body;
    if (seconds !== undefined) {
      if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 0 || seconds > 86_400) {
        throw invalid('invalid_parameter', 'seconds must be an integer from 0 to 86400.');
      }
      store.setMeta('processing_seconds', seconds);
    }
    if (finishAll !== undefined && typeof finishAll !== 'boolean') throw invalid('invalid_parameter', 'finish must be true or false.');
    advanceProcessing(store, now, finishAll === true);
  }
  return json({
    seconds: processingSeconds(store),
    pending: queue(store).map(({ site, media_id: mediaId, started }) => ({ site, media_id: mediaId, started: new Date(started).toISOString() })),
  });
}

// ------------------------------------------------------------------------------------------------ what bytes are

/** The platform's probe: what the first bytes say the file is, or null when it is neither audio nor video. */
export function sniffMime(headHex: string): string | null {
  const bytes = headHex.match(/../g)?.map((pair) => parseInt(pair, 16)) ?? [];
  const ascii = (from: number, to: number): string => String.fromCharCode(...bytes.slice(from, to));
  if (ascii(4, 8) === 'ftyp') return /^M4A|^M4B/.test(ascii(8, 11)) ? 'audio/mp4' : /^qt/.test(ascii(8, 10)) ? 'video/quicktime' : 'video/mp4';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'video/webm';
  if (bytes[0] === 0x47 && (bytes.length < 189 || bytes[188] === 0x47)) return 'video/mp2t';
  if (ascii(0, 3) === 'ID3' || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return 'audio/mpeg';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio/wav';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'AVI ') return 'video/x-msvideo';
  if (ascii(0, 4) === 'OggS') return 'audio/ogg';
  if (ascii(0, 4) === 'fLaC') return 'audio/flac';
  return null;
}

/** Bytes in: the outcome processing will have, decided now from the file itself. */
function outcomeOf(upload: UploadDoc, first: PartRecord | undefined, size: number, seed: string) {
  if (!first || size === 0) return { failure: 'The upload holds no bytes.', mime_type: upload.mime_type, seed };
  const sniffed = sniffMime(first.head);
  if (sniffed === null) {
    return { failure: 'Transcoding failed: the uploaded file is not an audio or video format the platform can decode.', mime_type: upload.mime_type, seed };
  }
  return { failure: null, mime_type: upload.mime_type ?? sniffed, seed };
}

// ----------------------------------------------------------------------------------------- the upload links (PUT)

/**
 * PUT /upload/<upload_id>/<part|direct>?key=…: the bytes, to the platform's storage (not the API: no credential, no
 * rate limit). Answers 200 with `ETag: "<md5>"` as object storage does.
 */
export async function receiveBytes(store: Store, request: Request, url: URL, bytes: ArrayBuffer,
  transaction: (run: () => Response) => Response): Promise<Response> {
  const match = /^\/upload\/([A-Za-z0-9]+)\/(direct|\d{1,5})\/?$/.exec(url.pathname);
  if (!match) return errorResponse(404, 'not_found', `Nothing is served at ${url.pathname}; upload links are /upload/<upload_id>/<part>?key=….`);
  if (request.method !== 'PUT') {
    return errorResponse(405, 'method_not_allowed', `${request.method} is not allowed on an upload link; PUT the file's bytes.`, { allow: 'PUT' });
  }
  const digest = await crypto.subtle.digest('MD5', bytes);
  const md5 = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const head = [...new Uint8Array(bytes.slice(0, 200))].map((b) => b.toString(16).padStart(2, '0')).join('');
  return transaction(() => {
    const found = store.find<UploadDoc>('upload', match[1]!);
    if (!found || found.doc.link_key !== url.searchParams.get('key')) {
      return errorResponse(403, 'forbidden', 'This upload link is not valid (unknown upload, a wrong key, or an upload replaced by a newer one).');
    }
    const upload = found.doc;
    const direct = match[2] === 'direct';
    if (direct !== (upload.method === 'direct')) {
      return errorResponse(400, 'invalid_upload', direct
        ? 'This is a multipart upload: PUT each part to the upload_link GET /v2/uploads/<upload_id>/parts lists.'
        : 'This is a direct upload: PUT the whole file to its upload_link.');
    }
    const part = direct ? 1 : Number(match[2]);
    if (part < 1 || part > MAX_UPLOAD_PARTS) return errorResponse(400, 'invalid_upload', `Part numbers run from 1 to ${MAX_UPLOAD_PARTS}.`);
    if (upload.status === 'completed') {
      return errorResponse(409, 'upload_completed', 'This upload is complete; re-upload the media (PUT media/<id>/reupload/) to send another file.');
    }
    const record: PartRecord = { size: bytes.byteLength, md5, head };
    upload.parts[String(part)] = record;
    const now = Date.now();
    if (direct) {
      upload.status = 'completed';
      bytesArrived(store, upload, record, record.size, now);
    }
    store.put('upload', upload.site, upload.target_id, upload);
    return new Response(null, { status: 200, headers: { etag: `"${md5}"` } });
  });
}

/** Every byte is in: media go on to processing, text tracks are done (a caption file needs no transcoding). */
function bytesArrived(store: Store, upload: UploadDoc, first: PartRecord | undefined, size: number, now: number): void {
  const at = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (upload.target === 'text_track') {
    const track = store.get<TextTrack>('text_track', upload.site, upload.target_id);
    if (!track) return;
    track.status = size > 0 ? (track.auto_publish ? 'ready' : 'draft') : 'failed';
    track.error_message = size > 0 ? null : 'The caption file holds no bytes.';
    track.last_modified = at;
    store.put('text_track', upload.site, track.media_id, track);
    return;
  }
  const media = store.get<Media>('media', upload.site, upload.target_id);
  if (!media) return;
  startProcessing(store, upload.site, media, now, outcomeOf(upload, first, size, `${upload.id}:${first?.md5 ?? ''}`));
  media.last_modified = at;
  store.put('media', upload.site, null, media);
}

// ------------------------------------------------------------------------------------------ the uploads/ API routes

/** The upload of the path, for a caller holding its token (checked before the route, like any credential). */
export function uploadForToken(store: Store, uploadId: string, token: string | null): UploadDoc | null {
  const found = store.find<UploadDoc>('upload', uploadId);
  return found && found.doc.token !== null && token === found.doc.token ? found.doc : null;
}

function loadUpload(ctx: RouteContext): UploadDoc {
  const id = param(ctx, 'upload');
  const found = ctx.store.find<UploadDoc>('upload', id);
  if (!found) throw notFound(`Upload '${id}'`);
  return found.doc;
}

/** GET /v2/uploads/<id>/parts: `page_length` part links from `(page - 1) * page_length + 1` on. */
export function listUploadParts(ctx: RouteContext): Response {
  const upload = loadUpload(ctx);
  const paging = parsePaging(ctx.url.searchParams);
  const first = (paging.page - 1) * paging.page_length + 1;
  const last = Math.min(first + paging.page_length - 1, MAX_UPLOAD_PARTS);
  const parts: UploadPart[] = [];
  for (let n = first; n <= last; n++) {
    parts.push({ id: n, part_number: n, upload_link: uploadLink(ctx.origin, upload, n), etag: upload.parts[String(n)]?.md5 ?? null });
  }
  return json({ page: paging.page, page_length: paging.page_length, total: MAX_UPLOAD_PARTS, parts });
}

/** PUT /v2/uploads/<id>/complete: parts 1..n all in, every one but the last at least 5 MiB. */
export function completeUpload(ctx: RouteContext): Response {
  const upload = loadUpload(ctx);
  if (upload.status === 'completed') throw new HttpError(409, 'upload_completed', `Upload '${upload.id}' is already complete.`);
  const numbers = Object.keys(upload.parts).map(Number).sort((a, b) => a - b);
  if (numbers.length === 0) throw invalid('invalid_upload', 'No part has been uploaded yet: PUT each part to its upload_link first.');
  const last = numbers[numbers.length - 1]!;
  const missing = [];
  for (let n = 1; n <= last && missing.length < 5; n++) if (!upload.parts[String(n)]) missing.push(n);
  if (missing.length > 0) throw invalid('invalid_upload', `Parts 1 to ${last} must all be uploaded; missing: ${missing.join(', ')}.`);
  for (const n of numbers.slice(0, -1)) {
    const size = upload.parts[String(n)]!.size;
    if (size < MIN_UPLOAD_PART_BYTES) {
      throw invalid('invalid_upload', `Part ${n} holds ${size} bytes; every part but the last must hold at least ${MIN_UPLOAD_PART_BYTES} bytes (5 MiB).`);
    }
  }
  upload.status = 'completed';
  const size = numbers.reduce((sum, n) => sum + upload.parts[String(n)]!.size, 0);
  const firstPart = upload.parts['1'];
  bytesArrived(ctx.store, upload, firstPart, size, ctx.now.getTime());
  ctx.store.put('upload', upload.site, upload.target_id, upload);
  return json({ id: upload.id, status: 'completed', parts: numbers.length, size, [upload.target === 'media' ? 'media_id' : 'text_track_id']: upload.target_id });
}
