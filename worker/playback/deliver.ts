/**
 * The bytes: fetched from the delivery host the worker resolved (a request built from scratch, redirects not
 * followed), streamed through without buffering, with the validators and range headers a player needs. Playlists are
 * rewritten (hls.ts). Segments, text tracks and posters are kept in the edge cache (Cache API) under their upstream
 * URL, so every token, viewer and expiry shares one copy; progressive files (MP4, hundreds of MB) are streamed and
 * never cached here.
 *
 * These bytes are served from the worker's own origin (which also serves the API and pages), but whoever can write to
 * the platform chooses them: an `external` media names any folder. So nothing passed on may be read by a browser as a
 * document or a script (stored XSS). Only the kinds the token's file is for pass (`servedType`): a source is
 * video, audio or an HLS playlist (rewritten, and always sent as `application/vnd.apple.mpegurl`), a file of an HLS
 * folder one of those or WebVTT, a poster or a storyboard's sprite an image, a text track WebVTT (a storyboard's VTT
 * rewritten, storyboard.ts, and never cached here: its URLs are the token's); opaque binary (keys, `.bin` sources) and DASH
 * manifests pass as `Content-Disposition: attachment`. The type sent is the worker's normalised one, never the
 * upstream's text. Anything else is refused, 502 `playback_unsupported_type`, before a byte of it is sent or cached.
 * Every answer also carries `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox; default-src 'none'`,
 * set at the front door for every /api/play/ answer, refusals included (security-headers.ts), so even an image that
 * can hold script (SVG) opened on its own runs none, in an opaque origin.
 */
import { ApiError, notFound, upstreamUnavailable } from '../http/errors.ts';
import type { DeliverySigner } from '../signing/index.ts';
import { isPlaylist, PlaylistOutsideFolder, readPlaylist, rewritePlaylist } from './hls.ts';
import type { Resolved } from './resolve.ts';
import { readStoryboard, rewriteStoryboard, StoryboardRefused } from './storyboard.ts';
import { digest8, type PlaybackGrant, type PlaybackResource } from './token.ts';
import { fileName, PLAY_PREFIX } from './urls.ts';

export const PLAYBACK_CACHE_HEADER = 'x-reelgate-cache';
/** Headers of the upstream answer passed on to the player. */
const PASSED = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'];
/** Headers of the player's request passed on upstream (validated first). */
const RANGE = /^bytes=(\d+-\d*|-\d+)$/;
const UPSTREAM_TIMEOUT_MS = 15_000;

const HLS_TYPE = 'application/vnd.apple.mpegurl';
/** The spellings of an HLS playlist's type: a playlist passes only rewritten, never as a plain file. */
const PLAYLIST_TYPES = new Set([HLS_TYPE, 'application/x-mpegurl', 'audio/mpegurl', 'audio/x-mpegurl']);
/** What an upstream may call a playlist the worker is to rewrite (some servers send a generic type, or none). */
const PLAYLIST_AS_SENT = new Set([...PLAYLIST_TYPES, 'text/plain', 'application/octet-stream', 'binary/octet-stream', '']);
/** Posters: raster images, and SVG (served under the sandbox CSP, see the module comment). */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif', 'image/svg+xml']);
/** Opaque files a player fetches itself (keys, fragmented MP4, a `.bin` source): passed as attachments. */
const BINARY_TYPES = new Set(['application/octet-stream', 'binary/octet-stream', 'application/mp4', '']);
const VTT = 'text/vtt';

/** The refusal of a file whose type is not what its playback URL is for. */
export const unsupportedType = () => new ApiError(502, 'playback_unsupported_type',
  'The file behind this playback URL is not of a kind it may serve (a source is video, audio or HLS, a poster an image, '
  + 'a text track WebVTT).');

/** A Content-Type's essence (`type/subtype`, lower case), `''` when absent, or null when it is not one. */
export function typeEssence(contentType: string | null): string | null {
  const essence = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (essence === '') return '';
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(essence) ? essence : null;
}

export interface ServedType {
  /** The Content-Type sent, the worker's own spelling. */
  type: string;
  /** Sent with `Content-Disposition: attachment`: no browser shows it inline. */
  attachment: boolean;
}

/**
 * What a playback answer's bytes are sent as, from the type the upstream gave and what the token opens: a `source`
 * (`folder`: any file of an HLS rendition's folder other than a playlist), a `poster` or a `track`. Null: refused.
 * Playlists never pass here; they are rewritten and sent as `application/vnd.apple.mpegurl` (`deliver`).
 */
