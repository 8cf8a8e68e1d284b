/**
 * The v1 compatibility layer: `/v1/<route>` calls with v1 parameters (in the query, or a form body on POST) are mapped
 * to v2 by the migration helpers (`mapV1Route`), performed through the same gateway path as `/v2` (scopes, lanes,
 * idempotency, audit, purge), and answered in v1 shape. Only the read routes, the tag delete/update actions and usage
 * show are translated; the routes the spec drops answer 410 saying so, the other v1 routes 501 naming their v2 route.
 * Authentication is a reelgate access key, either as `Authorization: Bearer rg_…` or as an unmodified v1 client signs
 * (v1-signature.ts: the key id as `api_key`, its v1 secret); `site_id` names the v1 account's site and may be left out
 * when the key is limited to one site. List routes take v1's `result_limit` / `result_offset` (any offset) and, for
 * videos and channels, `search` / `statuses_filter`, mapped onto v2 paging and `q`.
 */
import type { Env } from '../../env.ts';
import { ApiError, type ErrorShape } from '../../http/errors.ts';
import { noStoreJson } from '../../http/respond.ts';
import { errorItemsFromBody, InvalidArgumentError } from '../../upstream/index.ts';
import { mapV1Route, V1_ROUTES, v1DateToIso } from './v1-migration.ts';
import { readPlaylistType } from '../../contract/path-segments.ts';
import { MAX_PAGE_LENGTH, RATE_LIMIT_HEADER, RATE_REMAINING_HEADER } from '../../contract/v2-types.ts';
import { ALL_SITES, type AccessKey } from '../access-keys.ts';
import { schemaMissing, V2_ERRORS } from '../errors.ts';
import { gatewayDb } from '../db.ts';
import { authenticate, performCall, RATE_RESET_HEADER, type Outcome } from '../forward.ts';
import { readIdempotencyKey } from '../idempotency.ts';
import { KeyStore } from '../key-store.ts';
import { readBoundedText } from '../request-checks.ts';
import { ID_PATTERN, matchV2Route } from '../v2-routes.ts';
import { v1Error, V1_ANSWERS, type V1Ok } from './v1-answers.ts';
import {
  acceptNonce, deriveV1Secret, isSignedCall, readSignedCall, signatureMatches, signatureRefused,
} from './v1-signature.ts';
import { countedCall } from '../call-metrics.ts';

const MAX_FORM_BYTES = 16 * 1024;
const DEFAULT_RESULT_LIMIT = 50;
const MAX_RESULT_LIMIT = MAX_PAGE_LENGTH;
const MAX_RESULT_OFFSET = 1_000_000;
const MAX_SEARCH_LENGTH = 200;
/** v1 list routes the layer pages with `result_limit` / `result_offset`, and the key of their items in the v2 answer. */
const PAGED: Readonly<Record<string, string>> = {
  'videos/list': 'media', 'channels/list': 'playlists', 'players/list': 'players', 'videos/tracks/list': 'text_tracks',
};
/** v1 `search` looks in these v2 fields (text fields match by "contains", the others exactly). */
const SEARCH_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'videos/list': ['title', 'description', 'author', 'tags', 'id'],
  'channels/list': ['title', 'description', 'author', 'id'],
};
/** v1 `statuses_filter` values: the media statuses, the same words in v1 and v2. */
const MEDIA_STATUSES = ['created', 'processing', 'ready', 'updating', 'failed'] as const;
/** The signature parameters: checked by v1-signature.ts on a signed call, ignored beside a Bearer key. */
const IGNORED = new Set(['api_key', 'api_signature', 'api_nonce', 'api_timestamp', 'api_kit', 'api_format']);
const ROUTE_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'videos/list': ['result_limit', 'result_offset', 'search', 'statuses_filter'],
  'videos/show': ['video_key'],
  'channels/list': ['result_limit', 'result_offset', 'search'],
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

const refuse = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  new ApiError(status, code, message, null, headers);

/**
 * Any failure under `/v1/` in the v1 error shape; the status stays the HTTP one the v2 gateway would give. The
 * migration helpers' refusals name the v1 parameter and never echo more than a short, quoted part of it.
 */
