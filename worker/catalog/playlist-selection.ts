/**
 * How a filtered playlist's media are found with the Management API alone: one media list call whose `q` narrows by
 * what the query syntax can say (the tags to include, the caller's search phrase or tags, as OR-ed and AND-ed terms),
 * then every rule checked on the answers themselves (excluded tags, custom-parameter filters, recency), so a rule the
 * query could not carry is still kept. The playlist's order comes from the list's `sort` where the Management API can
 * sort that way; plays and trending it cannot, so those playlists are newest first (worker/README.md).
 */
import { checkQ } from '../contract/list-query.ts';
import { MAX_PAGE_LENGTH, type Media } from '../contract/v2-types.ts';
import type { FilteredRules, ValueFilter } from './playlist-rules.ts';

/** What the caller narrows a filtered playlist by, at delivery time. */
export type CallerNarrowing =
  | { kind: 'none' }
  | { kind: 'search'; phrase: string }
  | { kind: 'related'; media: Media }
  | { kind: 'tags'; tags: string[] };

export interface Selection {
  /** The list call's `q`; empty for every media of the site. */
  q: string;
  sort: string;
  pageLength: number;
  /** Every rule, checked on a listed media. */
  keep: (media: Media, now: number) => boolean;
  shuffle: boolean;
}

