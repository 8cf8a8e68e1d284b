/**
 * The upstream budget: the Durable Object that meters every call to the platform (60 a minute, split into lanes), and
 * its client, the only way in from the rest of the worker (client.ts). Others import from here, never from the
 * modules behind it.
 */
export { BudgetObject } from './budget-object.ts';
export {
  admitGeoLookup, admitVariant, callUpstream, callWithShare, failureToError, publicCaller, shareOf, withReservation,
  UpstreamFailureError, type CallerContext, type LoadPlan,
} from './client.ts';
export type { BudgetRequest, BudgetResult, RawAnswer, UpstreamCall } from './calls.ts';
export type { CallerShare } from './caller-shares.ts';
export type { Lane } from './lanes.ts';
