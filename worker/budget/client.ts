/**
 * The budget's client, and the one way into the budget for everything outside budget/: every upstream call of a
 * request goes through `callUpstream` (a load of several calls inside `withReservation`, which reserves them all
 * before the first one), a gateway call through `callWithShare`, and the budget's other counters (a playlist's new
 * variants, a network's new addresses located, a key's share) through the functions below. The object's failure data
 * becomes the public error (never upstream text). Nothing else reaches the Durable Object's stub.
 */
import type { Env } from '../env.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError, notFound, rateLimited, upstreamUnavailable } from '../http/errors.ts';
import type { BudgetRequest, BudgetResult, LoadAdmission, UpstreamCall, UpstreamFailure } from './calls.ts';
import type { CallerShare } from './caller-shares.ts';
import type { Lane } from './lanes.ts';
import type { VariantAdmission } from './variants.ts';

export const BUDGET_OBJECT_NAME = 'global';

/** The one budget object all isolates share. Exported for the tests (its stats, its reset); the worker uses the calls below. */
export function budgetStub(env: Pick<Env, 'BUDGET'>) {
  return env.BUDGET.get(env.BUDGET.idFromName(BUDGET_OBJECT_NAME));
}

/** Upstream failures that stale data may stand in for (stale-if-error). */
export class UpstreamFailureError extends ApiError {
  constructor(readonly failure: UpstreamFailure, base: ApiError) {
    super(base.status, base.code, base.description, base.retryAfterSeconds);
  }
}

export function failureToError(failure: UpstreamFailure): ApiError {
  switch (failure.kind) {
    case 'budget':
      if (failure.upstreamDown) {
        // We hold off while the platform is down; the caller learns it is unavailable, and when to retry.
        return new UpstreamFailureError(failure, new ApiError(502, 'upstream_unavailable',
          'The video platform is unavailable; retry later.', Math.max(1, Math.ceil(failure.retryAfterSeconds))));
      }
      return new UpstreamFailureError(failure, rateLimited(failure.retryAfterSeconds,
        'The catalog is busy; retry shortly.'));
    case 'upstream':
      if (failure.status === 404) return notFound();
      if (failure.status === 429) {
        return new UpstreamFailureError(failure, rateLimited(failure.retryAfterSeconds ?? 60,
          'The catalog is busy; retry shortly.'));
      }
      return new UpstreamFailureError(failure, upstreamUnavailable(502));
    case 'transport':
      return new UpstreamFailureError(failure, upstreamUnavailable(failure.reason === 'timeout' ? 504 : 502));
    case 'unconfigured':
      return new UpstreamFailureError(failure, upstreamUnavailable(502));
    case 'refused_request':
      console.error(`reelgate: the worker built an upstream request out of the platform's bounds (${failure.argument}); not sent`);
      return new UpstreamFailureError(failure, new ApiError(502, 'upstream_request_refused',
        'The worker could not ask the video platform for this within the platform\'s bounds; nothing was sent.'));
  }
}

export interface CallerContext {
  lane: Lane;
  /** Fair-share key inside the lane. */
  caller: string;
  /** May take an identical read the budget object answered a moment ago (a first miss, not a refresh). */
  acceptRecent?: boolean;
  /** Nobody waits for this load (a background refresh of an entry served stale meanwhile). */
  background?: boolean;
  /** The reservation this request's calls spend (set by `withReservation`). */
  load?: string;
}

/** A public request's place in the budget: the public lane, its turn keyed by the caller's hashed network. */
export async function publicCaller(c: RequestContext): Promise<CallerContext> {
  return { lane: 'public', caller: await c.callerKey() };
}

export async function callUpstream<T>(env: Pick<Env, 'BUDGET'>, who: CallerContext, call: UpstreamCall): Promise<T> {
  const result = (await budgetStub(env).call({
    lane: who.lane, caller: who.caller, call, acceptRecent: who.acceptRecent ?? false,
    ...(who.load ? { load: who.load } : {}), ...(who.background ? { background: true } : {}),
  })) as BudgetResult;
  if (result.ok) return result.value as T;
  throw failureToError(result.failure);
}

/** What a load is and the most upstream calls it can need. */
export interface LoadPlan {
  /** Names the work (the cache key it fills): concurrent loads of one key share one reservation. */
  key: string;
  calls: number;
}

/**
 * Runs a load of several upstream calls on one reservation: the budget object admits it only when it can fund every
 * call (or refuses it at once, with a Retry-After, before anything is spent), `run`'s calls spend the reservation,
 * and what they leave goes back at the end. A load that stops out of budget or on an upstream failure leaves its
 * reads with the budget object for the next attempt; one that ends with an answer (or a "not found") has been served.
 */
export async function withReservation<T>(env: Pick<Env, 'BUDGET'>, who: CallerContext, plan: LoadPlan,
  run: (who: CallerContext) => Promise<T>): Promise<T> {
  const stub = budgetStub(env);
  const admission = (await stub.beginLoad({
    lane: who.lane, caller: who.caller, api: 'v2', key: plan.key, calls: plan.calls,
    acceptRecent: who.acceptRecent ?? false, background: who.background ?? false,
  })) as LoadAdmission;
  if (!admission.ok) throw failureToError(admission.failure);
  let finished = true;
  try {
    return await run({ ...who, load: admission.id });
  } catch (error) {
    finished = !(error instanceof ApiError && (error.status === 429 || error.status >= 500));
    throw error;
  } finally {
    // If this never arrives (the request was cancelled), the reservation expires and its tokens return anyway.
    await stub.endLoad(admission.id, finished).catch(() => undefined);
  }
}

/** A gateway call on its key's share: the result, and the key's share after it (for the rate-limit headers). */
export async function callWithShare(env: Pick<Env, 'BUDGET'>, request: BudgetRequest): Promise<BudgetResult & { share: CallerShare }> {
  // RPC typing drops the `unknown` value of the ok branch.
  return await budgetStub(env).callWithShare(request) as unknown as BudgetResult & { share: CallerShare };
}

/** A gateway key's share of its lanes now, without spending any. */
export async function shareOf(env: Pick<Env, 'BUDGET'>, keyId: string): Promise<CallerShare> {
  return budgetStub(env).shareOf(keyId);
}

/** Whether a playlist (`scope`) may load one more variant not cached yet (`feed.max_variants` per window, all isolates). */
export async function admitVariant(env: Pick<Env, 'BUDGET'>, scope: string, variant: string): Promise<VariantAdmission> {
  return budgetStub(env).admitVariant(scope, variant);
}

/** Whether a network may have one more of its addresses looked up by the Geo API in this window. */
export async function admitGeoLookup(env: Pick<Env, 'BUDGET'>, network: string, address: string): Promise<VariantAdmission> {
  return budgetStub(env).admitGeoLookup(network, address);
}