export function servedType(resource: PlaybackResource, folder: boolean, contentType: string | null): ServedType | null {
  const essence = typeEssence(contentType);
  if (essence === null || PLAYLIST_TYPES.has(essence)) return null;
  switch (resource) {
    case 'poster':
    case 'sprite':
      return IMAGE_TYPES.has(essence) ? { type: essence, attachment: false } : null;
    case 'track':
      // WebVTT is UTF-8 by definition.
      return essence === VTT ? { type: `${VTT}; charset=utf-8`, attachment: false } : null;
    case 'source':
      if (/^(video|audio)\//.test(essence)) return { type: essence, attachment: false };
      if (folder && essence === VTT) return { type: `${VTT}; charset=utf-8`, attachment: false };
      if (BINARY_TYPES.has(essence)) return { type: essence || 'application/octet-stream', attachment: true };
      // A progressive source may be a DASH manifest (a file URL): XML, so never inline.
      if (!folder && essence === 'application/dash+xml') return { type: essence, attachment: true };
      return null;
  }
}

export interface DeliverOptions {
  request: Request;
  ctx: ExecutionContext;
  grant: PlaybackGrant;
  resolved: Resolved;
  /** `/api/play/<token>/` */
  prefix: string;
  /** Appended to rewritten URIs (development only). */
  suffix: string;
  /** Signs a grant into a token (the signing key in force): a storyboard's images get URLs of their own. */
  sign: (grant: PlaybackGrant) => Promise<string>;
  /** Signs each upstream fetch when the site's property enforces URL signing; null when it does not. */
  signer: DeliverySigner | null;
}

/** The player's conditional and range headers, when well-formed; nothing else of the request goes upstream. */
function upstreamHeaders(request: Request, withRange: boolean): Headers {
  const headers = new Headers();
  const range = request.headers.get('range')?.trim();
  if (withRange && range && RANGE.test(range)) headers.set('range', range);
  for (const name of ['if-none-match', 'if-modified-since', 'if-range']) {
    const value = request.headers.get(name);
    if (value && value.length <= 256) headers.set(name, value);
  }
  return headers;
}

function cacheable(grant: PlaybackGrant): boolean {
  return grant.resource !== 'source' || grant.scope === 'folder';
}

/** The delivery host refused a URL the worker signed: the site's secret is not the one its property signs with. */
export const upstreamSignatureRefused = () => new ApiError(502, 'upstream_signature_refused',
  'The video platform refused the worker\'s signed delivery URL; the site\'s url_signing secret may be wrong.');

/**
 * Fetches a file of the delivery host for the grant's media, signed for this fetch when the site signs (`signer`,
 * worker/signing/: it signs the media's own files only).
 */
async function fetchUpstream(url: URL, method: 'GET' | 'HEAD', headers: Headers, signer: DeliverySigner | null,
  grant: PlaybackGrant): Promise<Response> {
  const target = signer ? await signer.forFetch(url, { site: grant.site, media: grant.media, track: grant.resource === 'track' }) : url;
  let response: Response;
  try {
    response = await fetch(target.href, { method, headers, redirect: 'manual', signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) });
  } catch {
    throw upstreamUnavailable(502);
  }
  if ([200, 206, 304, 416].includes(response.status)) return response;
  await response.body?.cancel();
  if (response.status === 404 || response.status === 410) throw notFound('This file is not available.');
  if (signer && response.status === 403 && target !== url) {
    console.error(`reelgate: url_signing: the delivery host refused a URL signed for site ${signer.site}; check its secret`);
    throw upstreamSignatureRefused();
  }
  throw upstreamUnavailable(502);
}

/** Cache-Control of bytes: this viewer's browser may keep them while the token lives; shared caches may not. */
function privateUntil(expires: number): string {
  const seconds = Math.max(0, Math.min(3600, expires - Math.floor(Date.now() / 1000)));
  return `private, max-age=${seconds}`;
}

/** How the upstream's answer may be passed on, or null (refused): an answer without a body always may. */
function servedAs(upstream: Response, grant: PlaybackGrant, folder: boolean): ServedType | 'empty' | null {
  if (upstream.status === 304 || upstream.status === 416) return 'empty';
  return servedType(grant.resource, folder, upstream.headers.get('content-type'));
}

/** Refuses what `servedAs` refused, without reading its bytes. */
async function refuse(upstream: Response, grant: PlaybackGrant): Promise<never> {
  await upstream.body?.cancel();
  console.error(`reelgate: a ${grant.resource} file answered with a type its playback URL may not serve; refused`);
  throw unsupportedType();
}

async function answer(upstream: Response, grant: PlaybackGrant, folder: boolean, cacheState: string | null): Promise<Response> {
  const served = servedAs(upstream, grant, folder);
  if (!served) return refuse(upstream, grant);
  const headers = new Headers();
  for (const name of PASSED) {
    const value = upstream.headers.get(name);
    if (value !== null && name !== 'content-type') headers.set(name, value);
  }
  headers.set('cache-control', privateUntil(grant.expires));
  if (cacheState) headers.set(PLAYBACK_CACHE_HEADER, cacheState);
  if (served === 'empty') {
    // 304 and 416 carry no bytes: no type to name, nothing to show.
    await upstream.body?.cancel();
    headers.delete('content-length');
    return new Response(null, { status: upstream.status, headers });
  }
  headers.set('content-type', served.type);
  if (served.attachment) headers.set('content-disposition', 'attachment');
  return new Response(upstream.body, { status: upstream.status, headers });
}

