/**
 * What a filtered playlist binds to a policy: every media its rules select, whatever its feed shows. A feed stops at
 * `limit`, `recency` and `feed.max_items`, and its order is the platform's to choose; a policy must not stop there, so
 * the rules that say which media belong (tags and custom parameters to include and exclude, and the pinned slots) are
 * kept with the feed and evaluated on the media itself. Ordering and narrowing rules (sort, limit, recency, the caller's
 * search, tags or related media) never make a media less bound: a policy errs toward refusing.
 */
import type { FilteredRules, ValueFilter } from './playlist-rules.ts';

export type MemberRules = Pick<FilteredRules, 'includeTags' | 'excludeTags' | 'includeParams' | 'excludeParams'>;

/** What a media is judged by: its tags and its custom parameters, all of them (not only the allowlisted ones). */
export interface MemberFacts {
  tags: readonly string[];
  custom_params: Readonly<Record<string, string>>;
}

export function memberRulesOf(rules: FilteredRules): MemberRules {
  const { includeTags, excludeTags, includeParams, excludeParams } = rules;
  return { includeTags, excludeTags, includeParams, excludeParams };
}

/** Whether the rules select the media: its tags and parameters included, and not excluded. */
export function selects(rules: MemberRules, media: MemberFacts): boolean {
  if (!tagsMatch(media.tags, rules.includeTags)) return false;
  if (some(rules.excludeTags) && tagsMatch(media.tags, rules.excludeTags)) return false;
  if (!paramsMatch(media.custom_params, rules.includeParams)) return false;
  return !(some(rules.excludeParams) && paramsMatch(media.custom_params, rules.excludeParams));
}

function tagsMatch(tags: readonly string[], filter: ValueFilter<string[]>): boolean {
  if (!filter.values.length) return true;
  return filter.match === 'all' ? filter.values.every((t) => tags.includes(t)) : filter.values.some((t) => tags.includes(t));
}

function paramsMatch(params: Readonly<Record<string, string>>, filter: ValueFilter<Record<string, string>>): boolean {
  const wanted = Object.entries(filter.values);
  if (!wanted.length) return true;
  const hit = ([name, value]: [string, string]) => params[name] === value;
  return filter.match === 'all' ? wanted.every(hit) : wanted.some(hit);
}

/** Whether a filter names anything: an empty exclusion excludes nothing. */
const some = (filter: ValueFilter<string[] | Record<string, string>>) =>
  Array.isArray(filter.values) ? filter.values.length > 0 : Object.keys(filter.values).length > 0;
