/**
 * Upstream resources → public shapes. Only fields listed here leave the worker: never `upload` (source/download
 * URLs) or `error_message`. Custom params are kept whole in the cache (a bound playlist's rules may name any of them,
 * geo/membership.ts); every answer shows only the operator's allowlist (`allowedCustomParams`, when presenting).
 */
import type { FeedItem, FeedResponse, MediaResponse, MediaSource, MediaTrack, PlayerResponse } from '../contract/public-api.ts';
import type { Media, MediaRendition, Player, Playlist, PlaylistType, TextTrack } from '../contract/v2-types.ts';
import { httpUrl } from '../contract/links.ts';
import { posterSet } from './posters.ts';
import { storyboardTrack } from './storyboard.ts';
import { dimension, renditionLabel, sourceTypeOf } from './source-types.ts';

/** What a projection needs besides the resource: the delivery base. */
export interface ProjectionOptions {
  /** `deliveryBase(env.DELIVERY_BASE_URL)`: where posters and storyboards are; null leaves them out. */
  delivery: string | null;
}

export function allowedCustomParams(params: Record<string, string> | null | undefined,
  allowlist: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of allowlist) {
    const value = params?.[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** Every custom param with a string value, as the cache keeps them (answers show the allowlisted ones only). */
function stringParams(params: Record<string, string> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params ?? {})) if (typeof value === 'string') out[name] = value;
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

export function feedItem(media: Media, { delivery }: ProjectionOptions): FeedItem {
  const m = media.metadata;
  const posters = posterSet(delivery, media.id);
  return {
    id: media.id,
    title: m.title,
    description: m.description ?? null,
    duration: typeof media.duration === 'number' ? media.duration : null,
    tags: [...(m.tags ?? [])],
    publish_start_date: m.publish_start_date ?? null,
    publish_end_date: m.publish_end_date ?? null,
    thumbnail: posters?.url ?? null,
    thumbnails: posters?.sizes ?? [],
    // Only an http(s) URL is a link (contract/links.ts): a `javascript:` permalink is no permalink.
    permalink: httpUrl(m.permalink),
    media_type: media.media_type,
    custom_params: stringParams(m.custom_params),
  };
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

/** A rendition as a player source, typed from its format and URL; null when it names no kind a player plays. */
function source(rendition: MediaRendition): MediaSource | null {
  const type = sourceTypeOf(rendition);
  if (type === null || typeof rendition.delivery_url !== 'string') return null;
  const width = dimension(rendition.width);
  const height = dimension(rendition.height);
  return {
    url: rendition.delivery_url,
    type,
    width,
    height,
    filesize: typeof rendition.filesize === 'number' && rendition.filesize >= 0 ? rendition.filesize : 0,
    label: renditionLabel(type, width, height),
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

export function mediaResponse(site: string, media: Media, renditions: MediaRendition[], tracks: TextTrack[],
  options: ProjectionOptions): MediaResponse {
  const item = feedItem(media, options);
  const sources = renditions
    .filter((r) => r.status === 'ready' && httpUrl(r.delivery_url) !== null)
    .map(source)
    .filter((s): s is MediaSource => s !== null)
    // Widest first; audio-only (no width) last, larger files first among equals.
    .sort((a, b) => (b.width ?? -1) - (a.width ?? -1) || b.filesize - a.filesize);
  // The platform makes a storyboard of every video it has encoded; an audio media has none, nor a media with nothing
  // to play (a storyboard of a video that cannot be played previews nothing).
  const storyboard = media.media_type === 'video' && sources.length ? storyboardTrack(options.delivery, media.id) : null;
  return {
    ...item,
    site,
    poster: item.thumbnail,
    sources,
    tracks: storyboard ? [...tracksOf(tracks), storyboard] : tracksOf(tracks),
  };
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
