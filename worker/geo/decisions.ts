/**
 * A policy's decision for a request, counted for the operator (worker/metrics/): once per policy per request, however
 * many items of a list it was asked about, and the refused visitor's country once per request.
 */
import type { GeoPolicy } from '../config.ts';
import type { RequestContext } from '../http/context.ts';
import { count } from '../metrics/index.ts';
import { decide, type Decision, type Where } from './policy.ts';

export function decideFor(visit: RequestContext, policy: GeoPolicy, where: Where): Decision {
  const decision = decide(policy, where);
  // Per request: the policies already counted, and whether its refusal by country was.
  const seen = visit.memo('geo:counted', () => ({ policies: new Set<string>(), country: false }));
  if (!seen.policies.has(policy.name)) {
    seen.policies.add(policy.name);
    count('geo_decisions', {
      policy: policy.name, decision: decision.allowed ? 'allowed' : 'refused', by: decision.complete ? 'rule' : 'unknown',
    });
    if (!decision.allowed && !seen.country) {
      seen.country = true;
      count('geo_refusals_by_country', { country: where.country ?? 'unknown' });
    }
  }
  return decision;
}
