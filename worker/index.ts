/**
 * The edge worker, assembled: one front door (raw-path check, one catch, CORS and security headers once) with two
 * mounts, the gateway (/v2, /v1, /admin) and the site (request guard, preflight and abuse limit before the public
 * routes). Policy lives in the modules imported.
 */
import { Router, type IRequest } from 'itty-router';
import { enforceVisitorLimit } from './abuse-limit.ts';
import { embedAsset, pageAsset } from './assets.ts';
import { getConfig, type Config } from './config.ts';
import { applyCors, preflight, refuseOtherOrigins } from './cors.ts';
import type { Env } from './env.ts';
import { errorResponse, notFound } from './errors.ts';
import { checkRawPath, guardRequest, rawTarget } from './request-guard.ts';
import type { Handler, RouteRequest } from './routes/context.ts';
import { feedRoute } from './routes/feed.ts';
import { embedMediaRoute, embedPlaylistRoute } from './routes/embed.ts';
import { gateRoute, geoRoute } from './routes/geo.ts';
import { mediaRoute } from './routes/media.ts';
import { oembedRoute } from './routes/oembed.ts';
import { playRoute } from './routes/play.ts';
import { playerRoute } from './routes/player.ts';
import { apiSource } from './render/api-source.ts';
import { renderPage } from './render/page.ts';
import { keyOnHost } from './public-origin.ts';
import { isOwnResponse } from './respond.ts';
import { applySecurityHeaders } from './security-headers.ts';
import { devMode } from './visitor.ts';
import { gateway } from './gateway/router.ts';

export { BudgetObject } from './budget/budget-object.ts';

type Args = [Env, ExecutionContext];

function configOrNull(env: Env): Config | null {
  try {
    return getConfig(env);
  } catch {
    return null;
  }
}

/** The public API, the embeds and the page: read methods only, preflight, and the visitors' abuse limit on /api/. */
const site = Router<IRequest, Args>({
  before: [
    (request) => {
      guardRequest(request);
    },
    // The configuration, parsed once per isolate, rides with the request: routes read `request.config`.
    (request, env: Env) => preflight(request, request.config = getConfig(env), devMode(env)) ?? undefined,
    (request) => {
      refuseOtherOrigins(request as unknown as Request, request.config);
    },
    async (request, env: Env) => {
      // The path as checked at the front door (checkRawPath): plain characters only, so it is the URL's pathname.
      if (rawTarget(request.url).path.startsWith('/api/')) await enforceVisitorLimit(request, env);
    },
  ],
});

/** GET and HEAD share each route. */
function read(path: string, handler: Handler): void {
  const h = (request: IRequest, env: Env, ctx: ExecutionContext) => handler(request as RouteRequest, env, ctx);
  site.get(path, h);
  site.head(path, h);
}

read('/api/sites/:site/playlists/:playlist', feedRoute);
read('/api/sites/:site/media/:media', mediaRoute);
read('/api/sites/:site/players/:player', playerRoute);
read('/api/play/*', playRoute);
read('/api/geo', geoRoute);
read('/api/gate/:policy', gateRoute);
read('/embed/:site/media/:media', embedMediaRoute);
read('/embed/:site/playlists/:playlist', embedPlaylistRoute);
read('/oembed', oembedRoute);
read('/embed/:file', (request, env) => embedAsset(request, env));
site.all('/api/*', () => {
  throw notFound('No such route.');
});
// Pages get their elements' first state as HTML (worker/render/), read through this same router as the visitor.
read('*', async (request, env, ctx) => {
  const page = await pageAsset(request, env);
  if (request.method !== 'GET' || page.status !== 200 || !page.headers.get('content-type')?.startsWith('text/html')) return page;
  const visit = { request, env, ctx, config: request.config };
  const rendered = await renderPage(page, apiSource(visit, (internal) => router.fetch(internal, env, ctx)));
  // Its links and JSON-LD name the request's host unless a public origin is configured: then kept per host.
  keyOnHost(rendered.headers, request.config);
  return rendered;
});

/**
 * The front door: the raw path checked once for every path, then the gateway (its own mounts and error shapes, for a
 * team's servers) or the site. Our catch gives the v2 error body, never an exception; CORS (the API's and the embeds'
 * paths only) and the security headers are set once, on every answer.
 */
const router = Router<IRequest, Args>({
  before: [
    (request) => {
      checkRawPath(request.url);
    },
  ],
  catch: (error: unknown) => {
    if (error instanceof Error && error.name === 'ConfigError') console.error('reelgate: configuration:', error.message);
    return errorResponse(error);
  },
  finally: [
    (response: Response | undefined, request: IRequest, env: Env) => {
      let out = response instanceof Response ? response : errorResponse(notFound('No such route.'));
      // Some responses (assets, fetched) have immutable headers; the JSON answers built here do not, so they are not
      // copied. A HEAD answer is always copied without its body.
      if (request.method === 'HEAD' || !isOwnResponse(out)) out = new Response(request.method === 'HEAD' ? null : out.body, out);
      applyCors(request as unknown as Request, out, configOrNull(env));
      applySecurityHeaders(request as unknown as Request, out);
      return out;
    },
  ],
})
  .all('/v2/*', gateway.fetch)
  .all('/v1/*', gateway.fetch)
  .all('/admin/*', gateway.fetch)
  .all('*', site.fetch);

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => router.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