export const V1_ERRORS: ErrorShape = {
  ...V2_ERRORS,
  body: (code, description) => v1Error([{ code, description }]),
  known: (thrown) => schemaMissing(thrown) ??
    (thrown instanceof InvalidArgumentError ? new ApiError(400, 'param_invalid', thrown.message) : null),
};

async function readParams(request: Request): Promise<URLSearchParams> {
  const params = new URLSearchParams(new URL(request.url).search);
  // Read whenever there is a body, whatever the method: the v1 Node client sends its GETs' parameters as a form body
  // too, and a body left unread lets the connection be closed while the client is still writing it (ECONNRESET).
  if (request.body === null) return params;
  const text = await readBoundedText(request, MAX_FORM_BYTES);
  if (!text.ok) throw refuse(text.status, text.code, text.description);
  if (text.value === '') return params;
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw refuse(415, 'unsupported_media_type', 'v1 calls send their parameters in the query or as a form body.');
  }
  const form = new URLSearchParams(text.value);
  // The platform's v1 Node client sends the signed parameters of some POSTs both in the query and as the body: the
  // same parameters twice are one call's parameters, not duplicates.
  if (params.size > 0 && form.toString() === params.toString()) return params;
  for (const [name, value] of form) params.append(name, value);
  return params;
}

/**
 * The access key of a v1 call: a Bearer key when the call has an Authorization header (the signature parameters are
 * then ignored), else the v1 signature. A signed call is checked in this order: its parameters and timestamp window
 * (no database work), the key, the signature (constant time), and last the nonce, so nobody without the secret can use
 * up a nonce.
 */
async function authenticateV1(request: Request, env: Env, params: URLSearchParams): Promise<AccessKey> {
  if (request.headers.has('authorization')) return authenticate(request, env);
  if (!isSignedCall(params)) {
    throw signatureRefused('ApiKeyMissing',
      'Sign the call as v1 clients do (api_key, api_timestamp, api_nonce, api_signature) or send Authorization: Bearer rg_….');
  }
  const now = Math.floor(Date.now() / 1000);
  const call = readSignedCall(params, now);
  if (!env.V1_SIGNING_SECRET) {
    throw signatureRefused('ApiKeyInvalid', 'v1 signatures are not enabled on this gateway; use Authorization: Bearer rg_….');
  }
  const db = gatewayDb(env);
  const found = await new KeyStore(db).forSignature(call.keyId);
  if (!found) throw signatureRefused('ApiKeyInvalid', 'The access key is unknown or revoked.');
  if (found.salt === null) {
    throw signatureRefused('ApiKeyInvalid', 'This access key has no v1 secret; the operator issues one (POST /admin/keys/<id>/v1_secret).');
  }
  const secret = await deriveV1Secret(env.V1_SIGNING_SECRET, found.key.id, found.salt);
  if (!(await signatureMatches(params, call, secret))) {
    throw signatureRefused('SignatureInvalid', 'The signature does not match (see worker/README.md, "v1 signature setup").');
  }
  if (!(await acceptNonce(db, call, now))) {
    throw signatureRefused('NonceInvalid', 'This api_nonce was already used with this api_timestamp: the call is a replay.');
  }
  return found.key;
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

/** The v1 list window: `result_limit` items from `result_offset` on. */
function listWindow(params: URLSearchParams): { limit: number; offset: number } {
  const limitText = params.get('result_limit');
  const offsetText = params.get('result_offset');
  const limit = limitText === null ? DEFAULT_RESULT_LIMIT : /^\d{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN;
  const offset = offsetText === null ? 0 : /^\d{1,7}$/.test(offsetText) ? Number(offsetText) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_RESULT_LIMIT)) {
    throw refuse(400, 'param_invalid', `result_limit must be 1 to ${MAX_RESULT_LIMIT}.`);
  }
  if (!(offset >= 0 && offset <= MAX_RESULT_OFFSET)) {
    throw refuse(400, 'param_invalid', `result_offset must be 0 to ${MAX_RESULT_OFFSET}.`);
  }
  return { limit, offset };
}

