/**
 * One gateway call, from an authenticated key to the upstream and back: scope check, idempotency, the budget's
 * gateway lanes (the key id is the fair-share turn), cache purge after a successful write, and an audit row for every
 * write. The `/v2` routes answer with the outcome as is; the `/v1` layer translates it.
 */
import { callWithShare, failureToError, shareOf, type BudgetResult, type CallerShare, type RawAnswer } from '../budget/index.ts';
import type { Env } from '../env.ts';
import { errorBody } from '../http/errors.ts';
import {
  PLATFORM_RATE_LIMIT_HEADER, PLATFORM_RATE_REMAINING_HEADER, RATE_LIMIT_HEADER, RATE_REMAINING_HEADER,
} from '../contract/v2-types.ts';
import { bearerToken, permits, type AccessKey } from './access-keys.ts';
import { AuditLog } from './audit.ts';
import { gatewayDb } from './db.ts';
import { DEFAULT_RETRY_AFTER, RATE_LIMIT_CODE, unauthorized } from './errors.ts';
import {
  bodyFingerprint, IdempotencyStore, isCompletedAnswer, type IdempotencySlot, type StoredOutcome,
} from './idempotency.ts';
import { KeyStore } from './key-store.ts';
import { purgeAfterWrite } from './purge.ts';
import { rememberUpload } from './uploads.ts';
import type { MatchedRoute } from './v2-routes.ts';

export const REPLAYED_HEADER = 'idempotent-replayed';
/**
 * Seconds until the key's share holds one more call, at the latest (0 when it is full). The platform states no reset
 * header (spec, Limits), so this one is ours and says so by its name; v1's `rate_limit.reset` is made from it.
 */
export const RATE_RESET_HEADER = 'reelgate-request-reset';

/** What a gateway call produced: the upstream's status and body, or our refusal in the v2 error format. */
export interface Outcome extends StoredOutcome {
  headers: Record<string, string>;
  /** True when the status and body are the upstream's own. */
  fromUpstream: boolean;
}

/** The live access key of the request, or 401. */
export async function authenticate(request: Request, env: Env): Promise<AccessKey> {
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  const key = await new KeyStore(gatewayDb(env)).authenticate(token);
  if (!key) throw unauthorized('The access key is unknown or revoked.');
  return key;
}

export function shareHeaders(share: CallerShare): Record<string, string> {
  return {
    [RATE_LIMIT_HEADER]: String(share.limit), [RATE_REMAINING_HEADER]: String(share.remaining),
    // The platform's own names too: what its official clients and their users read.
    [PLATFORM_RATE_LIMIT_HEADER]: String(share.limit), [PLATFORM_RATE_REMAINING_HEADER]: String(share.remaining),
    [RATE_RESET_HEADER]: String(share.reset),
  };
}

function refusal(status: number, code: string, description: string, headers: Record<string, string> = {}): Outcome {
  return {
    status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(errorBody(code, description)),
    headers, fromUpstream: false,
  };
}

export interface GatewayCall {
  env: Env;
  key: AccessKey;
  route: MatchedRoute;
  query: Array<[string, string]>;
  body: Record<string, unknown> | undefined;
  /** The `Idempotency-Key` of a write, or null. */
  idempotencyKey: string | null;
  /** The upstream credential when it is not the platform secret (an upload route's `Bearer <upload_token>`). */
  authorization?: string;
}