/** `field:value`, quoted when the value holds anything but plain word characters. */
export function term(field: string, value: string): string {
  const clean = value.replace(/["\\]/g, '');
  return /^[A-Za-z0-9_.-]+$/.test(clean) ? `${field}:${clean}` : `${field}:"${clean}"`;
}

/** OR of ANDs: the only form the platform's `q` takes (no parentheses). */
type Dnf = string[][];
const anyOf = (terms: string[]): Dnf => terms.map((t) => [t]);
const allOf = (terms: string[]): Dnf => [terms];

/** (a₁ OR a₂) AND (b₁ OR b₂) as a₁b₁ OR a₁b₂ OR a₂b₁ OR a₂b₂. */
function and(a: Dnf, b: Dnf): Dnf {
  if (!a.length) return b;
  if (!b.length) return a;
  return a.flatMap((x) => b.map((y) => [...x, ...y]));
}

/** Whether the platform takes `q` (contract/list-query.ts): printable, at most its length. */
const acceptedQ = (q: string) => checkQ(q).ok;

/** Beyond this many OR-ed branches a `q` gets long; the rest is left to the checks on the answers. */
const MAX_BRANCHES = 24;

const SORTS: Record<string, string> = {
  'duration:asc': 'duration:asc', 'duration:dsc': 'duration:dsc',
  'publish_start_date:asc': 'publish_start_date:asc', 'publish_start_date:dsc': 'publish_start_date:dsc',
  'title:asc': 'title:asc', 'title:dsc': 'title:dsc',
};
/** Plays, trending and shuffle are the Delivery API's to compute; the Management API lists newest first instead. */
const NEWEST_FIRST = 'publish_start_date:dsc';

export function tagsMatch(tags: readonly string[], filter: ValueFilter<string[]>): boolean {
  if (!filter.values.length) return true;
  return filter.match === 'all' ? filter.values.every((t) => tags.includes(t)) : filter.values.some((t) => tags.includes(t));
}

export function paramsMatch(params: Readonly<Record<string, string>>, filter: ValueFilter<Record<string, string>>): boolean {
  const wanted = Object.entries(filter.values);
  if (!wanted.length) return true;
  const hit = ([name, value]: [string, string]) => params[name] === value;
  return filter.match === 'all' ? wanted.every(hit) : wanted.some(hit);
}

export const some = (filter: ValueFilter<string[] | Record<string, string>>) =>
  Array.isArray(filter.values) ? filter.values.length > 0 : Object.keys(filter.values).length > 0;

function narrowedBy(narrowing: CallerNarrowing, media: Media): boolean {
  switch (narrowing.kind) {
    case 'none': return true;
    case 'search': {
      const phrase = narrowing.phrase.toLowerCase();
      return [media.metadata.title, media.metadata.description ?? ''].some((text) => text.toLowerCase().includes(phrase));
    }
    case 'related':
      return media.id !== narrowing.media.id && (narrowing.media.metadata.tags ?? []).some((t) => media.metadata.tags?.includes(t));
    case 'tags':
      return narrowing.tags.some((t) => media.metadata.tags?.includes(t));
  }
}

function narrowingTerms(narrowing: CallerNarrowing): Dnf {
  switch (narrowing.kind) {
    case 'none': return [];
    case 'search': return anyOf([term('title', narrowing.phrase), term('description', narrowing.phrase)]);
    case 'related': return anyOf((narrowing.media.metadata.tags ?? []).map((t) => term('tags', t)));
    case 'tags': return anyOf(narrowing.tags.map((t) => term('tags', t)));
  }
}

/** A related media without tags, or a search of nothing, selects nothing: there is no call to make. */
export function selectsNothing(narrowing: CallerNarrowing): boolean {
  return (narrowing.kind === 'related' && !(narrowing.media.metadata.tags ?? []).length)
    || (narrowing.kind === 'tags' && !narrowing.tags.length);
}

export function filteredSelection(rules: FilteredRules, narrowing: CallerNarrowing): Selection {
  const include = rules.includeTags.values.map((t) => term('tags', t));
  let dnf = and(rules.includeTags.match === 'all' ? allOf(include) : anyOf(include), narrowingTerms(narrowing));
  if (dnf.length > MAX_BRANCHES) {
    // Too many branches: narrow by the caller's terms alone and check the playlist's own tags on the answers.
    dnf = narrowingTerms(narrowing).slice(0, MAX_BRANCHES);
  }
  // Only ready media can be in a feed: said in every branch, so the page is not spent on media still processing.
  const ready = term('status', 'ready');
  const withReady = (terms: Dnf) => (terms.length ? terms.map((branch) => [...branch, ready].join(' AND ')).join(' OR ') : ready);
  // A `q` the platform would refuse (a tag with a control character, or longer than it takes) narrows by less: every
  // rule is checked on the answers anyway, so the feed is the same, and it is never refused for the playlist's words.
  const q = [dnf, narrowingTerms(narrowing).slice(0, MAX_BRANCHES), []].map(withReady).find(acceptedQ)!;
  // Rules checked on the answers (the publish window always, exclusions, custom parameters, recency) drop listed
  // media: the call asks for the largest page, so `limit` of them remain. It is still one call.
  const recency = rules.recencyMs;
  return {
    q,
    sort: SORTS[rules.sort] ?? NEWEST_FIRST,
    pageLength: MAX_PAGE_LENGTH,
    shuffle: rules.sort === 'shuffle',
    keep: (media, now) => {
      // A filtered playlist picks among the media public now (a scheduled one would take a place it cannot show);
      // the feed is reloaded within its cache window, so a media published later joins it then.
      if (!publishedAt(media, now)) return false;
      const tags = media.metadata.tags ?? [];
      const params = media.metadata.custom_params ?? {};
      if (!tagsMatch(tags, rules.includeTags)) return false;
      if (some(rules.excludeTags) && tagsMatch(tags, rules.excludeTags)) return false;
      if (!paramsMatch(params, rules.includeParams)) return false;
      if (some(rules.excludeParams) && paramsMatch(params, rules.excludeParams)) return false;
      if (recency !== null) {
        const start = media.metadata.publish_start_date ? Date.parse(media.metadata.publish_start_date) : Number.NaN;
        if (!Number.isFinite(start) || start < now - recency) return false;
      }
      return narrowedBy(narrowing, media);
    },
  };
}

function publishedAt(media: Media, now: number): boolean {
  if (media.status !== 'ready') return false;
  const start = media.metadata.publish_start_date ? Date.parse(media.metadata.publish_start_date) : Number.NaN;
  if (!Number.isFinite(start) || start > now) return false;
  const end = media.metadata.publish_end_date ? Date.parse(media.metadata.publish_end_date) : null;
  return end === null || end > now;
}

/** A fair shuffle (Fisher–Yates) with the platform's randomness, for `shuffle` playlists: a new order per load. */
export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  const random = new Uint32Array(out.length);
  crypto.getRandomValues(random);
  for (let i = out.length - 1; i > 0; i--) {
    const j = random[i]! % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
