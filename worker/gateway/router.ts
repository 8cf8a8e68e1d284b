/**
 * The gateway, mounted on the worker's front door (worker/index.ts): `/v2/...` for a team's servers (v2/), `/v1/...`
 * for integrations still on the deprecated API (v1/), and `/admin/...` for the operator (admin/), each a router of its
 * own mounted here; what they share (access keys, the forwarding through the budget, idempotency, audit, purge after
 * writes) sits beside them. The front door's raw-path check (worker/http/request-guard.ts) has refused anything but a
 * plain path, and it sets the security headers.
 */
import { Router, type IRequest } from 'itty-router';
import { errorResponse } from '../http/errors.ts';
import { RequestContext } from '../http/context.ts';
import { rawTarget } from '../http/paths.ts';
import { requestConfig } from '../http/request-config.ts';
import type { Env } from '../env.ts';
import { adminRouter } from './admin/router.ts';
import { V2_ERRORS } from './errors.ts';
import { v1Router } from './v1/router.ts';
import { V1_ERRORS } from './v1/v1-routes.ts';
import { v2Router } from './v2/router.ts';

/** The path exactly as sent (the front door's own reading, worker/http/request-guard.ts). */
export function rawPath(url: string): string {
  return rawTarget(url).path;
}

/**
 * The gateway's mounts. Each request gets the context a public request gets (http/context.ts: the request, env,
 * execution context and the configuration read once for it); a refusal is the v2 error body, but the v1 shape for a
 * call under `/v1/`.
 */
export const gateway = Router<IRequest, [Env, ExecutionContext]>({
  before: [
    (request, env, ctx) => {
      request.context = new RequestContext(request, env, ctx, requestConfig(request, env));
    },
  ],
  catch: (error, request) => errorResponse(error, rawPath(request.url).startsWith('/v1/') ? V1_ERRORS : V2_ERRORS),
})
  .all('/v1/*', v1Router.fetch)
  .all('/admin/*', adminRouter.fetch)
  .all('/v2/*', v2Router.fetch);

/** The gateway alone, without the front door's headers (tests that call it with an env of their own). */
export const gatewayFetch = (request: Request, env: Env, ctx: ExecutionContext): Promise<Response> => gateway.fetch(request, env, ctx);
