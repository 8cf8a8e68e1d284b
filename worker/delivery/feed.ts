/**
 * A playlist's feed as the platform delivers it: its items, in its order, from the Delivery API's
 * `GET /v2/playlists/<id>` (trending and plays counts, recommendations, search relevance and publish windows are the
 * platform's own), and its head from the Management API (catalog/playlist-head.ts): the type, which says which
 * variant the playlist takes, and the rules, which say what a bound playlist binds. The rules never decide what a
 * shelf shows.
 *
 * Costs: the head is one or two Management calls, kept in the cache beside the feed; the items are one Delivery call
 * per 100 (the definition's largest `page_limit`), up to `feed.max_items`, outside the Management budget. A variant
 * of a playlist whose head is held costs no Management call at all. A recommendations variant reads its related
 * media's delivery answer too (one more delivery call): its tags and custom params, which a policy may judge it by.
 */
import type { CallerContext } from '../budget/index.ts';
import { cached, type CachedValue } from '../cache/index.ts';
import {
  cacheKeys, deliveryBase, isVariant, loadPlaylistHead, memberRulesOf, NO_VARIANT, needsVariant,
  type FeedVariant, type MemberFacts, type MemberRules, type PlaylistHead,
} from '../catalog/index.ts';
import type { Config } from '../config.ts';
import type { FeedItem, FeedResponse } from '../contract/public-api.ts';
import { DELIVERY_MAX_PAGE_LIMIT } from '../contract/delivery-types.ts';
import type { PlaylistType } from '../contract/v2-types.ts';
import type { Env } from '../env.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { tagsOf } from './answers.ts';
import { fetchDelivery, reportRefusal } from './client.ts';
import { feedItemFromDelivery, unsignedItem } from './media.ts';

export interface FeedSnapshot {
  playlist: FeedResponse['playlist'];
  /** Published media in the platform's order, as delivered. */
  items: FeedItem[];
  /**
   * What the playlist binds to a policy (geo/membership.ts), beyond what its feed shows: a manual playlist every media
   * it lists, in its order (up to the platform's 10,000); a filtered one its pinned media, and every media its rules
   * select (`selects`). Absent from a variant's feed and from entries written before they were kept.
   */
  members?: string[];
  selects?: MemberRules;
  /**
   * A recommendations variant's related media as it was read (its tags and custom params): the seed a caller named is
   * bound like the media itself, and its facts are only known once read (resources/feed.ts).
   */
  related?: MemberFacts & { id: string };
}

export interface FeedLoadOptions {
  env: Env;
  config: Config;
  who: CallerContext;
  site: string;
  playlistId: string;
  variant: FeedVariant;
  maxItems: number;
  /** The playlist's type as last seen (from the entry being refreshed): saves the untyped lookup. */
  knownType?: PlaylistType | undefined;
}

/** The playlist's own feed, cached, loaded for `who` on a miss. */
export function baseFeed(c: RequestContext, who: CallerContext, site: string, playlistId: string): Promise<CachedValue<FeedSnapshot>> {
  const { env, config } = c;
  return cached<FeedSnapshot>(c, {
    kind: 'feed', key: cacheKeys.feed(site, playlistId),
    load: (previous, freshness) => loadFeed({ env, config, who: { ...who, ...freshness }, site, playlistId, variant: NO_VARIANT,
      maxItems: config.feed.maxItems, knownType: previous?.playlist.type }),
  });
}

/** The playlist's own feed (no variant): its head from the Management API, then its items from delivery. */
export async function loadFeed(options: FeedLoadOptions): Promise<FeedSnapshot> {
  return feedOf(options, await loadPlaylistHead(options));
}