export async function performCall(call: GatewayCall): Promise<Outcome> {
  const { env, key, route } = call;
  const db = gatewayDb(env);
  const write = route.spec.access === 'write';
  const method = route.spec.method;
  const idempotencyKey = method === 'GET' ? null : call.idempotencyKey;
  const audit = async (outcome: Outcome, replayed = false): Promise<Outcome> => {
    if (write) {
      await new AuditLog(db).record({
        key_id: key.id, method, route: route.spec.name, path: route.upstreamPath, site: route.site,
        status: outcome.status, idempotency_key: idempotencyKey, replayed,
      });
    }
    return outcome;
  };

  const permission = permits(key, route.spec.access, route.site);
  if (!permission.ok) return audit(refusal(403, 'forbidden', permission.description));

  const idempotency = new IdempotencyStore(db);
  let held: { slot: IdempotencySlot; lease: number } | null = null;
  if (idempotencyKey) {
    const slot: IdempotencySlot = {
      keyId: key.id, idempotencyKey, method, path: route.upstreamPath, bodySha256: await bodyFingerprint(call.body),
    };
    const reservation = await idempotency.reserve(slot);
    switch (reservation.kind) {
      case 'replay': {
        const share = await shareOf(env, key.id);
        return audit({
          ...reservation.outcome, fromUpstream: true, headers: { ...shareHeaders(share), [REPLAYED_HEADER]: 'true' },
        }, true);
      }
      case 'mismatch':
        return audit(refusal(422, 'idempotency_key_reused',
          'This Idempotency-Key was already used with a different request body.'));
      case 'in_progress':
        return audit(refusal(409, 'idempotency_in_progress',
          'A request with this Idempotency-Key is still running; retry shortly.', { 'retry-after': '1' }));
      case 'reserved':
        held = { slot, lease: reservation.lease };
        break;
    }
  }

  let outcome: Outcome;
  try {
    outcome = await callGateway(call, env, write);
  } catch (error) {
    // Whatever failed, no completed answer came: the key must not stay reserved until its lease runs out.
    if (held) await idempotency.release(held.slot, held.lease);
    throw error;
  }
  if (held) {
    // Only a completed upstream answer is kept for replay; after a 5xx, a 429, a timeout or a budget refusal the key is
    // released, so the retry the client is told to make can still perform the write.
    if (outcome.fromUpstream && isCompletedAnswer(outcome.status)) {
      await idempotency.complete(held.slot, held.lease,
        { status: outcome.status, contentType: outcome.contentType, body: outcome.body });
    } else {
      await idempotency.release(held.slot, held.lease);
    }
  }
  if (write && outcome.fromUpstream && outcome.status >= 200 && outcome.status < 300 && env.CACHE) {
    await purgeAfterWrite(env.CACHE, route);
  }
  if (outcome.fromUpstream) await rememberUpload(db, key, route, outcome.status, outcome.body);
  return audit(outcome);
}

/** The call through the budget's gateway lanes: the upstream's answer, or our refusal when none came. */
async function callGateway(call: GatewayCall, env: Env, write: boolean): Promise<Outcome> {
  const { key, route } = call;
  let result: BudgetResult & { share: CallerShare };
  try {
    result = await callWithShare(env, {
      lane: write ? 'gateway-write' : 'gateway-read',
      caller: key.id,
      call: {
        api: 'v2', op: 'raw', method: route.spec.method, path: route.upstreamPath,
        ...(call.query.length ? { query: call.query } : {}),
        ...(call.body !== undefined ? { body: call.body } : {}),
        ...(call.authorization ? { authorization: call.authorization } : {}),
      },
    });
  } catch (error) {
    console.error('reelgate gateway: budget call failed', error instanceof Error ? error.name : typeof error);
    return refusal(502, 'upstream_unavailable', 'The video platform could not be reached.');
  }
  const share = shareHeaders(result.share);
  // A call that waited for its key's next token says so (worker/README.md, "Lanes and your share of the budget").
  if (result.share.waitedMs) share['server-timing'] = `budget;dur=${Math.round(result.share.waitedMs)};desc="waited for this key's share"`;

  if (!result.ok) {
    // No answer came (no slot, no connection, a timeout).
    const error = failureToError(result.failure);
    const headers: Record<string, string> = { ...share };
    if (error.retryAfterSeconds != null) headers['retry-after'] = String(error.retryAfterSeconds);
    if (error.status === 429) {
      // The key's share is spent (or the platform asked us to pause): the platform's code, and when to come back.
      headers['retry-after'] ??= DEFAULT_RETRY_AFTER;
      return refusal(429, RATE_LIMIT_CODE, 'This access key\'s share of the rate limit is spent; retry after Retry-After seconds.', headers);
    }
    return refusal(error.status, error.code, error.description, headers);
  }

  const answer = result.value as RawAnswer;
  const upstreamHeaders = new Headers(answer.headers);
  const outcome: Outcome = {
    status: answer.status,
    contentType: upstreamHeaders.get('content-type'),
    body: answer.body,
    headers: { ...share },
    fromUpstream: true,
  };
  const retryAfter = upstreamHeaders.get('retry-after');
  if (retryAfter && /^\d{1,6}$/.test(retryAfter.trim())) outcome.headers['retry-after'] = retryAfter.trim();
  else if (answer.status === 429) outcome.headers['retry-after'] = DEFAULT_RETRY_AFTER;
  return outcome;
}

/** An outcome as the HTTP response of a `/v2` route. */
export function outcomeResponse(outcome: Outcome): Response {
  const headers = new Headers({ 'cache-control': 'no-store', ...outcome.headers });
  if (outcome.contentType) headers.set('content-type', outcome.contentType);
  const empty = outcome.status === 204 || outcome.status === 304 || outcome.body === '';
  return new Response(empty ? null : outcome.body, { status: outcome.status, headers });
}
