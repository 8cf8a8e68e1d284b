/**
 * The v1 compatibility layer: `/v1/<route>` calls with v1 parameters (in the query, or a form body on POST) are mapped
 * to v2 by the migration helpers (`mapV1Route`), performed through the same gateway path as `/v2` (scopes, lanes,
 * idempotency, audit, purge), and answered in v1 shape. Only the read routes, the tag delete/update actions and usage
 * show are translated; the routes the spec drops answer 410 saying so, the other v1 routes 501 naming their v2 route.
 * Authentication is the reelgate access key (v1 signatures are gone, as in v2); `site_id` names the v1 account's site
 * and may be left out when the key is limited to one site.
 */
import type { Env } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { errorItemsFromBody } from '../../upstream/error-body.ts';
import { InvalidArgumentError } from '../../upstream/errors.ts';
import { mapV1Route, V1_ROUTES, v1DateToIso } from '../../upstream/v1-migration.ts';
import { ALL_SITES, type AccessKey } from '../access-keys.ts';
import { GatewayError, schemaMissing } from '../errors.ts';
import { authenticate, performCall, type Outcome } from '../forward.ts';
import { readIdempotencyKey } from '../idempotency.ts';
import { readBoundedText } from '../request-checks.ts';
import { ID_PATTERN, matchV2Route } from '../v2-routes.ts';
import { v1Error, V1_ANSWERS } from './v1-answers.ts';

const MAX_FORM_BYTES = 16 * 1024;
const DEFAULT_RESULT_LIMIT = 50;
const MAX_RESULT_LIMIT = 500;
/** v1 list routes the layer pages with `result_limit` / `result_offset`. */
const PAGED = new Set(['videos/list', 'channels/list', 'players/list', 'videos/tracks/list']);
/** The old signature parameters: meaningless now (the access key authenticates), accepted and ignored. */
const IGNORED = new Set(['api_key', 'api_signature', 'api_nonce', 'api_timestamp', 'api_kit', 'api_format']);
const ROUTE_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'videos/list': ['result_limit', 'result_offset'],
  'videos/show': ['video_key'],
  'channels/list': ['result_limit', 'result_offset'],
  'channels/show': ['channel_key', 'type'],
  'players/list': ['result_limit', 'result_offset'],
  'players/show': ['player_key'],
  'videos/conversions/list': ['video_key'],
  'videos/conversions/show': ['video_key', 'conversion_key'],
  'videos/tracks/list': ['video_key', 'result_limit', 'result_offset'],
  'videos/tracks/show': ['video_key', 'track_key'],
  'videos/thumbnails/show': ['thumbnail_key'],
  'accounts/tags/delete': ['tag'],
  'accounts/tags/update': ['tag', 'tag_new'],
  'accounts/usage/show': ['start_date', 'end_date'],
};

class V1Refusal extends GatewayError {}
const refuse = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  new V1Refusal(status, code, message, headers);

function v1Json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

/** Any failure under `/v1` in the v1 error shape; the status stays the HTTP one the v2 gateway would give. */
export function v1ErrorResponse(thrown: unknown): Response {
  const error = schemaMissing(thrown) ?? thrown;
  if (error instanceof GatewayError) {
    return v1Json(v1Error([{ code: error.code, description: error.description }]), error.status, error.headers);
  }
  if (error instanceof ApiError) {
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds != null) headers['retry-after'] = String(error.retryAfterSeconds);
    return v1Json(v1Error([{ code: error.code, description: error.description }]), error.status, headers);
  }
  if (error instanceof InvalidArgumentError) {
    // The helpers' messages name the v1 parameter and never echo more than a short, quoted part of it.
    return v1Json(v1Error([{ code: 'param_invalid', description: error.message }]), 400);
  }
  console.error('reelgate gateway v1: unexpected error', error instanceof Error ? error.name : typeof error);
  return v1Json(v1Error([{ code: 'internal_error', description: 'Something went wrong on our side.' }]), 500);
}

async function readParams(request: Request): Promise<URLSearchParams> {
  const params = new URLSearchParams(new URL(request.url).search);
  if (request.method !== 'POST') return params;
  const text = await readBoundedText(request, MAX_FORM_BYTES);
  if (!text.ok) throw refuse(text.status, text.code, text.description);
  if (text.value === '') return params;
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw refuse(415, 'unsupported_media_type', 'v1 calls send their parameters in the query or as a form body.');
  }
  for (const [name, value] of new URLSearchParams(text.value)) params.append(name, value);
  return params;
}

function checkParams(name: string, params: URLSearchParams): void {
  const allowed = new Set([...(ROUTE_PARAMS[name] ?? []), 'site_id']);
  const seen = new Set<string>();
  for (const [param, value] of params) {
    if (seen.has(param)) throw refuse(400, 'param_invalid', `The parameter ${param} is given more than once.`);
    seen.add(param);
    if (param === 'api_format' && value !== 'json') throw refuse(400, 'param_invalid', 'Only api_format=json is supported.');
    if (IGNORED.has(param) || allowed.has(param)) continue;
    throw refuse(400, 'param_invalid', `A parameter is not supported by ${name}; it accepts ${[...allowed].join(', ')}.`);
  }
}

function siteFor(key: AccessKey, params: URLSearchParams): string {
  const given = params.get('site_id');
  if (given !== null) {
    if (!ID_PATTERN.test(given)) throw refuse(400, 'param_invalid', 'site_id is not a valid site id.');
    return given;
  }
  const only = key.sites.length === 1 && key.sites[0] !== ALL_SITES ? key.sites[0] : undefined;
  if (!only) throw refuse(400, 'param_missing', 'site_id is required (v1 accounts are v2 sites).');
  return only;
}

