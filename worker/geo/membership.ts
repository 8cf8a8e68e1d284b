/**
 * Playlist membership: a media is bound by the policy of every configured playlist that lists it, wherever it is
 * shown (worker/README.md, "Geo", "What binds a media").
 *
 * What a manual playlist lists is its whole id list, as the platform keeps it (`media_filter.include.values`, up to
 * 10,000), beyond the `feed.max_items` its feed shows; what a filtered playlist lists is its own feed as the worker
 * serves it (no variant; its first `feed.max_items` ready media, whatever their publish window). Both are read from the
 * very cache entry the feed route answers from. So knowing membership
 * costs no upstream call while that feed is held, and membership moves when the feed does. Only playlists that
 * `sites.<id>.playlists` binds to a policy are read; a site binding none pays nothing.
 */
import { publicCaller, type CallerContext } from '../budget/index.ts';
import { peekCached } from '../cache/index.ts';
import { cacheKeys, baseFeed, type FeedSnapshot } from '../catalog/index.ts';
import type { SiteConfig } from '../config.ts';
import { ApiError } from '../http/errors.ts';
import type { RequestContext } from '../http/context.ts';

/** The names of the policies a media's playlists bind it to (none when no configured playlist lists it). */
export type Membership = (mediaId: string) => string[];

const NONE: Membership = () => [];

function indexOf(lists: ReadonlyArray<{ policy: string; ids: Iterable<string> }>): Membership {
  const byMedia = new Map<string, string[]>();
  for (const { policy, ids } of lists) {
    for (const id of ids) {
      const names = byMedia.get(id);
      if (!names) byMedia.set(id, [policy]);
      else if (!names.includes(policy)) names.push(policy);
    }
  }
  return (mediaId) => byMedia.get(mediaId) ?? [];
}

/** What a playlist binds: a manual playlist its whole list (not only the `max_items` its feed shows), else its feed. */
const idsOf = (feed: FeedSnapshot) => feed.members ?? feed.items.map((item) => item.id);

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
      return { policy, ids: idsOf(value) };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') return { policy, ids: [] };
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
const perRequest = new WeakMap<RequestContext, Map<string, Promise<Membership>>>();

export function membershipFor(c: RequestContext, site: SiteConfig): Promise<Membership> {
  let bySite = perRequest.get(c);
  if (!bySite) {
    bySite = new Map();
    perRequest.set(c, bySite);
  }
  let membership = bySite.get(site.id);
  if (!membership) {
    membership = publicCaller(c).then((who) => playlistMembership(c, who, site));
    bySite.set(site.id, membership);
  }
  return membership;
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
    lists.push({ policy, ids: feed ? idsOf(feed) : [] });
  }
  return indexOf(lists);
}
