/** Geo rules at the edge: content bound to a policy is refused (451) to callers the policy does not allow. */
import { getConfig, type SiteConfig } from '../config.ts';
import type { Env } from '../env.ts';
import { geoBlocked } from '../errors.ts';
import type { ServerTiming } from '../server-timing.ts';
import { locateCaller } from './locate.ts';
import { decide, needsProxyClass } from './policy.ts';

/** Throws 451 unless every named policy allows the caller. Returns whether any policy applied. */
export async function enforcePolicies(request: Request, env: Env, ctx: ExecutionContext,
  names: ReadonlyArray<string | null | undefined>, timing?: ServerTiming): Promise<boolean> {
  const config = getConfig(env);
  const policies = [...new Set(names.filter((n): n is string => Boolean(n)))].map((n) => config.policies.get(n)!);
  if (!policies.length) return false;
  // A lookup only when some policy asks about proxies; countries alone come from request.cf where it knows them.
  const need = policies.some(needsProxyClass) ? 'full' : 'country';
  const where = await locateCaller(request, env, ctx, timing, need);
  for (const policy of policies) {
    if (!decide(policy, where).allowed) throw geoBlocked();
  }
  return true;
}

/** Policies that apply to a media of a site: the site's and the media's own. */
export function mediaPolicies(site: SiteConfig, mediaId: string): Array<string | null | undefined> {
  return [site.policy, site.media.get(mediaId)];
}
