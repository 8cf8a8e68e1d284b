/**
 * Every cache key of the worker, made here and nowhere else: the resources and loaders read and reserve under them, playback
 * records resolve by them, and purge (gateway/purge.ts) deletes by them and by their prefixes. In KV:
 * `feed:<site>:<playlist>` (a playlist's own feed), `feed:<site>:<playlist>:head` and `feed:<site>:<playlist>:<seed>:<tags>`
 * (its variants), `media:<site>:<media>`, `player:<site>:<player>`, `poster:<site>:<media>`, `geo:<hashed address>`
 * (one caller address's own answer, never its network's).
 */
import type { FeedVariant } from './feed-variant.ts';

/** A variant's part of its keys, and its key in the playlist's variant cap: `<seed>:<tags>`. */
export function variantKey(variant: FeedVariant): string {
  // The phrase is URI-encoded: it may hold the ':' and ',' the key uses as separators.
  return `${variant.seed ?? ''}:${variant.tags.join(',')}:${variant.search === null ? '' : encodeURIComponent(variant.search)}`;
}

export const cacheKeys = {
  feed: (site: string, playlist: string) => `feed:${site}:${playlist}`,
  feedHead: (site: string, playlist: string) => `feed:${site}:${playlist}:head`,
  feedVariant: (site: string, playlist: string, variant: FeedVariant) => `feed:${site}:${playlist}:${variantKey(variant)}`,
  media: (site: string, media: string) => `media:${site}:${media}`,
  player: (site: string, player: string) => `player:${site}:${player}`,
  poster: (site: string, media: string) => `poster:${site}:${media}`,
  geo: (hashedAddress: string) => `geo:${hashedAddress}`,
  /** A feed page as rendered for everyone (cache/rendered.ts, this isolate only). */
  renderedFeed: (site: string, playlist: string, variant: FeedVariant | null, page: number, pageLength: number) =>
    `${site}:${playlist}:${variant ? variantKey(variant) : ''}:${page}:${pageLength}`,
};

/** Key prefixes, for purges: every feed of a site (variants and heads included), one playlist's variants, a site's media. */
export const cachePrefixes = {
  siteFeeds: (site: string) => `feed:${site}:`,
  playlistVariants: (site: string, playlist: string) => `feed:${site}:${playlist}:`,
  siteMedia: (site: string) => `media:${site}:`,
};
