/** A named geo policy applied to a location: the one place that decides who may see what. */
import type { GeoPolicy } from '../config.ts';
import type { GateReason, GeoResponse } from '../contract/public-api.ts';

export interface Decision {
  allowed: boolean;
  reason: GateReason;
  /** Whether the decision had every fact the policy asks about (country, continent, proxy class). */
  complete: boolean;
}

export type Where = Pick<GeoResponse, 'country' | 'continent' | 'proxy' | 'source'>;

/** Whether the policy asks about proxies at all: then the proxy class is a fact it needs. */
export function needsProxyClass(policy: GeoPolicy): boolean {
  return policy.denyProxyIdentifications.size > 0 || policy.denyProxyTypes.size > 0;
}

/**
 * Whether `where` knows the proxy class. Only the Geo Location API classifies every address; Cloudflare's view flags
 * Tor and nothing else, so "not a proxy" from it is no answer.
 */
function proxyClassKnown(where: Where): boolean {
  return where.source === 'geo-api';
}

/**
 * Decides in a fixed order: a known denied proxy; missing facts the policy needs (country, continent where listed, the
 * proxy class where it has proxy rules) → its `unknown` rule; then countries, then continents. A decision is never
 * taken on less information than the policy needs: without the proxy class, a policy with proxy rules cannot allow
 * by default.
 */
export function decide(policy: GeoPolicy, where: Where): Decision {
  const { identification, type } = where.proxy;
  if ((identification && policy.denyProxyIdentifications.has(identification)) ||
    (type && policy.denyProxyTypes.has(type))) {
    return { allowed: false, reason: 'proxy_denied', complete: true };
  }
  const needsContinent = policy.allowContinents !== null || policy.denyContinents.size > 0;
  const missingProxy = needsProxyClass(policy) && !proxyClassKnown(where);
  if (!where.country || (needsContinent && !where.continent) || missingProxy) {
    return policy.unknown === 'allow'
      ? { allowed: true, reason: 'allowed', complete: false }
      : { allowed: false, reason: 'location_unknown', complete: false };
  }
  if (policy.denyCountries.has(where.country)) return { allowed: false, reason: 'country_denied', complete: true };
  if (policy.allowCountries && !policy.allowCountries.has(where.country)) {
    return { allowed: false, reason: 'country_not_allowed', complete: true };
  }
  if (where.continent) {
    if (policy.denyContinents.has(where.continent)) return { allowed: false, reason: 'continent_denied', complete: true };
    if (policy.allowContinents && !policy.allowContinents.has(where.continent)) {
      return { allowed: false, reason: 'continent_not_allowed', complete: true };
    }
  }
  return { allowed: true, reason: 'allowed', complete: true };
}
