/**
 * What a filtered playlist binds to a policy: every media its rules select, whatever its feed shows. A feed stops at
 * `limit`, `recency` and `feed.max_items`, and its order is the platform's to choose; a policy must not stop there, so
 * the rules that say which media belong (tags and custom parameters to include and exclude, and the pinned slots) are
 * kept with the feed and evaluated on the media itself. Ordering and narrowing rules (sort, limit, recency, the caller's
 * search, tags or related media) never make a media less bound: a policy errs toward refusing.
 */
import type { FilteredRules } from './playlist-rules.ts';
import { paramsMatch, some, tagsMatch } from './playlist-selection.ts';

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
