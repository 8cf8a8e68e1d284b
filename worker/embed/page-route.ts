/**
 * GET /embed/:site/media/:media and /embed/:site/playlists/:playlist — the iframe embeds
 * (worker/docs/embedding-without-scripts.md): small HTML pages that any site may frame, rendering the existing elements
 * from the worker's versioned bundle. The same policies as the API decide, on the server, before anything of the
 * content is read: a refused visitor gets a short 451 page that names nothing of it. Every other failure is a short
 * page too, with its status (an iframe shows HTML, not the API's JSON). Query: `player` (a player id whose
 * `setup_config` applies); with DEV_MODE on, `dev_ip` stands in for the visitor's address (as on playback URLs), for
 * this page and its elements' calls.
 */
import type { RequestContext } from '../http/context.ts';
import { enforceVisitorLimit } from '../http/abuse-limit.ts';
import { ApiError, invalidRequest } from '../http/errors.ts';
import { keyOnHost, publicOrigin } from '../http/public-origin.ts';
import { readQuery, requireId, requireSiteId } from '../http/request-guard.ts';
import { DEV_IP_HEADER, devMode } from '../http/visitor.ts';
import { cacheControlFor } from '../resources/index.ts';
import { bundlePath } from './bundle.ts';
import { framedOrUnknown, notFramed } from './fetch-metadata.ts';
import { setEmbedPageHeaders } from './headers.ts';
import { embedPage, refusalPage, type FrameShape } from './html.ts';
import { embedLanguage, type EmbedLanguage } from './words.ts';
import { resolveEmbed } from './resolve.ts';
import { oembedUrl, type EmbedKind, type EmbedTarget } from './targets.ts';

const DEV_IP = /^[0-9A-Fa-f:.]{2,45}$/;

const HTML = 'text/html; charset=utf-8';

function htmlResponse(body: string, status: number, cacheControl: string): Response {
  const response = new Response(body, { status, headers: { 'content-type': HTML, 'cache-control': cacheControl } });
  setEmbedPageHeaders(response.headers);
  return response;
}

/**
 * An error as the short page an iframe shows: its status, never the content, never cached. `frame` is the layout the
 * embed URL asked for (null when no embed URL is known): a refusal posts the heights an allowed page would. In
 * `language`, else English.
 */
export function embedErrorPage(error: unknown, frame: FrameShape | null = null,
  language: EmbedLanguage = embedLanguage(undefined, null)): Response {
  const known = error instanceof ApiError ? error : null;
  if (!known) console.error('reelgate: unexpected error', error instanceof Error ? error.name : typeof error);
  const status = known?.status ?? 500;
  const response = htmlResponse(refusalPage(status, frame, language), status, 'no-store');
  if (language.negotiated) response.headers.append('vary', 'Accept-Language');
  if (known?.retryAfterSeconds != null) response.headers.set('retry-after', String(known.retryAfterSeconds));
  return response;
}

async function embed(c: RequestContext, kind: EmbedKind): Promise<Response> {
  const { request: routed, env, config } = c;
  // The frame's layout, from the URL alone: a refusal gets the same one as the content would (frame-script.ts).
  const frame: FrameShape = { kind, player: new URL(routed.url).searchParams.has('player') };
  // The page's language, from `?lang=` or the visitor's `Accept-Language` (words.ts); a refusal speaks it too.
  let language = embedLanguage(undefined, routed.headers.get('accept-language'));
  try {
    // A load that is no frame (`<object>`, a prefetch…) gets one answer, before any decision: its success or failure
    // would tell the page that made it what the policies decided (embed/fetch-metadata.ts).
    if (!framedOrUnknown(routed)) throw notFramed();
    const dev = devMode(env);
    const query = readQuery(routed, dev ? ['player', 'lang', 'dev_ip'] as const : ['player', 'lang'] as const);
    if (query.lang !== undefined) language = embedLanguage(query.lang, null);
    let visit = c;
    const devIp = dev && query.dev_ip !== undefined ? query.dev_ip : null;
    if (devIp !== null) {
      if (!DEV_IP.test(devIp)) throw invalidRequest('"dev_ip" is not an address.');
      const headers = new Headers(routed.headers);
      headers.set(DEV_IP_HEADER, devIp);
      visit = c.as(new Request(routed.url, { method: routed.method, headers }));
    }
    await enforceVisitorLimit(visit.request, env);
    const target: EmbedTarget = {
      kind,
      site: requireSiteId(c.params.site),
      id: requireId(kind === 'media' ? c.params.media : c.params.playlist, kind),
      player: query.player === undefined ? null : requireId(query.player, 'player'),
    };
    const found = await resolveEmbed(visit, target, { thumbnail: false });
    // The discovery URL names the public origin when one is configured, never what `Host` said (public-origin.ts).
    const body = embedPage({ target, title: found.title, bundle: await bundlePath(routed, env),
      oembed: oembedUrl(publicOrigin(routed, config), target), devIp, language });
    const response = htmlResponse(body, 200, cacheControlFor('embed', config, found.personal || devIp !== null));
    if (language.negotiated) response.headers.append('vary', 'Accept-Language');
    keyOnHost(response.headers, config);
    return response;
  } catch (error) {
    return embedErrorPage(error, frame, language);
  }
}

export const embedMediaRoute = (c: RequestContext): Promise<Response> => embed(c, 'media');
export const embedPlaylistRoute = (c: RequestContext): Promise<Response> => embed(c, 'playlist');
