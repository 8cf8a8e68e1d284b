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

function strings(value: unknown, into: string[]): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) strings(item, into);
  return into;
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
    for (const text of strings(value, [])) {
      for (const [id] of text.matchAll(ID)) {
        const playlistPolicy = site.playlists.get(id);
        if (playlistPolicy) names.add(playlistPolicy);
        for (const name of mediaPolicies(site, id, membership)) names.add(name);
      }
    }
    if (names.size) bound.set(setting, [...names]);
  }
  return bound;
}
