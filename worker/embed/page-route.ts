/**
 * GET /embed/:site/media/:media and /embed/:site/playlists/:playlist — the iframe embeds (README, "Embedding without
 * scripts"): small HTML pages that any site may frame, rendering the existing elements from the worker's versioned
 * bundle. The same policies as the API decide, on the server, before anything of the content is read: a refused
 * visitor gets a short 451 page that names nothing of it. Every other failure is a short page too, with its status
 * (an iframe shows HTML, not the API's JSON). Query: `player` (a player id whose `setup_config` applies); with DEV_MODE
 * on, `dev_ip` stands in for the visitor's address (as on playback URLs), for this page and its elements' calls.
 */
import { enforceVisitorLimit } from '../abuse-limit.ts';
import { bundlePath } from '../embed/bundle.ts';
import { framedOrUnknown, notFramed } from '../embed/fetch-metadata.ts';
import { embedPage, refusalPage, type FrameShape } from '../embed/html.ts';
import { resolveEmbed } from '../embed/resolve.ts';
import { oembedUrl, type EmbedKind, type EmbedTarget } from '../embed/targets.ts';
import type { Env } from '../env.ts';
import { ApiError, invalidRequest } from '../errors.ts';
import { readQuery, requireId, requireSiteId } from '../request-guard.ts';
import { keyOnHost, publicOrigin } from '../public-origin.ts';
import { PRIVATE_NO_STORE, publicCacheControl } from '../respond.ts';
import { DEV_IP_HEADER, devMode } from '../visitor.ts';
import type { Handler, RouteRequest } from './context.ts';

const DEV_IP = /^[0-9A-Fa-f:.]{2,45}$/;
/** How long a browser or CDN may keep a page of content under no policy (it names a versioned bundle). */
const PAGE_MAX_AGE = 300;

const HTML = 'text/html; charset=utf-8';

function htmlResponse(body: string, status: number, cacheControl: string): Response {
  return new Response(body, { status, headers: { 'content-type': HTML, 'cache-control': cacheControl } });
}

/**
 * An error as the short page an iframe shows: its status, never the content, never cached. `frame` is the layout the
 * embed URL asked for (null when no embed URL is known): a refusal posts the heights an allowed page would.
 */
export function embedErrorPage(error: unknown, frame: FrameShape | null = null): Response {
  const known = error instanceof ApiError ? error : null;
  if (!known) console.error('reelgate: unexpected error', error instanceof Error ? error.name : typeof error);
  const status = known?.status ?? 500;
  const response = htmlResponse(refusalPage(status, frame), status, 'no-store');
  if (known?.retryAfterSeconds != null) response.headers.set('retry-after', String(known.retryAfterSeconds));
  return response;
}

async function embed(routed: RouteRequest, env: Env, ctx: ExecutionContext, kind: EmbedKind): Promise<Response> {
  // The frame's layout, from the URL alone: a refusal gets the same one as the content would (frame-script.ts).
  const frame: FrameShape = { kind, player: new URL(routed.url).searchParams.has('player') };
  try {
    // A load that is no frame (`<object>`, a prefetch…) gets one answer, before any decision: its success or failure
    // would tell the page that made it what the policies decided (embed/fetch-metadata.ts).
    if (!framedOrUnknown(routed)) throw notFramed();
    const dev = devMode(env);
    const query = readQuery(routed, dev ? ['player', 'dev_ip'] as const : ['player'] as const);
    let request: Request = routed;
    const devIp = dev && query.dev_ip !== undefined ? query.dev_ip : null;
    if (devIp !== null) {
      if (!DEV_IP.test(devIp)) throw invalidRequest('"dev_ip" is not an address.');
      const headers = new Headers(routed.headers);
      headers.set(DEV_IP_HEADER, devIp);
      request = new Request(routed.url, { method: routed.method, headers });
    }
    await enforceVisitorLimit(request, env);
    const target: EmbedTarget = {
      kind,
      site: requireSiteId(routed.params.site),
      id: requireId(kind === 'media' ? routed.params.media : routed.params.playlist, kind),
      player: query.player === undefined ? null : requireId(query.player, 'player'),
    };
    const found = await resolveEmbed({ request, env, ctx, config: routed.config }, target, { thumbnail: false });
    // The discovery URL names the public origin when one is configured, never what `Host` said (public-origin.ts).
    const body = embedPage({ target, title: found.title, bundle: await bundlePath(routed, env),
      oembed: oembedUrl(publicOrigin(routed, routed.config), target), devIp });
    const response = htmlResponse(body, 200, found.personal || devIp ? PRIVATE_NO_STORE : publicCacheControl(PAGE_MAX_AGE));
    keyOnHost(response.headers, routed.config);
    return response;
  } catch (error) {
    return embedErrorPage(error, frame);
  }
}

export const embedMediaRoute: Handler = (request, env, ctx) => embed(request, env, ctx, 'media');
export const embedPlaylistRoute: Handler = (request, env, ctx) => embed(request, env, ctx, 'playlist');
