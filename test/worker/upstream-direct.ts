/** The sandbox's own answers, read directly (not through the worker), to compute what the worker should answer. */
import { env } from 'cloudflare:test';
import type { Media, MediaList, Player, TypedPlaylist, Playlist, PlaylistList, TextTrack, TextTrackList } from '../../worker/contract/v2-types.ts';
import { sandbox } from './helpers.ts';

async function v2<T>(path: string): Promise<T> {
  const response = await sandbox(`/v2/sites/${path}`, { headers: { authorization: `Bearer ${env.API_SECRET}` } });
  if (!response.ok) throw new Error(`sandbox ${path}: ${response.status}`);
  return response.json() as Promise<T>;
}

export async function playlists(site: string): Promise<Playlist[]> {
  return (await v2<PlaylistList>(`${site}/playlists/?page_length=100`)).playlists;
}
export async function playlistOfType(site: string, type: Playlist['playlist_type']): Promise<TypedPlaylist> {
  // The first of its type in the seed (the test configuration binds policies in seed order).
  const p = (await playlists(site)).filter((x) => x.playlist_type === type)
    .sort((a, b) => a.created.localeCompare(b.created))[0];
  if (!p) throw new Error(`no ${type} playlist on ${site}`);
  return typedPlaylist(site, p.id, type);
}
export async function typedPlaylist(site: string, id: string, type: Playlist['playlist_type']): Promise<TypedPlaylist> {
  return v2<TypedPlaylist>(`${site}/playlists/${id}/${type}_playlist/`);
}
export async function allMedia(site: string): Promise<Media[]> {
  return (await v2<MediaList>(`${site}/media/?page_length=500`)).media;
}
export async function media(site: string, id: string): Promise<Media> {
  return v2<Media>(`${site}/media/${id}/`);
}
export async function players(site: string): Promise<Player[]> {
  return (await v2<{ players: Player[] }>(`${site}/players/?page_length=100`)).players;
}

export function isPublic(m: Media, now = Date.now()): boolean {
  const { publish_start_date: start, publish_end_date: end } = m.metadata;
  return m.status === 'ready' && start !== null && Date.parse(start) <= now && (end === null || now < Date.parse(end));
}

/** A manual playlist's media in its order, where the platform keeps them. */
export function manualIds(playlist: TypedPlaylist): string[] {
  return (playlist.metadata as TypedPlaylist<'manual'>['metadata']).media_filter.include.values;
}
/** Published media that carry tags: a related media for a recommendations feed. */
export async function taggedPublicMedia(site: string): Promise<Media[]> {
  return (await allMedia(site)).filter((m) => isPublic(m) && m.metadata.tags.length > 0);
}
/** A media's text tracks as the platform answers them. */
export async function textTracks(site: string, mediaId: string): Promise<TextTrack[]> {
  return (await v2<TextTrackList>(`${site}/media/${mediaId}/text_tracks/?page_length=100`)).text_tracks;
}

/**
 * The ids of a playlist's feed as the sandbox's Delivery API answers it (the order a platform player shows), every
 * page of 100 read; `query` as the Delivery API takes it (`related_media_id`, `search`).
 */
export async function deliveredIds(playlistId: string, query: Record<string, string> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 1; ; offset += 100) {
    const params = new URLSearchParams({ ...query, page_offset: String(offset), page_limit: '100' });
    const response = await sandbox(`/v2/playlists/${playlistId}?${params}`);
    if (!response.ok) throw new Error(`sandbox delivery ${playlistId}: ${response.status}`);
    const page = await response.json<{ playlist: Array<{ mediaid: string }> }>();
    ids.push(...page.playlist.map((item) => item.mediaid));
    if (page.playlist.length < 100) return ids;
  }
}
