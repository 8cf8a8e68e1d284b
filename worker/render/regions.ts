/**
 * Where a media item may be watched, as structured data says it: the countries every one of its policies allows.
 * Country and continent rules only: proxy rules and `unknown` depend on the viewer's connection, which no list of
 * countries can express (they stay the worker's business on every request).
 */
import type { GeoPolicy } from '../config.ts';
import { ISO_ALPHA2_COUNTRIES } from '../upstream/index.ts';
import type { Regions } from '../contract/video-object.ts';
import { CONTINENT_OF } from './continents.ts';

export type { Regions };

function eligible(policy: GeoPolicy, country: string): boolean {
  if (policy.denyCountries.has(country)) return false;
  if (policy.allowCountries && !policy.allowCountries.has(country)) return false;
  const continent = CONTINENT_OF.get(country);
  if (continent && policy.denyContinents.has(continent)) return false;
  if (policy.allowContinents && (!continent || !policy.allowContinents.has(continent))) return false;
  return true;
}

/** `regionsAllowed` when the policies allow fewer than half the world, `ineligibleRegion` otherwise; null: anywhere. */
export function regionsOf(policies: readonly GeoPolicy[]): Regions {
  if (policies.length === 0) return null;
  const allowed: string[] = [];
  const ineligible: string[] = [];
  for (const country of [...ISO_ALPHA2_COUNTRIES].sort()) {
    (policies.every((policy) => eligible(policy, country)) ? allowed : ineligible).push(country);
  }
  if (ineligible.length === 0) return null;
  return allowed.length <= ineligible.length ? { allowed } : { ineligible };
}
