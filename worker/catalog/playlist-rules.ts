/**
 * A playlist's rules, read from where the platform keeps them: the type from the untyped answer's `playlist_type`,
 * the rules from the typed answer's `metadata` (a manual playlist's ordered ids in `media_filter.include.values`; a
 * filtered playlist's `tag_filter`, `custom_param_filter`, `pinning`, `recency` and `media_filter`). Whatever cannot be
 * read is refused with `playlist_rules_unreadable` (502), never guessed: a playlist whose members are unknown must bind
 * nothing as "unbound" (worker/docs/public-api.md, "What the worker reads from the platform").
 */
import { ApiError } from '../http/errors.ts';
import { readPlaylistType } from '../contract/path-segments.ts';
import {
  DEFAULT_PLAYLIST_LIMIT, PLAYLIST_SORTS, type FilterMatch, type PlaylistSort, type PlaylistType,
} from '../contract/v2-types.ts';

/** Which values a filter keeps: media with any of them, or with all of them. */
export interface ValueFilter<V> {
  values: V;
  match: FilterMatch;
}

/** A playlist's rules, as the feed resolves them. */
export type PlaylistRules =
  | { type: 'manual'; ids: string[] }
  | {
    type: 'dynamic' | 'search' | 'recommendations' | 'article_matching';
    includeTags: ValueFilter<string[]>;
    excludeTags: ValueFilter<string[]>;
    includeParams: ValueFilter<Record<string, string>>;
    excludeParams: ValueFilter<Record<string, string>>;
    /** Media held at the first places, in order. */
    pinned: string[];
    /** Only media published within this many milliseconds of now; null for no limit. */
    recencyMs: number | null;
    /** Dynamic playlists only; the others are newest first. */
    sort: PlaylistSort;
    limit: number;
  }
  | { type: 'watchlist' };

export type FilteredRules = Extract<PlaylistRules, { includeTags: unknown }>;

/** The refusal for a playlist whose type or rules are not in a shape the worker reads. */
export function rulesUnreadable(playlistId: string, what: string): ApiError {
  return new ApiError(502, 'playlist_rules_unreadable',
    `Playlist '${playlistId}' cannot be read (${what}): its feed, and every media it could bind to a policy, are refused until it can.`);
}

/** The type an untyped answer names; one the worker does not know is unreadable. */
export function readType(playlistId: string, answer: unknown): PlaylistType {
  const type = readPlaylistType(isObject(answer) ? answer.playlist_type : undefined);
  if (type === null) {
    const named = isObject(answer) && typeof answer.playlist_type === 'string' ? `'${answer.playlist_type.slice(0, 40)}'` : 'none';
    throw rulesUnreadable(playlistId, `playlist_type is ${named}`);
  }
  return type;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads one member. `object`, `strings`, `params` and `match` give `fallback`s for an absent (undefined or null) member;
 * the `required…` readers refuse it: a rule the definition says is always present and that is missing cannot be read
 * as "no rule" (it would select, and bind, everything).
 */
class Reader {
  constructor(private readonly playlistId: string) {}

  fail(path: string, expected: string): never {
    throw rulesUnreadable(this.playlistId, `metadata.${path} is not ${expected}`);
  }

  object(value: unknown, path: string): Record<string, unknown> {
    if (value === undefined || value === null) return {};
    return isObject(value) ? value : this.fail(path, 'an object');
  }

  requiredObject(value: unknown, path: string): Record<string, unknown> {
    return isObject(value) ? value : this.fail(path, 'an object');
  }

  strings(value: unknown, path: string): string[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) this.fail(path, 'a list of strings');
    return [...new Set(value as string[])];
  }

  params(value: unknown, path: string): Record<string, string> {
    const record = this.requiredObject(value, path);
    if (!Object.values(record).every((item) => typeof item === 'string')) this.fail(path, 'a map of strings');
    return record as Record<string, string>;
  }

  match(value: unknown, path: string): FilterMatch {
    return value === 'any' || value === 'all' ? value : this.fail(path, '"any" or "all"');
  }

  /** `{ values: [...], match }`: both members present, as the definition has them. */
  tags(value: unknown, path: string): ValueFilter<string[]> {
    const filter = this.requiredObject(value, path);
    if (!Array.isArray(filter.values)) this.fail(`${path}.values`, 'a list of strings');
    return { values: this.strings(filter.values, `${path}.values`), match: this.match(filter.match, `${path}.match`) };
  }

  customParams(value: unknown, path: string): ValueFilter<Record<string, string>> {
    const filter = this.requiredObject(value, path);
    return { values: this.params(filter.values, `${path}.values`), match: this.match(filter.match, `${path}.match`) };
  }
}

