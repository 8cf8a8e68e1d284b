/**
 * The gateway's front door: `/v2/...` for a team's servers, `/v1/...` for integrations still on the deprecated API, and
 * `/admin/...` for the operator. `worker/index.ts` hands these paths here before the public router (whose guard only
 * knows read methods), after its raw-path check (worker/request-guard.ts) has refused anything but a plain path.
 * Every refusal is the v2 error format (the v1 shape for a v1 call: a plain path under `/v1/`), with security headers.
 */
import { budgetStub } from '../budget/upstream.ts';
import { rawTarget } from '../request-guard.ts';
import type { Env } from '../env.ts';
import { applySecurityHeaders } from '../security-headers.ts';
import { RATE_LIMIT_HEADER } from '../contract/v2-types.ts';
import type { AccessKey } from './access-keys.ts';
import { handleAdmin } from './admin-routes.ts';
import { gatewayErrorResponse, gatewayNotFound, invalid, methodNotAllowed } from './errors.ts';
import { authenticate, outcomeResponse, performCall, shareHeaders } from './forward.ts';
import { readIdempotencyKey } from './idempotency.ts';
import { checkBody, checkQuery, readBoundedText } from './request-checks.ts';
import { handleV1, v1ErrorResponse } from './v1/v1-routes.ts';
import { authenticateUpload, type UploadCaller } from './uploads.ts';
import { matchV2Route, type RouteLookup } from './v2-routes.ts';

const PREFIXES = ['/v2/', '/v1/', '/admin/'];

/** The path exactly as sent (the front door's own reading, worker/request-guard.ts). */
export function rawPath(url: string): string {
  return rawTarget(url).path;
}

export function isGatewayRequest(request: Request): boolean {
  const path = rawPath(request.url);
  return PREFIXES.some((prefix) => path.startsWith(prefix)) || path === '/v2' || path === '/v1' || path === '/admin';
}

async function handleV2(request: Request, env: Env, path: string): Promise<Response> {
  const lookup = matchV2Route(request.method, path);
  // The upload routes carry the upload's own token, not an access key: they are held to the key that started it.
  const upload = lookup.kind === 'match' && lookup.route.spec.credential === 'upload'
    ? await authenticateUpload(request, env, lookup.route.params.upload!)
    : null;
  const key = upload?.key ?? await authenticate(request, env);
  let response: Response;
  try {
    response = await forwardV2(request, env, lookup, key, upload);
  } catch (error) {
    response = gatewayErrorResponse(error);
  }
  // A known caller always learns its share, refusals included.
  if (!response.headers.has(RATE_LIMIT_HEADER)) {
    const share = await budgetStub(env).shareOf(key.id);
    response = new Response(response.body, response);
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

export async function gatewayFetch(request: Request, env: Env): Promise<Response> {
  const path = rawPath(request.url);
  // The v1 error shape is for v1 calls only: a plain path under `/v1/`. A refused path or a bare `/v1` is nobody's v1
  // call, so it gets the v2 body like every other front door.
  let v1 = false;
  let response: Response;
  try {
    v1 = path.startsWith('/v1/');
    if (v1) response = await handleV1(request, env, path);
    else if (path === '/v1') throw gatewayNotFound('No such route; v1 calls are /v1/<route>, e.g. /v1/videos/list.');
    else if (path === '/admin' || path.startsWith('/admin/')) response = await handleAdmin(request, env, path);
    else response = await handleV2(request, env, path);
  } catch (error) {
    response = v1 ? v1ErrorResponse(error) : gatewayErrorResponse(error);
  }
  // Some responses are built with immutable headers; a copy takes the security headers.
  const out = new Response(response.body, response);
  if (!out.headers.has('cache-control')) out.headers.set('cache-control', 'no-store');
  applySecurityHeaders(request, out);
  return out;
}

