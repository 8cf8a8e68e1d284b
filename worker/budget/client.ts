/**
 * The worker's side of the budget object: every upstream call of a request goes through `callUpstream`, and the
 * object's failure data becomes the public error (never upstream text). A load of several calls runs inside
 * `withReservation`, which reserves them all before the first one.
 */
import type { Env } from '../env.ts';
import { ApiError, notFound, rateLimited, upstreamUnavailable } from '../errors.ts';
import type { BudgetResult, LoadAdmission, UpstreamCall, UpstreamFailure } from './calls.ts';
import type { Lane } from './lanes.ts';

export const BUDGET_OBJECT_NAME = 'global';

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
