/** Geo rules at the edge: content bound to a policy is refused (451) to callers the policy does not allow. */
import { getConfig, type SiteConfig } from '../config.ts';
import type { Env } from '../env.ts';
import { geoBlocked } from '../errors.ts';
import type { ServerTiming } from '../server-timing.ts';
import { locateCaller } from './locate.ts';
import type { Membership } from './membership.ts';
import { decide, needsProxyClass } from './policy.ts';

type Names = ReadonlyArray<string | null | undefined>;

/**
 * For each list of policy names, whether every named policy allows the caller. The caller is located once, and only if
 * some list names a policy: by a lookup when some policy asks about proxies, else from request.cf where it knows the
 * country (geo/locate.ts).
 */
export async function allowedBy(request: Request, env: Env, ctx: ExecutionContext, lists: readonly Names[],
  timing?: ServerTiming): Promise<boolean[]> {
  const config = getConfig(env);
  const resolved = lists.map((names) => [...new Set(names.filter((n): n is string => Boolean(n)))]
    .map((n) => config.policies.get(n)!));
  const all = resolved.flat();
  if (!all.length) return lists.map(() => true);
  const need = all.some(needsProxyClass) ? 'full' : 'country';
  const where = await locateCaller(request, env, ctx, timing, need);
  return resolved.map((policies) => policies.every((policy) => decide(policy, where).allowed));
}

/** Throws 451 unless every named policy allows the caller. Returns whether any policy applied. */
export async function enforcePolicies(request: Request, env: Env, ctx: ExecutionContext, names: Names,
  timing?: ServerTiming): Promise<boolean> {
  if (!names.some(Boolean)) return false;
  const [allowed] = await allowedBy(request, env, ctx, [names], timing);
  if (!allowed) throw geoBlocked();
  return true;
}

/**
 * Everything that binds a media: its site's policy, the policy of every configured playlist that lists it, and its
 * own. Every route that can reveal a media (its JSON, a feed item, its bytes) asks this one function.
 */
export function mediaPolicies(site: SiteConfig, mediaId: string, membership: Membership): string[] {
  return [site.policy, ...membership(mediaId), site.media.get(mediaId)].filter((n): n is string => Boolean(n));
}
