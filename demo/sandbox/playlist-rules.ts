// The six playlist types' rules, kept as the platform keeps them, under `metadata`: a manual playlist's ordered media
// in `media_filter.include.values`; a filtered one's tag and custom-parameter filters, pinned media, recency and
// `media_filter` (a sort for dynamic playlists, a limit for all). Each type's defaults, and the validation of a
// create or update body, member by member, with messages that name the member.
import type { PlaylistType } from '../../worker/contract/v2-types.ts';
import { DEFAULT_PLAYLIST_LIMIT, PLAYLIST_SORTS, PLAYLIST_TYPES } from '../../worker/contract/v2-types.ts';
import { field, isObject, onlyKnown } from './body.ts';
import { invalid } from './http.ts';
import { playlistTypeFromSegment, playlistTypeRefusal } from '../../worker/contract/path-segments.ts';
import type { Media } from './records.ts';

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

/** The members of `metadata` each type's rules add to the playlist's own fields. */
export const RULE_MEMBERS: { [K in PlaylistType]: readonly string[] } = {
  manual: ['media_filter'],
  dynamic: ['tag_filter', 'custom_param_filter', 'media_filter', 'pinning', 'recency'],
  search: ['tag_filter', 'custom_param_filter', 'media_filter', 'pinning', 'recency'],
  recommendations: ['tag_filter', 'custom_param_filter', 'media_filter', 'pinning', 'recency'],
  article_matching: ['tag_filter', 'custom_param_filter', 'media_filter', 'pinning', 'recency'],
  watchlist: [],
};

const emptyFilter = <V>(values: V) => ({ include: { values, match: 'any' as const }, exclude: { values, match: 'any' as const } });

/** A new playlist's rules, as the platform fills them in. */
export function defaultRules(type: PlaylistType): Record<string, unknown> {
  if (type === 'manual') return { media_filter: { include: { match: 'any', values: [] } } };
  if (type === 'watchlist') return {};
  return {
    tag_filter: emptyFilter<string[]>([]),
    custom_param_filter: emptyFilter<Record<string, string>>({}),
    media_filter: type === 'dynamic' ? { sort: 'publish_start_date:dsc', limit: DEFAULT_PLAYLIST_LIMIT } : { limit: DEFAULT_PLAYLIST_LIMIT },
    pinning: { slot1: null, slot2: null },
    recency: null,
  };
}

const RECENCY = /^\d{1,4}(D|YR)$/;

function section(value: unknown, path: string, known: readonly string[]): Record<string, unknown> {
  if (!isObject(value)) throw invalid('invalid_parameter', `${path} must be an object.`);
  onlyKnown(value, path, known);
  return value;
}

function match(value: unknown, path: string, current: string): string {
  return value === undefined ? current : field.oneOf(value, path, ['any', 'all'] as const);
}

/** `{include, exclude}`, each `{values, match}`: given parts replace the current ones. */
function mergeFilter(current: Record<string, { values: unknown; match: string }>, patch: unknown, path: string,
  readValues: (value: unknown, at: string) => unknown): Record<string, unknown> {
  const given = section(patch, path, ['include', 'exclude']);
  const next: Record<string, unknown> = { ...current };
  for (const side of ['include', 'exclude'] as const) {
    if (given[side] === undefined) continue;
    const part = section(given[side], `${path}.${side}`, ['values', 'match']);
    next[side] = {
      values: part.values === undefined ? current[side]!.values : readValues(part.values, `${path}.${side}.values`),
      match: match(part.match, `${path}.${side}.match`, current[side]!.match),
    };
  }
  return next;
}

/** A manual playlist lists up to 10,000 media (the definition's bound on `media_filter.include.values`). */
export const MAX_MANUAL_IDS = 10_000;

function uniqueStrings(value: unknown, path: string, max = 100): string[] {
  const values = field.strings(value, path, { max }).map((item) => item.trim());
  if (new Set(values).size !== values.length) throw invalid('invalid_parameter', `${path} lists a value more than once.`);
  return values;
}

function mediaId(value: unknown, path: string, mediaExists: (id: string) => boolean): string | null {
  const id = field.string(value, path, { nullable: true, nonEmpty: true });
  if (id !== null && !mediaExists(id)) throw invalid('invalid_parameter', `${path}: no media '${id}' in this site.`);
  return id;
}

/**
 * Merges the rules a create or update body gives (under `metadata`) over the current ones, validating each member.
 * `mediaExists` checks media ids against the site.
 */
export function mergeRules(type: PlaylistType, current: Record<string, unknown>, metadata: Record<string, unknown>,
  mediaExists: (id: string) => boolean): Record<string, unknown> {
  const next = structuredClone(current);
  for (const member of RULE_MEMBERS[type]) {
    const value = metadata[member];
    const path = `metadata.${member}`;
    if (value === undefined) continue;
    switch (member) {
      case 'media_filter': {
        if (type === 'manual') {
          const include = section(section(value, path, ['include']).include ?? {}, `${path}.include`, ['values', 'match']);
          if (include.match !== undefined) field.oneOf(include.match, `${path}.include.match`, ['any'] as const);
          if (include.values === undefined) break;
          const ids = uniqueStrings(include.values, `${path}.include.values`, MAX_MANUAL_IDS);
          const missing = ids.filter((id) => !mediaExists(id));
          if (missing.length) throw invalid('invalid_parameter', `${path}.include.values: no media ${missing.map((id) => `'${id}'`).join(', ')} in this site.`);
          next.media_filter = { include: { match: 'any', values: ids } };
          break;
        }
        const given = section(value, path, type === 'dynamic' ? ['sort', 'limit'] : ['limit']);
        const filter = { ...(next.media_filter as Record<string, unknown>) };
        if (given.sort !== undefined) filter.sort = field.oneOf(given.sort, `${path}.sort`, PLAYLIST_SORTS);
        if (given.limit !== undefined) filter.limit = field.int(given.limit, `${path}.limit`, 1, 500);
        next.media_filter = filter;
        break;
      }
      case 'tag_filter':
        next.tag_filter = mergeFilter(next.tag_filter as never, value, path, uniqueStrings);
        break;
      case 'custom_param_filter':
        next.custom_param_filter = mergeFilter(next.custom_param_filter as never, value, path, (v, at) => field.customParams(v, at));
        break;
      case 'pinning': {
        const given = section(value, path, ['slot1', 'slot2']);
        const pinning = { ...(next.pinning as Record<string, unknown>) };
        for (const slot of ['slot1', 'slot2'] as const) {
          if (given[slot] !== undefined) pinning[slot] = mediaId(given[slot], `${path}.${slot}`, mediaExists);
        }
        next.pinning = pinning;
        break;
      }
      case 'recency': {
        const recency = field.string(value, path, { nullable: true });
        if (recency !== null && !RECENCY.test(recency)) {
          throw invalid('invalid_parameter', `${path} must be a whole number of days or years, such as '30D' or '1YR' (or null).`);
        }
        next.recency = recency;
        break;
      }
    }
  }
  return next;
}

export function isPublished(media: Media, now: number): boolean {
  const { publish_start_date: start, publish_end_date: end } = media.metadata;
  return media.status === 'ready' && start !== null && Date.parse(start) <= now && (end === null || Date.parse(end) > now);
}
