/**
 * A player's `setup_config` may name content: a `playlist` URL of a playlist or a media, an inline playlist of items
 * with `mediaid`s and delivery URLs. Such a reference is content too, bound like the content it names (geo/enforce.ts):
 * a caller the content's policies refuse gets the configuration without the setting that names it.
 */
import type { SiteConfig } from '../config.ts';
import { mediaPolicies } from './enforce.ts';
import type { Membership } from './membership.ts';

/** Platform ids are eight letters and digits; inside URLs they stand between separators. */
const ID = /(?<![A-Za-z0-9])[A-Za-z0-9]{8}(?![A-Za-z0-9])/g;
/** The same, for a yes/no question (a global expression keeps state between tests). */
const HAS_ID = new RegExp(ID.source);
/** Settings that hold an id on its own (an inline playlist's items). */
const ID_KEY = /^(media|playlist)_?id$/i;

/** The strings that can name content: URLs and paths anywhere in the value, and the values of id keys. */
function references(value: unknown, key: string, into: string[]): string[] {
  if (typeof value === 'string') {
    if (value.includes('/') || ID_KEY.test(key)) into.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) references(item, key, into);
  } else if (value && typeof value === 'object') {
    for (const [k, item] of Object.entries(value)) references(item, k, into);
  }
  return into;
}

/** Whether any setting could name content at all (then, and only then, membership is worth reading). */
export function namesAnything(setupConfig: Record<string, unknown>): boolean {
  return Object.entries(setupConfig).some(([setting, value]) => references(value, setting, []).some((text) => HAS_ID.test(text)));
}

/**
 * For each top-level setting of `setup_config` that names bound content, the policies that bind it (settings naming
 * nothing bound are left out).
 */
export function boundSettings(setupConfig: Record<string, unknown>, site: SiteConfig,
  membership: Membership): Map<string, string[]> {
  const bound = new Map<string, string[]>();
  for (const [setting, value] of Object.entries(setupConfig)) {
    const names = new Set<string>();
    for (const text of references(value, setting, [])) {
      for (const [id] of text.matchAll(ID)) {
        const playlistPolicy = site.playlists.get(id);
        if (playlistPolicy) names.add(playlistPolicy);
        // A setting names a media by id alone: its tags are not at hand, so every rule that could bind it does.
        for (const name of mediaPolicies(site, id, membership, 'unknown')) names.add(name);
      }
    }
    if (names.size) bound.set(setting, [...names]);
  }
  return bound;
}
