/**
 * The edge worker, assembled: the raw-path check once for every front door, then either the gateway (/v2, /v1,
 * /admin) or the public router (request guard, preflight and abuse limit before the routes; our own catch, the v2
 * error body, never an exception; CORS and security headers on every answer). Policy lives in the modules imported.
 */
import { Router, type IRequest } from 'itty-router';
import { enforceVisitorLimit } from './abuse-limit.ts';
import { embedAsset, pageAsset } from './assets.ts';
import { getConfig, type Config } from './config.ts';
import { applyCors, preflight } from './cors.ts';
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
import { isOwnResponse } from './respond.ts';
import { applySecurityHeaders } from './security-headers.ts';
import { devMode } from './visitor.ts';
import { gatewayFetch, isGatewayRequest } from './gateway/router.ts';

export { BudgetObject } from './budget/budget-object.ts';

type Args = [Env, ExecutionContext];

function configOrNull(env: Env): Config | null {
  try {
    return getConfig(env);
  } catch {
    return null;
  }
}

const router = Router<IRequest, Args>({
  before: [
    (request) => {
      guardRequest(request);
    },
    (request, env: Env) => preflight(request, getConfig(env), devMode(env)) ?? undefined,
    async (request, env: Env) => {
      // The path as checked at the front door (checkRawPath): plain characters only, so it is the URL's pathname.
      if (rawTarget(request.url).path.startsWith('/api/')) await enforceVisitorLimit(request, env);
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
      applyCors(request as unknown as Request, out, configOrNull(env), rawTarget(request.url).path);
      applySecurityHeaders(request as unknown as Request, out);
      return out;
    },
  ],
});

/** GET and HEAD share each route. */
function read(path: string, handler: Handler): void {
  const h = (request: IRequest, env: Env, ctx: ExecutionContext) => handler(request as RouteRequest, env, ctx);
  router.get(path, h);
  router.head(path, h);
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
router.all('/api/*', () => {
  throw notFound('No such route.');
});
// Pages get their elements' first state as HTML (worker/render/), read through this same router as the visitor.
read('*', async (request, env, ctx) => {
  const page = await pageAsset(request, env);
  if (request.method !== 'GET' || page.status !== 200 || !page.headers.get('content-type')?.startsWith('text/html')) return page;
  return renderPage(page, apiSource(request as unknown as Request, env, (internal) => router.fetch(internal, env, ctx)));
});

/** The gateway answers servers, not pages: no CORS, but the same security headers as every other answer. */
async function gatewayAnswer(request: Request, env: Env): Promise<Response> {
  const response = await gatewayFetch(request, env);
  const out = new Response(response.body, response);
  applySecurityHeaders(request, out);
  return out;
}

/** A path refused at the front door, before any routing: the v2 error body, with CORS and security headers. */
function refusedPath(request: Request, env: Env, error: unknown): Response {
  const out = errorResponse(error);
  applyCors(request, out, configOrNull(env));
  applySecurityHeaders(request, out);
  return out;
}

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => {
    try {
      checkRawPath(request.url);
    } catch (error) {
      return refusedPath(request, env, error);
    }
    // /v2, /v1 and /admin (writes included) belong to the gateway for a team's servers; everything else is public.
    return isGatewayRequest(request) ? gatewayAnswer(request, env) : router.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
