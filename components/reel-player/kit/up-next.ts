/**
 * Up next: what a player linked to a playlist offers when its media ends. The `upnext` attribute says `play` (the next
 * item plays after the countdown), `cue` (it is loaded, not started) or `off`; without it the player configuration's
 * `related.oncomplete` decides (`autoplay` plays, `none` and `hide` offer nothing, anything else cues), as the
 * platform's own player reads it. The countdown is `upnext-delay` seconds, else `related.autoplaytimer`, else 5.
 */
import type { KitHost, PlaylistLike } from './host.ts';

export interface UpNext {
  id: string;
  title: string;
  play: boolean;
  seconds: number;
}

const DEFAULT_SECONDS = 5;

export function upNextChoice(host: KitHost, current: string): UpNext | null {
  const playlist = linkedPlaylist(host);
  const items = playlist?.items ?? [];
  const index = items.findIndex((item) => item.id === current);
  const next = index >= 0 ? items[index + 1] : undefined;
  if (!next) return null;
  const related = host.config?.setup_config?.related as { oncomplete?: unknown; autoplaytimer?: unknown } | undefined;
  const mode = host.getAttribute('upnext') ?? (related?.oncomplete === 'autoplay' ? 'play'
    : related?.oncomplete === 'none' || related?.oncomplete === 'hide' ? 'off' : 'cue');
  if (mode === 'off') return null;
  const configured = Number(host.getAttribute('upnext-delay') ?? related?.autoplaytimer ?? NaN);
  const seconds = Number.isFinite(configured) && configured >= 0 ? Math.min(Math.round(configured), 60) : DEFAULT_SECONDS;
  return { id: next.id, title: next.title ?? '', play: mode === 'play', seconds };
}
/** The `<reel-playlist>` the player follows (`for`), in its document or shadow root. */
export function linkedPlaylist(host: KitHost): PlaylistLike | null {
  const root = host.getRootNode() as Document | ShadowRoot;
  return host.htmlFor ? root.getElementById?.(host.htmlFor) as PlaylistLike | null : null;
}