/**
 * The v2 pages that hold a v1 window. v2 pages are whole, so this looks for the smallest page length (from the limit up
 * to v2's maximum) that puts the window on one page: one upstream call. Only when none does are two consecutive pages
 * of `limit` items read. `skip` is where the window starts in what the pages hold together.
 */
export function pagePlan(limit: number, offset: number): { pageLength: number; pages: number[]; skip: number } {
  for (let length = limit; length <= MAX_PAGE_LENGTH; length++) {
    const first = Math.floor(offset / length);
    if (first === Math.floor((offset + limit - 1) / length)) return { pageLength: length, pages: [first + 1], skip: offset % length };
  }
  const first = Math.floor(offset / limit);
  return { pageLength: limit, pages: [first + 1, first + 2], skip: offset % limit };
}

/**
 * v1 `search` and `statuses_filter` as a v2 `q`: the search text in any of the route's fields, AND one of the statuses.
 * `q` has no parentheses (AND binds tighter than OR), so the two are multiplied out: `a AND s1 OR a AND s2 OR b AND s1…`.
 */
export function listFilter(name: string, params: URLSearchParams): string | null {
  const search = params.get('search');
  const statuses = params.get('statuses_filter');
  const anyOf: string[] = [];
  if (search !== null && search.trim() !== '') {
    const text = search.trim();
    if (text.length > MAX_SEARCH_LENGTH || /["\u0000-\u001f\u007f]/.test(text)) {
      throw refuse(400, 'param_invalid', `search must be at most ${MAX_SEARCH_LENGTH} characters, without double quotes.`);
    }
    for (const field of SEARCH_FIELDS[name] ?? []) anyOf.push(`${field}:"${text}"`);
  }
  const allOf: string[] = [];
  if (statuses !== null && statuses.trim() !== '') {
    const wanted = [...new Set(statuses.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))];
    if (wanted.length === 0 || !wanted.every((s) => (MEDIA_STATUSES as readonly string[]).includes(s))) {
      throw refuse(400, 'param_invalid', `statuses_filter is a comma-separated list of ${MEDIA_STATUSES.join(', ')}.`);
    }
    allOf.push(...wanted.map((status) => `status:${status}`));
  }
  if (anyOf.length === 0 && allOf.length === 0) return null;
  if (anyOf.length === 0) return allOf.join(' OR ');
  if (allOf.length === 0) return anyOf.join(' OR ');
  return anyOf.flatMap((term) => allOf.map((status) => `${term} AND ${status}`)).join(' OR ');
}

/**
 * v1's `rate_limit` object from the gateway's share headers, the same figures: `reset` (Unix seconds) is when the key
 * holds one more call at the latest (`reelgate-request-reset` from now), or, on a 429, when `Retry-After` says to come
 * back, whichever is later.
 */
function rateLimit(headers: Record<string, string>): { reset: number; limit: number; remaining: number } | undefined {
  const limit = Number(headers[RATE_LIMIT_HEADER]);
  const remaining = Number(headers[RATE_REMAINING_HEADER]);
  const inSeconds = Math.max(Number(headers[RATE_RESET_HEADER] ?? 0), Number(headers['retry-after'] ?? 0));
  if (!Number.isFinite(limit) || !Number.isFinite(remaining) || !Number.isFinite(inSeconds)) return undefined;
  return { reset: Math.ceil(Date.now() / 1000) + inSeconds, limit, remaining };
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
      return { tag: required(params, 'tag') };
    case 'accounts/tags/update':
      return { original_tag: required(params, 'tag'), new_tag: required(params, 'tag_new') };
    case 'accounts/usage/show':
      return { metadata: {
        start_date: usageDate(required(params, 'start_date'), 'start_date'),
        end_date: usageDate(required(params, 'end_date'), 'end_date'),
      } };
    default:
      return undefined;
  }
}

/** The answer's JSON; null for an answer without a body (the tag actions' 202). */
function parseJson(outcome: Outcome): unknown {
  if (outcome.body === '') return null;
  try {
    return JSON.parse(outcome.body);
  } catch {
    throw refuse(502, 'upstream_unavailable', 'The video platform gave an answer that could not be read.');
  }
}

