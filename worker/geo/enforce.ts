/**
 * Geo rules at the edge: content bound to a policy is refused (451) to callers the policy does not allow. What binds
 * what is composed here (a site, a playlist, a media and the playlists listing it), and lists are filtered here, so
 * no route decides policy by itself.
 */
import type { MemberFacts } from '../catalog/index.ts';
import type { SiteConfig } from '../config.ts';
import { geoBlocked } from '../http/errors.ts';
import type { RequestContext } from '../http/context.ts';
import { locateCaller } from './locate.ts';
import type { Membership } from './membership.ts';
import { decideFor } from './decisions.ts';
import { needsProxyClass } from './policy.ts';

type Names = ReadonlyArray<string | null | undefined>;

/**
 * For each list of policy names, whether every named policy allows the caller. The caller is located once, and only if
 * some list names a policy: by a lookup when some policy asks about proxies, else from request.cf where it knows the
 * country (geo/locate.ts).
 */
export async function allowedBy(visit: RequestContext, lists: readonly Names[]): Promise<boolean[]> {
  const { policies } = visit.config;
  const resolved = lists.map((names) => [...new Set(names.filter((n): n is string => Boolean(n)))]
    .map((n) => policies.get(n)!));
  const all = resolved.flat();
  if (!all.length) return lists.map(() => true);
  const need = all.some(needsProxyClass) ? 'full' : 'country';
  const where = await locateCaller(visit, need);
  // Each policy decided once (and counted once), whichever lists name it.
  const allowed = new Map(all.map((policy) => [policy.name, decideFor(visit, policy, where).allowed]));
  return resolved.map((policies) => policies.every((policy) => allowed.get(policy.name)));
}

/** Throws 451 unless every named policy allows the caller. Returns whether any policy applied. */
export async function enforcePolicies(visit: RequestContext, names: Names): Promise<boolean> {
  if (!names.some(Boolean)) return false;
  const [allowed] = await allowedBy(visit, [names]);
  if (!allowed) throw geoBlocked();
  return true;
}

/**
 * Everything that binds a media: its site's policy, the policy of every configured playlist that lists it, and its
 * own. Every route that can reveal a media (its JSON, a feed item, its bytes) asks this one function. `facts`: the
 * media's tags and custom params, when known, so a bound filtered playlist's rules are evaluated too; `'unknown'`
 * for a route that cannot know them and must not guess in the media's favour (every rule's policy applies); left out
 * for a decision before the media is read, which the route completes once it is.
 */
export function mediaPolicies(site: SiteConfig, mediaId: string, membership: Membership,
  facts?: MemberFacts | 'unknown'): string[] {
  const listed = facts === 'unknown' ? [...membership(mediaId), ...membership.byRule] : membership(mediaId, facts);
  return [site.policy, ...listed, site.media.get(mediaId)].filter((n): n is string => Boolean(n));
}

/** What binds a playlist's feed as a whole: its site's policy and the playlist's own. */
export function playlistPolicies(site: SiteConfig, playlistId: string): Names {
  return [site.policy, site.playlists.get(playlistId)];
}

/** Whether no policy can bind anything the site serves: no site policy, no bound playlist, no bound media. */
export function unbound(site: SiteConfig): boolean {
  return site.policy === null && site.playlists.size === 0 && site.media.size === 0;
}

/**
 * The items of a list the caller may see, each held to everything that binds it (`mediaPolicies`), and the ids of the
 * items any policy binds: an answer showing one depends on who asks, and names it by the worker's playback URLs.
 */
export async function visibleItems<T extends { id: string } & MemberFacts>(visit: RequestContext, site: SiteConfig,
  membership: Membership, items: readonly T[]): Promise<{ visible: T[]; bound: Set<string> }> {
  const lists = items.map((item) => mediaPolicies(site, item.id, membership, item));
  const allowed = await allowedBy(visit, lists);
  return {
    visible: items.filter((_, i) => allowed[i]),
    bound: new Set(items.filter((_, i) => lists[i]!.length > 0).map((item) => item.id)),
  };
}
