/**
 * Playlist membership: a media is bound by the policy of every configured playlist that lists it, wherever it is
 * shown (worker/README.md, "Geo", "What binds a media").
 *
 * What a manual playlist binds is its whole id list, as the platform keeps it (`media_filter.include.values`, up to
 * 10,000), beyond the `feed.max_items` its feed shows; what a filtered playlist binds is every media its rules select
 * (tags and custom params to include and exclude, evaluated on the media itself: catalog/member-rules.ts) and its
 * pinned media, whatever its `limit`, `recency`, order or `max_items`. Both are read from the very cache entry the feed
 * route answers from, so knowing membership costs no upstream call while that feed is held, and moves when it does.
 * Only playlists that
 * `sites.<id>.playlists` binds to a policy are read; a site binding none pays nothing.
 */
import { publicCaller, type CallerContext } from '../budget/index.ts';
import { peekCached } from '../cache/index.ts';
import { cacheKeys, selects, type MemberFacts, type MemberRules } from '../catalog/index.ts';
import { baseFeed, type FeedSnapshot } from '../delivery/index.ts';
import type { MediaResponse } from '../contract/public-api.ts';
import type { SiteConfig } from '../config.ts';
import { ApiError } from '../http/errors.ts';
import type { RequestContext } from '../http/context.ts';

/**
 * The names of the policies a media's playlists bind it to. By id: the playlists that list it (a manual playlist's
 * list, a filtered one's pinned slots). With its facts (tags, custom params), also every bound filtered playlist whose
 * rules select it. A route that knows only the id and cannot wait for the media (a player's settings) adds `byRule`:
 * every policy a rule could bind it to.
 */
export interface Membership {
  (mediaId: string, facts?: MemberFacts): string[];
  /** The policies of bound playlists that bind by rule (none: the id alone decides). */
  readonly byRule: readonly string[];
}

interface Listed {
  policy: string;
  ids: Iterable<string>;
  selects?: MemberRules | undefined;
}

const NONE: Membership = Object.assign(() => [], { byRule: [] as string[] });

function indexOf(lists: readonly Listed[]): Membership {
  const byMedia = new Map<string, string[]>();
  const add = (id: string, policy: string) => {
    const names = byMedia.get(id);
    if (!names) byMedia.set(id, [policy]);
    else if (!names.includes(policy)) names.push(policy);
  };
  for (const { policy, ids } of lists) for (const id of ids) add(id, policy);
  const rules = lists.filter((l): l is Listed & { selects: MemberRules } => l.selects !== undefined);
  const byRule = [...new Set(rules.map((l) => l.policy))];
  const membership = (mediaId: string, facts?: MemberFacts) => {
    const named = byMedia.get(mediaId) ?? [];
    if (!facts || !rules.length) return named;
    const out = [...named];
    for (const { policy, selects: rule } of rules) if (!out.includes(policy) && selects(rule, facts)) out.push(policy);
    return out;
  };
  return Object.assign(membership, { byRule });
}

/** What a playlist's cached feed binds: its members by id (the items, for an entry that names none) and its rules. */
function listedBy(policy: string, feed: FeedSnapshot | null): Listed {
  if (!feed) return { policy, ids: [] };
  return { policy, ids: feed.members ?? feed.items.map((item) => item.id), selects: feed.selects };
}

/**
 * Membership for a request that may load: each bound playlist's feed through the cache (a miss or a stale entry loads
 * like a feed request would). A playlist the platform does not have lists nothing. Any other failure to learn a
 * playlist's members is thrown (429, 502…): without them no item can be shown as unbound, so nothing is.
 */
export async function playlistMembership(c: RequestContext, who: CallerContext,
  site: SiteConfig): Promise<Membership> {
  if (!site.playlists.size) return NONE;
  // Settled, not raced: a playlist whose feed loaded is kept for the next request even when another one failed.
  const settled = await Promise.allSettled([...site.playlists].map(async ([playlistId, policy]) => {
    try {
      const { value } = await baseFeed(c, who, site.id, playlistId);
      return listedBy(policy, value);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') return listedBy(policy, null);
      throw error;
    }
  }));
  const lists = [];
  for (const outcome of settled) {
    if (outcome.status === 'rejected') throw outcome.reason;
    lists.push(outcome.value);
  }
  return indexOf(lists);
}

/** A public request's membership for a site, read once per request however many steps ask (the feed's seed check
 * and its items, the player's settings). */
export function membershipFor(c: RequestContext, site: SiteConfig): Promise<Membership> {
  return c.memo(`membership:${site.id}`, () => publicCaller(c).then((who) => playlistMembership(c, who, site)));
}

/**
 * Membership from what the cache holds, fresh or stale, never loading: for byte requests, which spend no upstream
 * budget. `null` when a bound playlist's feed is not held at all; the caller must then refuse, not guess.
 */
export async function heldMembership({ env, config }: RequestContext, site: SiteConfig): Promise<Membership | null> {
  if (!site.playlists.size) return NONE;
  const lists = [];
  for (const [playlistId, policy] of site.playlists) {
    const feed = await peekCached<FeedSnapshot>(env, config, cacheKeys.feed(site.id, playlistId));
    if (feed === undefined) return null;
    lists.push(listedBy(policy, feed));
  }
  return indexOf(lists);
}

/**
 * A media's facts as the cache holds its answer (never loading), or null when it holds none: for a route that knows
 * only the id (a related media) and must not spend a load on it.
 */
export async function heldFacts({ env, config }: RequestContext, siteId: string, mediaId: string): Promise<MemberFacts | null> {
  const held = await peekCached<MediaResponse>(env, config, cacheKeys.media(siteId, mediaId));
  return held && held.id === mediaId ? held : null;
}
