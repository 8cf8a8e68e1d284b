/**
 * Reading a playlist answer whichever way the platform writes its type: `playlist_type` may be `manual` or
 * `manual_playlist`, and the type's subresource may sit under either name. The rest of the worker sees the short name.
 */
import { upstreamUnavailable } from '../errors.ts';
import { readPlaylistType } from '../contract/path-segments.ts';
import type { Playlist, PlaylistSubresources, PlaylistType } from '../contract/v2-types.ts';

/** The playlist's type by its short name; an answer without a readable one is the upstream's fault (502). */
export function playlistTypeOf(playlist: Pick<Playlist, 'playlist_type'>): PlaylistType {
  const type = readPlaylistType(playlist.playlist_type);
  if (type === null) throw upstreamUnavailable(502);
  return type;
}

/** The type's subresource, under `manual` or `manual_playlist`; null when the answer has none. */
export function subresourceOf(playlist: object, type: PlaylistType): PlaylistSubresources[PlaylistType] | null {
  const record = playlist as Record<string, unknown>;
  const sub = record[type] ?? record[`${type}_playlist`];
  return typeof sub === 'object' && sub !== null && !Array.isArray(sub) ? sub as PlaylistSubresources[PlaylistType] : null;
}
