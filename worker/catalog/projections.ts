/**
 * Management API resources → public shapes: a playlist's head, a player, a media's text tracks (for the v1 layer).
 * Only fields listed here leave the worker. Media and feed items come from the Delivery API (delivery/media.ts). Custom
 * params are kept whole in the cache (a bound playlist's rules may name any of them, geo/membership.ts); every answer
 * shows only the operator's allowlist (`allowedCustomParams`, when presenting).
 */
import type { FeedItem, FeedResponse, MediaTrack, PlayerResponse } from '../contract/public-api.ts';
import type { Player, Playlist, PlaylistType, TextTrack } from '../contract/v2-types.ts';
import { httpUrl } from '../contract/links.ts';

export function allowedCustomParams(params: Record<string, string> | null | undefined,
  allowlist: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of allowlist) {
    const value = params?.[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** Public now: ready, scheduled, started, not ended. */
export function isPublished(item: Pick<FeedItem, 'publish_start_date' | 'publish_end_date'>, now: number): boolean {
  if (!item.publish_start_date) return false;
  const start = Date.parse(item.publish_start_date);
  if (!Number.isFinite(start) || start > now) return false;
  if (!item.publish_end_date) return true;
  const end = Date.parse(item.publish_end_date);
  return Number.isFinite(end) && now < end;
}

/** The playlist's own fields; its type comes from the untyped answer or the typed path, never the typed answer. */
export function playlistHeader(playlist: Pick<Playlist, 'id' | 'metadata'>, type: PlaylistType): FeedResponse['playlist'] {
  const m = playlist.metadata;
  return {
    id: playlist.id,
    type,
    title: m.title,
    description: m.description ?? null,
    author: m.author ?? null,
    link: httpUrl(m.link),
  };
}

const TRACK_KINDS: ReadonlySet<string> = new Set(['captions', 'subtitles', 'chapters', 'descriptions', 'metadata']);
/** The kinds a captions menu lists, in which one track is the default. */
const MENU_KINDS: ReadonlySet<string> = new Set(['captions', 'subtitles']);

/**
 * The text tracks a player gets: published ones (`status` ready: a draft has a file too, and a track whose status the
 * answer does not say is not known to be published) with a file, in the order of the
 * platform's captions menu (`metadata.position`). The platform has no default flag: the first captions or subtitles
 * track of its menu is the one it shows first, so that one is `default` and no other.
 */
export function tracksOf(textTracks: readonly TextTrack[]): MediaTrack[] {
  const usable = textTracks
    .filter((t) => t.status === 'ready' && httpUrl(t.delivery_url) !== null && TRACK_KINDS.has(t.track_kind))
    .map((t, index) => ({ t, index, position: Number.isInteger(t.metadata?.position) ? t.metadata.position : Number.MAX_SAFE_INTEGER }))
    .sort((a, b) => a.position - b.position || a.index - b.index)
    .map(({ t }) => t);
  const first = usable.find((t) => MENU_KINDS.has(t.track_kind));
  return usable.map((t) => ({
    url: t.delivery_url!,
    kind: t.track_kind,
    label: typeof t.metadata?.label === 'string' ? t.metadata.label : '',
    srclang: typeof t.metadata?.srclang === 'string' ? t.metadata.srclang : '',
    default: t === first,
  }));
}

export function playerResponse(player: Player): PlayerResponse {
  const m = player.metadata;
  return {
    id: player.id,
    name: m.name,
    release_channel: m.release_channel,
    setup_config: structuredClone(m.setup_config ?? {}),
  };
}
