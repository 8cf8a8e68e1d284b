/** A named geo policy applied to a location: the one place that decides who may see what. */
import type { GeoPolicy } from '../config.ts';
import type { GateReason, GeoResponse } from '../public-api.ts';

export interface Decision {
  allowed: boolean;
  reason: GateReason;
}

export function decide(policy: GeoPolicy, where: Pick<GeoResponse, 'country' | 'continent' | 'proxy'>): Decision {
  const { identification, type } = where.proxy;
  if ((identification && policy.denyProxyIdentifications.has(identification)) ||
    (type && policy.denyProxyTypes.has(type))) {
    return { allowed: false, reason: 'proxy_denied' };
  }
  const needsContinent = policy.allowContinents !== null || policy.denyContinents.size > 0;
  if (!where.country || (needsContinent && !where.continent)) {
    return policy.unknown === 'allow' ? { allowed: true, reason: 'allowed' } : { allowed: false, reason: 'location_unknown' };
  }
  if (policy.denyCountries.has(where.country)) return { allowed: false, reason: 'country_denied' };
  if (policy.allowCountries && !policy.allowCountries.has(where.country)) {
    return { allowed: false, reason: 'country_not_allowed' };
  }
  if (where.continent) {
    if (policy.denyContinents.has(where.continent)) return { allowed: false, reason: 'continent_denied' };
    if (policy.allowContinents && !policy.allowContinents.has(where.continent)) {
      return { allowed: false, reason: 'continent_not_allowed' };
    }
  }
  return { allowed: true, reason: 'allowed' };
}
