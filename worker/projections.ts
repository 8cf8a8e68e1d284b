/**
 * Upstream resources → public shapes. Only fields listed here leave the worker: never `upload` (source/download
 * URLs), `error_message`, or custom params outside the operator's allowlist.
 */
import type { FeedItem, FeedResponse, MediaResponse, MediaSource, MediaTrack, PlayerResponse } from './contract/public-api.ts';
import type { Media, MediaRendition, Player, Playlist, TextTrack } from './contract/v2-types.ts';

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

export function feedItem(media: Media, allowlist: readonly string[]): FeedItem {
  const m = media.metadata;
  const poster = media.relationships?.poster?.delivery_url ?? null;
  return {
    id: media.id,
    title: m.title,
    description: m.description ?? null,
    duration: typeof media.duration === 'number' ? media.duration : null,
    tags: [...(m.tags ?? [])],
    publish_start_date: m.publish_start_date ?? null,
    publish_end_date: m.publish_end_date ?? null,
    thumbnail: poster,
    // The media resource names one poster without its width; sized variants would cost a call per item.
    thumbnails: [],
    permalink: m.permalink ?? null,
    media_type: media.media_type,
    custom_params: allowedCustomParams(m.custom_params, allowlist),
  };
}

export function playlistHeader(playlist: Playlist): FeedResponse['playlist'] {
  const m = playlist.metadata;
  return {
    id: playlist.id,
    type: playlist.playlist_type,
    title: m.title,
    description: m.description ?? null,
    author: m.author ?? null,
    link: m.link ?? null,
  };
}

function source(rendition: MediaRendition): MediaSource {
  return {
    url: rendition.delivery_url,
    type: rendition.mime_type,
    width: rendition.width ?? null,
    height: rendition.height ?? null,
    filesize: rendition.filesize,
    label: rendition.metadata?.name ?? '',
  };
}

function track(textTrack: TextTrack): MediaTrack {
  const m = textTrack.metadata;
  return { url: textTrack.delivery_url, kind: textTrack.track_kind ?? m.kind, label: m.label, srclang: m.srclang, default: Boolean(m.default) };
}

export function mediaResponse(site: string, media: Media, renditions: MediaRendition[], tracks: TextTrack[],
  allowlist: readonly string[]): MediaResponse {
  const item = feedItem(media, allowlist);
  const sources = renditions
    .filter((r) => r.status === 'ready' && typeof r.delivery_url === 'string')
    .map(source)
    // Widest first; audio-only (no width) last, larger files first among equals.
    .sort((a, b) => (b.width ?? -1) - (a.width ?? -1) || b.filesize - a.filesize);
  return {
    ...item,
    site,
    poster: item.thumbnail,
    sources,
    tracks: tracks.filter((t) => t.status === 'ready').map(track),
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