/** The v1 list window as v2 paging; v2 pages are whole, so the offset must fall on a page boundary. */
function paging(params: URLSearchParams): Array<[string, string]> {
  const limitText = params.get('result_limit');
  const offsetText = params.get('result_offset');
  const limit = limitText === null ? DEFAULT_RESULT_LIMIT : Number(limitText);
  const offset = offsetText === null ? 0 : Number(offsetText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RESULT_LIMIT) {
    throw refuse(400, 'param_invalid', `result_limit must be 1 to ${MAX_RESULT_LIMIT}.`);
  }
  if (!Number.isInteger(offset) || offset < 0 || offset % limit !== 0 || offset / limit >= 100_000) {
    throw refuse(400, 'param_invalid', 'result_offset must be a multiple of result_limit.');
  }
  return [['page', String(offset / limit + 1)], ['page_length', String(limit)]];
}

function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null || value.trim() === '') throw refuse(400, 'param_missing', `${name} is required.`);
  return value.trim();
}

function usageDate(value: string, name: string): string {
  const iso = v1DateToIso(value, name);
  if (!iso) throw refuse(400, 'param_missing', `${name} is required.`);
  return iso.slice(0, 10);
}

/** The v2 body of the v1 actions (the v1 parameters renamed), undefined for reads. */
function actionBody(name: string, params: URLSearchParams): Record<string, unknown> | undefined {
  switch (name) {
    case 'accounts/tags/delete':
      return { metadata: { tag: required(params, 'tag') } };
    case 'accounts/tags/update':
      return { metadata: { tag: required(params, 'tag'), new_tag: required(params, 'tag_new') } };
    case 'accounts/usage/show':
      return { metadata: {
        start_date: usageDate(required(params, 'start_date'), 'start_date'),
        end_date: usageDate(required(params, 'end_date'), 'end_date'),
      } };
    default:
      return undefined;
  }
}

function parseJson(outcome: Outcome): unknown {
  try {
    return JSON.parse(outcome.body);
  } catch {
    throw refuse(502, 'upstream_unavailable', 'The video platform gave an answer that could not be read.');
  }
}

/** A failed v2 outcome as the v1 error, keeping the HTTP status and the rate-limit headers. */
function failure(outcome: Outcome): Response {
  const items = errorItemsFromBody(outcome.body, outcome.status);
  return v1Json(v1Error(items), outcome.status, outcome.headers);
}

export async function handleV1(request: Request, env: Env, path: string): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'POST') {
    throw refuse(405, 'method_not_allowed', 'v1 calls are GET or POST.', { allow: 'GET, POST' });
  }
  const key = await authenticate(request, env);
  const name = path.slice('/v1/'.length).replace(/\/$/, '');
  const known = V1_ROUTES[name];
  if (!known) throw refuse(404, 'not_found', `/v1/${name.slice(0, 80)} is not a v1 route.`);
  if ('unsupported' in known) {
    throw refuse(410, 'not_supported', `/v1/${name} is not supported: ${known.reason}`);
  }
  if (!V1_ANSWERS[name]) {
    throw refuse(501, 'not_supported',
      `/v1/${name} is not translated by the v1 compatibility layer; call ${known.method} ${known.path} through /v2 instead.`);
  }

  const params = await readParams(request);
  checkParams(name, params);
  const site = siteFor(key, params);
  const query = new URLSearchParams([...params].filter(([param]) => !IGNORED.has(param) && param !== 'site_id'));
  const mapped = mapV1Route(`/v1/${name}?${query}`, { siteId: site });
  if ('unsupported' in mapped) throw refuse(410, 'not_supported', mapped.reason);
  const missing = /<([a-z_]+)>/.exec(mapped.path);
  if (missing) throw refuse(400, 'param_missing', `${v1ParamFor(missing[1]!)} is required.`);

  const idempotencyKey = readIdempotencyKey(request);
  if (idempotencyKey === 'invalid') throw refuse(400, 'invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  const body = actionBody(name, params);
  const run = async (method: string, v2Path: string, query: Array<[string, string]>): Promise<Outcome> => {
    const lookup = matchV2Route(method, v2Path);
    if (lookup.kind !== 'match') throw refuse(400, 'param_invalid', 'The parameters do not name a valid resource.');
    return performCall({ env, key, route: lookup.route, query, body, idempotencyKey });
  };

  const first = await run(mapped.method, mapped.path, PAGED.has(name) ? paging(params) : []);
  if (first.status < 200 || first.status >= 300) return failure(first);
  let extra: unknown;
  if (name === 'videos/conversions/list' && mapped.also?.[0]) {
    const originals = await run(mapped.also[0].method, mapped.also[0].path, []);
    if (originals.status < 200 || originals.status >= 300) return failure(originals);
    extra = parseJson(originals);
  }
  return v1Json(V1_ANSWERS[name]!(parseJson(first), extra), first.status, first.headers);
}

function v1ParamFor(placeholder: string): string {
  const names: Record<string, string> = {
    media_id: 'video_key', playlist_id: 'channel_key', player_id: 'player_key', rendition_id: 'conversion_key',
    track_id: 'track_key', thumbnail_id: 'thumbnail_key', playlist_type: 'type', site_id: 'site_id',
  };
  return names[placeholder] ?? placeholder;
}
