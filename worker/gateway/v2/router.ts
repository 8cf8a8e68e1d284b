/**
 * `/v2/...`: the Management API for a team's servers, behind access keys. Each call is looked up in the one v2 route
 * table (v2-routes.ts, the platform's endpoint table), held to its spec (query, body, idempotency key), and forwarded
 * through the budget's gateway lanes (forward.ts); every answer tells the key its share of the budget.
 */
import { Router, type IRequest } from 'itty-router';
import { shareOf } from '../../budget/index.ts';
import { RATE_LIMIT_HEADER } from '../../contract/v2-types.ts';
import type { Env } from '../../env.ts';
import { errorResponse } from '../../http/errors.ts';
import { rawTarget } from '../../http/paths.ts';
import type { AccessKey } from '../access-keys.ts';
import { countedCall } from '../call-metrics.ts';
import { invalid, methodNotAllowed, V2_ERRORS } from '../errors.ts';
import { authenticate, outcomeResponse, performCall, shareHeaders } from '../forward.ts';
import { readIdempotencyKey } from '../idempotency.ts';
import { checkBody, checkQuery, readBoundedText } from '../request-checks.ts';
import { authenticateUpload, type UploadCaller } from '../uploads.ts';
import { matchV2Route, type RouteLookup } from '../v2-routes.ts';

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

export const v2Router = Router<IRequest, [Env]>({ base: '/v2' })
  .all('*', (request: IRequest, env: Env) => handleV2(request, env, rawTarget(request.url).path));
