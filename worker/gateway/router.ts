/**
 * The gateway, mounted on the worker's front door (worker/index.ts): `/v2/...` for a team's servers, `/v1/...` for
 * integrations still on the deprecated API, and `/admin/...` for the operator. The front door's raw-path check
 * (worker/http/request-guard.ts) has refused anything but a plain path, and it sets the security headers. Every refusal
 * is the v2 error format, but the v1 shape for a v1 call: a plain path under `/v1/`.
 */
import { Router, type IRequest } from 'itty-router';
import { shareOf } from '../budget/index.ts';
import { errorResponse } from '../http/errors.ts';
import { rawTarget } from '../http/paths.ts';
import { requestConfig } from '../http/request-config.ts';
import type { Config } from '../config.ts';
import type { Env } from '../env.ts';
import { RATE_LIMIT_HEADER } from '../contract/v2-types.ts';
import type { AccessKey } from './access-keys.ts';
import { adminRouter } from './admin/router.ts';
import { countedCall } from './call-metrics.ts';
import { gatewayNotFound, invalid, methodNotAllowed, V2_ERRORS } from './errors.ts';
import { authenticate, outcomeResponse, performCall, shareHeaders } from './forward.ts';
import { readIdempotencyKey } from './idempotency.ts';
import { checkBody, checkQuery, readBoundedText } from './request-checks.ts';
import { handleV1, V1_ERRORS } from './v1/v1-routes.ts';
import { authenticateUpload, type UploadCaller } from './uploads.ts';
import { matchV2Route, type RouteLookup } from './v2-routes.ts';

/** The path exactly as sent (the front door's own reading, worker/http/request-guard.ts). */
export function rawPath(url: string): string {
  return rawTarget(url).path;
}

async function handleV2(request: Request, env: Env, path: string): Promise<Response> {
  const lookup = matchV2Route(request.method, path);
  // The upload routes carry the upload's own token, not an access key: they are held to the key that started it.
  const upload = lookup.kind === 'match' && lookup.route.spec.credential === 'upload'
    ? await authenticateUpload(request, env, lookup.route.params.upload!)
    : null;
  const key = upload?.key ?? await authenticate(request, env);
  const response = await countedCall(key.id, async () => {
    try {
      return await forwardV2(request, env, lookup, key, upload);
    } catch (error) {
      return errorResponse(error, V2_ERRORS);
    }
  });
  // A known caller always learns its share, refusals included.
  if (!response.headers.has(RATE_LIMIT_HEADER)) {
    const share = await shareOf(env, key.id);
    for (const [name, value] of Object.entries(shareHeaders(share))) response.headers.set(name, value);
  }
  return response;
}

async function forwardV2(
  request: Request, env: Env, lookup: RouteLookup, key: AccessKey, upload: UploadCaller | null,
): Promise<Response> {
  switch (lookup.kind) {
    case 'invalid':
      throw invalid(lookup.reason);
    case 'invalid_playlist_type':
      throw invalid(lookup.reason, 400, 'invalid_playlist_type');
    case 'not_found':
      throw invalid('No such v2 route (see the endpoint table of the Management API v2).', 404, 'not_found');
    case 'method_not_allowed':
      throw methodNotAllowed(lookup.allow);
    case 'match':
      break;
  }
  const route = upload ? { ...lookup.route, site: upload.site } : lookup.route;
  const query = checkQuery(route.spec, new URL(request.url).search);
  if (!query.ok) throw invalid(query.description, query.status, query.code);
  const text = await readBoundedText(request);
  if (!text.ok) throw invalid(text.description, text.status, text.code);
  const body = checkBody(route.spec, text.value, request.headers.get('content-type'));
  if (!body.ok) throw invalid(body.description, body.status, body.code);
  const idempotencyKey = readIdempotencyKey(request);
  if (idempotencyKey === 'invalid') throw invalid('Idempotency-Key must be 1 to 255 visible ASCII characters.');
  const outcome = await performCall({
    env, key, route, query: query.value, body: body.value, idempotencyKey,
    ...(upload ? { authorization: upload.authorization } : {}),
  });
  return outcomeResponse(outcome);
}

/** A mounted handler gets the path as sent and the request's configuration (read once, http/request-config.ts). */
type Mounted = (request: Request, env: Env, path: string, config: Config) => Promise<Response>;
const at = (handler: Mounted) => (request: IRequest, env: Env) =>
  handler(request, env, rawPath(request.url), requestConfig(request, env));

/** The gateway's mounts; a bare `/v1` is nobody's v1 call, so it gets the v2 body like every other refusal. */
export const gateway = Router<IRequest, [Env]>({
  catch: (error, request) => errorResponse(error, rawPath(request.url).startsWith('/v1/') ? V1_ERRORS : V2_ERRORS),
})
  .all('/v1/:call+', at(handleV1))
  .all('/v1', () => {
    throw gatewayNotFound('No such route; v1 calls are /v1/<route>, e.g. /v1/videos/list.');
  })
  .all('/admin/*', adminRouter.fetch)
  .all('/v2/*', at(handleV2));

/** The gateway alone, without the front door's headers (tests that call it with an env of their own). */
export const gatewayFetch = (request: Request, env: Env): Promise<Response> => gateway.fetch(request, env);
