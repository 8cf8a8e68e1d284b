/**
 * A feed's variants: what a caller may vary per request, and which playlist type takes which. Below both the feed
 * loader (delivery/feed.ts) and the cache keys (catalog/keys.ts), which name a variant's entries.
 */
import type { PlaylistType } from '../contract/v2-types.ts';
import { invalidRequest } from '../http/errors.ts';

/**
 * What a caller may vary, at delivery time, as the platform's Delivery API takes it: the media a recommendations feed
 * relates to (`related_media_id`, older name `seed`), the phrase of a search feed or the article an article-matching
 * feed sits beside (`search`: the article's title, as the platform's player sends it; or the article's `tags`). The
 * Management API stores none of them.
 */
export interface FeedVariant {
  seed: string | null;
  tags: string[];
  search: string | null;
}

/** The query parameters each playlist type varies by; the other types take none. */
const VARIANT_PARAMETERS: Partial<Record<PlaylistType, ReadonlyArray<keyof FeedVariant>>> = {
  recommendations: ['seed'],
  article_matching: ['search', 'tags'],
  search: ['search'],
};

/** The name a caller knows each variant by. */
const PARAMETER_NAME: Record<keyof FeedVariant, string> = { seed: 'related_media_id', tags: 'tags', search: 'search' };

export const NO_VARIANT: FeedVariant = { seed: null, tags: [], search: null };

/** Whether a caller asked for a variant at all. */
export function isVariant(variant: FeedVariant): boolean {
  return variant.seed !== null || variant.tags.length > 0 || variant.search !== null;
}

/** Whether the playlist's type delivers anything without a variant: a similar or search feed needs its media or words. */
export function needsVariant(type: PlaylistType): boolean {
  return VARIANT_PARAMETERS[type] !== undefined;
}

/**
 * Refuses a variant the playlist's type does not use: every value would be a new cache key (and upstream calls) for
 * an answer that is the same as the playlist's own feed.
 */
export function checkVariant(type: PlaylistType, variant: FeedVariant): void {
  for (const parameter of ['seed', 'tags', 'search'] as const) {
    const given = parameter === 'tags' ? variant.tags.length > 0 : variant[parameter] !== null;
    if (!given || VARIANT_PARAMETERS[type]?.includes(parameter)) continue;
    const takes = Object.entries(VARIANT_PARAMETERS).filter(([, p]) => p.includes(parameter)).map(([t]) => t).join(' and ');
    throw invalidRequest(`"${PARAMETER_NAME[parameter]}" applies to ${takes} playlists only; this playlist is ${type}.`);
  }
}