export async function deliver({ request, ctx, grant, resolved, prefix, suffix, sign, signer }: DeliverOptions): Promise<Response> {
  const method = request.method === 'HEAD' ? 'HEAD' : 'GET';
  const folder = resolved.folder !== null;
  if (resolved.storyboard) return storyboard(grant, resolved, sign, suffix, signer);
  if (resolved.folder && isPlaylist(resolved.path, null)) {
    const upstream = await fetchUpstream(resolved.upstream, 'GET', new Headers(), signer, grant);
    if (upstream.status !== 200) {
      await upstream.body?.cancel();
      throw upstreamUnavailable(502);
    }
    // A playlist is what says so: a type a playlist may be sent with, and the tag every playlist starts with.
    const essence = typeEssence(upstream.headers.get('content-type'));
    if (essence === null || !PLAYLIST_AS_SENT.has(essence)) return refuse(upstream, grant);
    let text: string;
    try {
      // Read up to hls.ts's bound, never an oversize or endless answer whole.
      const body = await readPlaylist(upstream);
      if (!/^\uFEFF?#EXTM3U[ \t]*(\r\n|\r|\n|$)/.test(body)) {
        console.error('reelgate: an HLS playlist does not start with #EXTM3U; refused');
        throw unsupportedType();
      }
      text = rewritePlaylist(body, resolved.upstream, resolved.folder, prefix, suffix, signer !== null);
    } catch (error) {
      if (error instanceof PlaylistOutsideFolder) {
        // The message is the rewriter's own words (a URI outside the folder, too large, not UTF-8...), never upstream text.
        console.error(`reelgate: an HLS playlist was refused: ${error.message}`);
        throw upstreamUnavailable(502);
      }
      throw error;
    }
    return new Response(text, { headers: { 'content-type': HLS_TYPE, 'cache-control': 'private, no-store' } });
  }

  if (!cacheable(grant)) {
    return answer(await fetchUpstream(resolved.upstream, method, upstreamHeaders(request, true), signer, grant), grant, folder, null);
  }
  // The edge cache, keyed by the upstream URL: no token, no viewer in the key.
  const cache = caches.default;
  const key = new Request(resolved.upstream.href, { method: 'GET' });
  const wantsRange = request.headers.has('range');
  const hit = await cache.match(wantsRange ? new Request(key, { headers: upstreamHeaders(request, true) }) : key);
  if (hit) return answer(hit, grant, folder, 'HIT');
  if (wantsRange || method === 'HEAD') {
    return answer(await fetchUpstream(resolved.upstream, method, upstreamHeaders(request, true), signer, grant), grant, folder, 'MISS');
  }
  const upstream = await fetchUpstream(resolved.upstream, 'GET', upstreamHeaders(request, false), signer, grant);
  // Refused before anything is kept: the edge cache holds only files of a kind their URLs may serve.
  if (!servedAs(upstream, grant, folder)) return refuse(upstream, grant);
  if (upstream.status === 200 && !upstream.headers.has('set-cookie') &&
    !/private|no-store/i.test(upstream.headers.get('cache-control') ?? '')) {
    // Small files only reach here (segments, tracks, posters): a clone for the cache costs at most one file's bytes.
    const copy = upstream.clone();
    const stored = new Headers(copy.headers);
    stored.set('cache-control', 'public, max-age=86400');
    ctx.waitUntil(cache.put(key, new Response(copy.body, { status: 200, headers: stored })).catch(() => {
      console.error('reelgate: playback cache write failed');
    }));
  }
  return answer(upstream, grant, folder, 'MISS');
}

/**
 * A storyboard VTT, rewritten so each image its cues name is a `sprite` playback URL for that file, with this token's
 * expiry and network (storyboard.ts). Read whole (bounded), like a playlist; no range, no validators.
 */
async function storyboard(grant: PlaybackGrant, resolved: Resolved, sign: DeliverOptions['sign'],
  suffix: string, signer: DeliverySigner | null): Promise<Response> {
  const upstream = await fetchUpstream(resolved.upstream, 'GET', new Headers(), signer, grant);
  if (upstream.status !== 200) {
    await upstream.body?.cancel();
    throw upstreamUnavailable(502);
  }
  if (typeEssence(upstream.headers.get('content-type')) !== VTT) return refuse(upstream, grant);
  const playUrl = async (file: URL): Promise<string> => {
    const token = await sign({ ...grant, resource: 'sprite', scope: 'file', digest: await digest8(file.href) });
    return `${PLAY_PREFIX}${token}/${fileName(file.href)}${suffix}`;
  };
  let rewritten;
  try {
    rewritten = await rewriteStoryboard(await readStoryboard(upstream), resolved.upstream.href, grant.media, playUrl,
      signer !== null);
  } catch (error) {
    if (error instanceof StoryboardRefused) {
      console.error(`reelgate: a storyboard was refused: ${error.message}`);
      throw upstreamUnavailable(502);
    }
    throw error;
  }
  if (rewritten.dropped) {
    console.error(`reelgate: ${rewritten.dropped} storyboard cue(s) named no image of the media's own storyboard; dropped`);
  }
  return new Response(rewritten.text, {
    headers: { 'content-type': `${VTT}; charset=utf-8`, 'cache-control': privateUntil(grant.expires) },
  });
}