const RECENCY = /^(\d{1,4})(D|YR)$/i;
const DAY_MS = 86_400_000;

/** `30D` → 30 days, `1YR` → 365 days; null when unset. */
export function recencyMs(value: string | null): number | null {
  if (value === null || value === '') return null;
  const match = RECENCY.exec(value);
  if (!match) return Number.NaN;
  const count = Number(match[1]);
  return count * (match[2]!.toUpperCase() === 'YR' ? 365 : 1) * DAY_MS;
}

/** The rules of a playlist of `type` from its typed answer's `metadata`. */
export function readRules(playlistId: string, type: PlaylistType, metadata: unknown): PlaylistRules {
  const read = new Reader(playlistId);
  if (!isObject(metadata)) read.fail('', 'an object');
  const m = metadata as Record<string, unknown>;
  if (type === 'watchlist') return { type };
  const mediaFilter = read.object(m.media_filter, 'media_filter');
  if (type === 'manual') {
    // The one place a manual playlist's media are: without it, its members are unknown.
    const include = read.object(mediaFilter.include, 'media_filter.include');
    if (!Array.isArray(include.values)) read.fail('media_filter.include.values', 'a list of media ids');
    return { type, ids: read.strings(include.values, 'media_filter.include.values') };
  }
  // The definition gives every filtered playlist these members (with empty values for "no filter"); defaults only for
  // `media_filter.sort` and `media_filter.limit`.
  const tagFilter = read.requiredObject(m.tag_filter, 'tag_filter');
  const paramFilter = read.requiredObject(m.custom_param_filter, 'custom_param_filter');
  const pinning = read.requiredObject(m.pinning, 'pinning');
  if (!('recency' in m)) read.fail('recency', 'present (a span such as "30D", or null)');
  read.requiredObject(m.media_filter, 'media_filter');
  const pinned = ['slot1', 'slot2'].flatMap((slot) => {
    const id = pinning[slot];
    if (id === undefined || id === null || id === '') return [];
    return typeof id === 'string' ? [id] : read.fail(`pinning.${slot}`, 'a media id');
  });
  const recencyText = m.recency === undefined || m.recency === null ? null
    : typeof m.recency === 'string' ? m.recency : read.fail('recency', 'a span such as "30D" or "1YR"');
  const recency = recencyMs(recencyText);
  if (Number.isNaN(recency)) read.fail('recency', 'a span such as "30D" or "1YR"');
  const limit = mediaFilter.limit === undefined || mediaFilter.limit === null ? DEFAULT_PLAYLIST_LIMIT : mediaFilter.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) read.fail('media_filter.limit', 'a whole number from 1');
  const sort = type !== 'dynamic' || mediaFilter.sort === undefined || mediaFilter.sort === null ? 'publish_start_date:dsc' : mediaFilter.sort;
  if (!(PLAYLIST_SORTS as readonly unknown[]).includes(sort)) read.fail('media_filter.sort', `one of ${PLAYLIST_SORTS.join(', ')}`);
  return {
    type,
    includeTags: read.tags(tagFilter.include, 'tag_filter.include'),
    excludeTags: read.tags(tagFilter.exclude, 'tag_filter.exclude'),
    includeParams: read.customParams(paramFilter.include, 'custom_param_filter.include'),
    excludeParams: read.customParams(paramFilter.exclude, 'custom_param_filter.exclude'),
    pinned: [...new Set(pinned)],
    recencyMs: recency,
    sort: sort as PlaylistSort,
    limit: limit as number,
  };
}
