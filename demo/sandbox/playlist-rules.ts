// The six playlist types: each one's subresource defaults and validation, and the platform-side ranking that
// materialises a trending list.
import type { Media, PlaylistSubresources, PlaylistType } from '../../worker/contract/v2-types.ts';
import { PLAYLIST_TYPES } from '../../worker/contract/v2-types.ts';
import { field, isObject, onlyKnown } from './body.ts';
import { invalid } from './http.ts';
import { playlistTypeFromSegment, playlistTypeRefusal } from '../../worker/contract/path-segments.ts';
import { hashString } from './prng.ts';
import { parseQuery, parseSort } from './query.ts';
import { MEDIA_FIELDS } from './fields.ts';

export function isPlaylistType(value: string): value is PlaylistType {
  return (PLAYLIST_TYPES as readonly string[]).includes(value);
}

/**
 * The type a typed-playlist path names, spelled as the platform spells it (`manual_playlist`). The short name is not
 * an alias: like any other segment it is refused, with the right spelling in the description.
 */
export function requirePlaylistTypeSegment(segment: string): PlaylistType {
  const type = playlistTypeFromSegment(segment);
  if (type === null) throw invalid('invalid_playlist_type', playlistTypeRefusal(segment));
  return type;
}

export const SUBRESOURCE_DEFAULTS: { [K in PlaylistType]: PlaylistSubresources[K] } = {
  manual: { media_ids: [], max_items: 50 },
  dynamic: { tags: [], tags_mode: 'any', sort: 'publish_start_date:desc', max_items: 20 },
  search: { q: 'status:ready', sort: 'publish_start_date:desc', max_items: 20 },
  trending: { window: '7d', media_ids: [], max_items: 10 },
  recommendations: { related_by: 'tags', seed_media_id: null, max_items: 12 },
  article_matching: { match_field: 'tags', default_tags: [], max_items: 6 },
  watchlist: { max_items: 50 },
};

const KNOWN: { [K in PlaylistType]: readonly string[] } = {
  manual: ['media_ids', 'max_items'],
  dynamic: ['tags', 'tags_mode', 'sort', 'max_items'],
  search: ['q', 'sort', 'max_items'],
  trending: ['window', 'max_items'],
  recommendations: ['related_by', 'seed_media_id', 'max_items'],
  article_matching: ['match_field', 'default_tags', 'max_items'],
  watchlist: ['max_items'],
};

/**
 * Merges a (partial) subresource from a body over the current one, validating every member. `mediaExists` checks
 * media ids against the site. Trending's `media_ids` are the platform's to compute, so callers cannot set them.
 */
export function mergeSubresource<T extends PlaylistType>(
  type: T, current: PlaylistSubresources[T], patch: unknown, mediaExists: (id: string) => boolean,
): PlaylistSubresources[T] {
  const path = `metadata.${type}`;
  if (patch === undefined) return current;
  if (!isObject(patch)) throw invalid('invalid_parameter', `${path} must be an object.`);
  onlyKnown(patch, path, KNOWN[type]);
  const next = { ...current } as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    const at = `${path}.${key}`;
    switch (key) {
      case 'max_items': next[key] = field.int(value, at, 1, 500); break;
      case 'media_ids': {
        const ids = field.strings(value, at);
        const missing = ids.filter((id) => !mediaExists(id));
        if (missing.length > 0) throw invalid('invalid_parameter', `${at}: no media ${missing.map((id) => `'${id}'`).join(', ')} in this site.`);
        if (new Set(ids).size !== ids.length) throw invalid('invalid_parameter', `${at} lists a media more than once.`);
        next[key] = ids;
        break;
      }
      case 'tags': case 'default_tags': next[key] = field.strings(value, at, { max: 50 }); break;
      case 'tags_mode': next[key] = field.oneOf(value, at, ['all', 'any'] as const); break;
      case 'sort': parseSort(field.string(value, at, { nonEmpty: true }) as string, MEDIA_FIELDS); next[key] = value; break;
      case 'q': parseQuery(field.string(value, at, { nonEmpty: true }) as string, MEDIA_FIELDS); next[key] = value; break;
      case 'window': next[key] = field.oneOf(value, at, ['24h', '7d', '30d'] as const); break;
      case 'related_by': next[key] = field.oneOf(value, at, ['tags'] as const); break;
      case 'match_field': next[key] = field.oneOf(value, at, ['tags'] as const); break;
      case 'seed_media_id': {
        const id = field.string(value, at, { nullable: true, nonEmpty: true });
        if (id !== null && !mediaExists(id)) throw invalid('invalid_parameter', `${at}: no media '${id}' in this site.`);
        next[key] = id;
        break;
      }
    }
  }
  return next as PlaylistSubresources[T];
}

export function isPublished(media: Media, now: number): boolean {
  const { publish_start_date: start, publish_end_date: end } = media.metadata;
  return media.status === 'ready' && start !== null && Date.parse(start) <= now && (end === null || Date.parse(end) > now);
}

/** The platform's trending ranking: deterministic view counts per media and window, highest first. */
export function trendingIds(candidates: Media[], window: string, maxItems: number): string[] {
  return candidates
    .map((media) => ({ id: media.id, views: hashString(`${media.id}:${window}`) % 100_000 }))
    .sort((a, b) => b.views - a.views || (a.id < b.id ? -1 : 1))
    .slice(0, maxItems)
    .map((entry) => entry.id);
}
