/**
 * The worker's side of the budget object: every upstream call of a request goes through `callUpstream`, and the
 * object's failure data becomes the public error (never upstream text).
 */
import type { Env } from '../env.ts';
import { ApiError, notFound, rateLimited, upstreamUnavailable } from '../errors.ts';
import type { BudgetResult, UpstreamCall, UpstreamFailure } from './calls.ts';
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
}

export async function callUpstream<T>(env: Pick<Env, 'BUDGET'>, who: CallerContext, call: UpstreamCall): Promise<T> {
  const result = (await budgetStub(env).call({ lane: who.lane, caller: who.caller, call, acceptRecent: who.acceptRecent ?? false })) as BudgetResult;
  if (result.ok) return result.value as T;
  throw failureToError(result.failure);
}
