/**
 * The edge worker, assembled: one front door (raw-path check, one catch, CORS and security headers once) and one
 * router: the gateway's mounts (/v2, /v1, /admin), then the site's door (request guard, preflight and abuse limit)
 * and its routes. The site's door builds one `RequestContext` per request (http/context.ts) and its route table below
 * maps each path to a resource declaration run by the one pipeline (resources/), or to the handler of the folder it
 * belongs to.
 */
import { Router, type IRequest } from 'itty-router';
import type { Env } from './env.ts';
import { embedMediaRoute, embedPlaylistRoute, oembedRoute } from './embed/index.ts';
import { gateway } from './gateway/index.ts';
import { enforceVisitorLimit } from './http/abuse-limit.ts';
import { embedAsset } from './http/assets.ts';
import { RequestContext } from './http/context.ts';
import { requestConfig, requestConfigOrNull } from './http/request-config.ts';
import { allowOrigin, applyCors, preflight, refuseOtherOrigins } from './http/cors.ts';
import { errorResponse, notFound } from './http/errors.ts';
import { DOORS, doorOf, isApi, isPlaybackPath, rawTarget } from './http/paths.ts';
import { checkRawPath, guardRequest } from './http/request-guard.ts';
import { isDressed, isOwnResponse } from './http/respond.ts';
import { applySecurityHeaders } from './http/security-headers.ts';
import { devMode } from './http/visitor.ts';
import { countRequest, flushSoon, isRecording, useMetricsConfig } from './metrics/index.ts';
import { playRoute } from './playback/index.ts';
import { renderedPageRoute } from './render/index.ts';
import { feed, gate, geo, media, player, serve } from './resources/index.ts';

export { BudgetObject } from './budget/index.ts';
export { MetricsObject } from './metrics/index.ts';

type Args = [Env, ExecutionContext];
/** A request of the site mount, carrying the context its front door built for it. */
type SiteRequest = IRequest & { context: RequestContext };
type Handler = (c: RequestContext) => Promise<Response>;

/**
 * The front door: the raw path checked once for every path, then the gateway (its own mounts and error shapes, for a
 * team's servers) or the site. Our catch gives the v2 error body, never an exception; CORS (the API's and the embeds'
 * paths only) and the security headers are set once, on every answer. One router for both (the site's routes follow
 * its door below), so a public request's URL is parsed and its routes walked once.
 */
const router = Router<IRequest, Args>({
  before: [
    (request, env) => {
      // Whether this request is counted (worker/metrics/): set before anything counts. The configuration is read
      // here, once for the request (http/request-config.ts).
      const config = requestConfigOrNull(request, env);
      if (config) useMetricsConfig(config.metrics);
      checkRawPath(request.url);
    },
  ],
  catch: (error: unknown) => {
    if (error instanceof Error && error.name === 'ConfigError') console.error('reelgate: configuration:', error.message);
    return errorResponse(error);
  },
  finally: [
    (response: Response | undefined, request: IRequest, env: Env, ctx: ExecutionContext) => {
      let out = response instanceof Response ? response : errorResponse(notFound('No such route.'));
      // The path read once, off the URL's text (as the front door's check reads it), for everything below.
      const { path } = rawTarget(request.url);
      // A JSON answer built with this path's security headers and Vary already (http/respond.ts) needs only the
      // caller's CORS; asked before a HEAD answer is copied (the copy is not marked).
      const dressed = isDressed(out) && !isPlaybackPath(path);
      // Some responses (assets, fetched) have immutable headers; the JSON answers built here do not, so they are not
      // copied. A HEAD answer is always copied without its body.
      if (request.method === 'HEAD' || !isOwnResponse(out)) out = new Response(request.method === 'HEAD' ? null : out.body, out);
      const config = requestConfigOrNull(request, env);
      if (!dressed) {
        applyCors(request, out, config, path);
        applySecurityHeaders(request, out, path);
      } else if (isApi(path)) {
        allowOrigin(request, out.headers, config);
      }
      // Counted in this isolate, sent in the background every few seconds (worker/metrics/): no I/O on the answer's path.
      if (isRecording()) {
        countRequest(DOORS.indexOf(doorOf(path)), out.status);
        flushSoon(env, (promise) => ctx.waitUntil(promise));
      }
      return out;
    },
  ],
})
  .all('/v2/*', gateway.fetch)
  .all('/v1/*', gateway.fetch)
  .all('/admin/*', gateway.fetch);

/**
 * The site's door, for the public API, the embeds and the pages (every path the gateway does not take): read methods
 * only, the configuration (read once for the request) and everything else a public request travels with in one context,
 * preflight, other origins refused, and the visitors' abuse limit on /api/. Answers a preflight; otherwise nothing, and
 * the site's routes below take the request.
 */
async function siteDoor(request: IRequest, env: Env, ctx: ExecutionContext): Promise<Response | undefined> {
  guardRequest(request);
  const config = requestConfig(request, env);
  request.context = new RequestContext(request, env, ctx, config);
  const preflighted = preflight(request, config, devMode(env));
  if (preflighted) return preflighted;
  refuseOtherOrigins(request, config);
  // The path as checked at the front door (checkRawPath): plain characters only, so it is the URL's pathname.
  if (isApi(rawTarget(request.url).path)) await enforceVisitorLimit(request, env);
  return undefined;
}
router.all('*', siteDoor);

/** GET and HEAD share each route; the route's parameters join the request's context. */
function read(path: string, handler: Handler): void {
  const h = (request: IRequest) => {
    const { context } = request as SiteRequest;
    context.params = request.params;
    return handler(context);
  };
  router.get(path, h);
  router.head(path, h);
}

// The public API: each resource declared once (worker/resources/), served by the one pipeline.
read('/api/sites/:site/playlists/:playlist', serve(feed));
read('/api/sites/:site/media/:media', serve(media));
read('/api/sites/:site/players/:player', serve(player));
read('/api/geo', serve(geo));
read('/api/gate/:policy', serve(gate));
// The bytes of content under a policy (worker/playback/), the embeds and oEmbed (worker/embed/), the bundle's files.
read('/api/play/*', playRoute);
read('/embed/:site/media/:media', embedMediaRoute);
read('/embed/:site/playlists/:playlist', embedPlaylistRoute);
read('/oembed', oembedRoute);
read('/embed/:file', embedAsset);
router.all('/api/*', () => {
  throw notFound('No such route.');
});
// Pages get their elements' first state as HTML (worker/render/), read from the same resources as the visitor.
read('*', renderedPageRoute);

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