/** A feed resolved from a head already at hand (cached for variants): Delivery API calls only. */
export async function feedOf(options: FeedLoadOptions, head: PlaylistHead): Promise<FeedSnapshot> {
  const { variant } = options;
  const { playlist, rules } = head;
  const query = deliveryQuery(head.type, variant);
  let items: FeedItem[] = [];
  let related: FeedSnapshot['related'];
  if (query !== null) {
    const delivered = await deliveredItems(options, query);
    // The related media a platform does not deliver (unknown, unpublished, another property's) relates to nothing.
    if (delivered !== null && variant.seed !== null) related = await relatedFacts(options, variant.seed) ?? undefined;
    if (delivered !== null && (variant.seed === null || related)) items = delivered;
  }
  if (related) return { playlist, items, related };
  if (isVariant(variant) || rules.type === 'watchlist') return { playlist, items };
  return rules.type === 'manual'
    ? { playlist, items, members: rules.ids }
    : { playlist, items, members: rules.pinned, selects: memberRulesOf(rules) };
}

/**
 * The Delivery API's query for the playlist and variant, or null when the platform delivers nothing for it: a
 * watchlist is a signed-in viewer's own list, and a similar or search feed without its media or words has nothing to
 * relate to or match (the platform refuses the request). An article-matching feed is asked with the article's words
 * in `search`, as the platform's own player fills `search=__CONTEXTUAL__` with the page's title: the caller's `search`
 * (that title), else its `tags`, each a quoted phrase.
 */
function deliveryQuery(type: PlaylistType, variant: FeedVariant): Record<string, string> | null {
  if (type === 'watchlist') return null;
  if (!needsVariant(type)) return {};
  if (type === 'recommendations') return variant.seed === null ? null : { related_media_id: variant.seed };
  const words = [variant.search ?? '', ...variant.tags.map((tag) => (/\s/.test(tag) ? `"${tag}"` : tag))].filter(Boolean).join(' ');
  return words ? { search: words } : null;
}

/**
 * The delivered items, page by page (`page_offset` counts from 1), up to `feed.max_items`; null when a variant's
 * feed is not delivered (404: its related media is not known to delivery).
 */
async function deliveredItems(options: FeedLoadOptions, query: Record<string, string>): Promise<FeedItem[] | null> {
  const { env, config, site, playlistId, maxItems } = options;
  const delivery = deliveryBase(env.DELIVERY_BASE_URL);
  const items: FeedItem[] = [];
  const seen = new Set<string>();
  // At most the pages `max_items` takes, whatever the answers' links say: an answer that repeats itself ends here.
  const pages = Math.ceil(maxItems / DELIVERY_MAX_PAGE_LIMIT);
  for (let offset = 1, page = 0; page < pages && items.length < maxItems; page += 1) {
    const limit = Math.min(DELIVERY_MAX_PAGE_LIMIT, maxItems - items.length);
    let answer;
    try {
      answer = await fetchDelivery(env, config, {
        kind: 'playlist', site, id: playlistId, query: { ...query, page_offset: String(offset), page_limit: String(limit) },
      }, { acceptRecent: options.who.acceptRecent ?? false });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'not_found' && isVariant(options.variant)) return null;
      // The head has shown the playlist to be the site's: a refusal is the operator's signing configuration.
      if (error.code === 'delivery_refused') reportRefusal(config, site, `playlist ${site}/${playlistId}`);
      throw error;
    }
    const before = items.length;
    for (const entry of answer.playlist) {
      // A playlist may list a media twice; a shelf shows it once, where it first comes.
      if (seen.has(entry.mediaid)) continue;
      seen.add(entry.mediaid);
      items.push(feedItemFromDelivery(unsignedItem(entry, delivery), delivery));
    }
    // The last page: shorter than asked, no next page, or nothing new in it.
    if (answer.playlist.length < limit || answer.links?.next === undefined || items.length === before) break;
    offset += answer.playlist.length;
  }
  return items.slice(0, maxItems);
}

/** The related media's facts, from its delivery answer; null when delivery does not know it. */
async function relatedFacts(options: FeedLoadOptions, id: string): Promise<(MemberFacts & { id: string }) | null> {
  try {
    const answer = await fetchDelivery(options.env, options.config, { kind: 'media', site: options.site, id },
      { acceptRecent: options.who.acceptRecent ?? false });
    const item = answer.playlist.find((entry) => entry.mediaid === id);
    return item ? { id, tags: tagsOf(item), custom_params: { ...item.custom } } : null;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    throw error;
  }
}