/**
 * A failed v2 outcome as the v1 error (v1's exact shape: v1 clients and the suites check it), keeping the HTTP status
 * and the headers: a 429's `Retry-After` and the share headers, the same figures successes carry in `rate_limit`.
 */
function failure(outcome: Outcome): Response {
  const items = errorItemsFromBody(outcome.body, outcome.status);
  return noStoreJson(v1Error(items), outcome.status, outcome.headers);
}

export async function handleV1(request: Request, env: Env, path: string): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'POST') {
    throw refuse(405, 'method_not_allowed', 'v1 calls are GET or POST.', { allow: 'GET, POST' });
  }
  // The parameters are read first: a v1 signature is made of them.
  const params = await readParams(request);
  const key = await authenticateV1(request, env, params);
  return countedCall(key.id, () => answerV1(request, env, path, params, key));
}

/** A v1 call of a known key: translated to its v2 calls and answered in the v1 shape. */
async function answerV1(request: Request, env: Env, path: string, params: URLSearchParams, key: AccessKey): Promise<Response> {
  const name = path.slice('/v1/'.length).replace(/\/$/, '');
  const known = V1_ROUTES[name];
  if (!known) throw refuse(404, 'not_found', `/v1/${name.slice(0, 80)} is not a v1 route.`);
  if ('unsupported' in known) {
    throw refuse(410, 'not_supported', `/v1/${name} is not supported: ${known.reason}`);
  }
  if (!V1_ANSWERS[name]) {
    throw refuse(501, 'not_implemented',
      `/v1/${name} is not translated by the v1 compatibility layer; call ${known.method} ${known.path} through /v2 instead.`);
  }

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

  const answer = (outcome: Outcome, body: V1Ok): Response => {
    const limits = rateLimit(outcome.headers);
    return noStoreJson(limits ? { ...body, rate_limit: limits } : body, outcome.status, outcome.headers);
  };

  const itemsKey = PAGED[name];
  if (itemsKey) {
    const { limit, offset } = listWindow(params);
    const q = listFilter(name, params);
    const plan = pagePlan(limit, offset);
    let last: Outcome | undefined;
    let firstBody: Record<string, unknown> | undefined;
    const items: unknown[] = [];
    for (const page of plan.pages) {
      const query: Array<[string, string]> = [['page', String(page)], ['page_length', String(plan.pageLength)]];
      if (q) query.push(['q', q]);
      last = await run(mapped.method, mapped.path, query);
      if (last.status < 200 || last.status >= 300) return failure(last);
      const body = parseJson(last) as Record<string, unknown>;
      firstBody ??= body;
      const pageItems = body[itemsKey];
      if (!Array.isArray(pageItems)) throw refuse(502, 'upstream_unavailable', 'The video platform gave an answer that could not be read.');
      items.push(...pageItems);
      // Past the end of the list: no second page to read.
      if (pageItems.length < plan.pageLength) break;
    }
    const v1 = V1_ANSWERS[name]!({ ...firstBody, [itemsKey]: items.slice(plan.skip, plan.skip + limit) });
    return answer(last!, { ...v1, limit, offset });
  }

  const first = await run(mapped.method, mapped.path, []);
  if (first.status < 200 || first.status >= 300) return failure(first);
  if (name === 'videos/conversions/list' && mapped.also?.[0]) {
    const originals = await run(mapped.also[0].method, mapped.also[0].path, []);
    if (originals.status < 200 || originals.status >= 300) return failure(originals);
    return answer(originals, V1_ANSWERS[name]!(parseJson(first), parseJson(originals)));
  }
  // channels/show with a v1 `type` reads the typed answer, which does not name its type: the type asked for is its.
  const extra = name === 'channels/show' ? readPlaylistType(params.get('type')) ?? undefined : undefined;
  return answer(first, V1_ANSWERS[name]!(parseJson(first), extra));
}

function v1ParamFor(placeholder: string): string {
  const names: Record<string, string> = {
    media_id: 'video_key', playlist_id: 'channel_key', player_id: 'player_key', rendition_id: 'conversion_key',
    track_id: 'track_key', thumbnail_id: 'thumbnail_key', playlist_type: 'type', site_id: 'site_id',
  };
  return names[placeholder] ?? placeholder;
}
