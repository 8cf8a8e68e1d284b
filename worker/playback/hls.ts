/**
 * HLS playlists through the worker: every URI in a master or media playlist (variants, segments, keys, init maps,
 * subtitle and audio renditions, I-frame playlists, parts and hints) becomes a playback URL under the same token. A URI
 * outside the rendition's folder (another host, `../`, a query) cannot be expressed by the token and is not passed on
 * as an upstream URL either: the playlist is refused.
 */

export class PlaylistOutsideFolder extends Error {
  override name = 'PlaylistOutsideFolder';
}

const URI_ATTRIBUTE = /URI="([^"]*)"/g;

/** The path of `uri` (as written in the playlist at `playlistUrl`) inside `folder`, or throws. */
export function folderPath(uri: string, playlistUrl: URL, folder: URL): string {
  let target: URL;
  try {
    target = new URL(uri, playlistUrl);
  } catch {
    throw new PlaylistOutsideFolder('not a URI');
  }
  if (target.origin !== folder.origin || !target.pathname.startsWith(folder.pathname) || target.search || target.hash) {
    throw new PlaylistOutsideFolder('outside the folder');
  }
  const path = target.pathname.slice(folder.pathname.length);
  if (!/^[A-Za-z0-9_~-][A-Za-z0-9._~-]*(\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*$/.test(path)) {
    throw new PlaylistOutsideFolder('not a plain path');
  }
  return path;
}

/**
 * The playlist with each URI replaced by `${prefix}${path in folder}${suffix}`. `prefix` is `/api/play/<token>/`;
 * `suffix` is empty except in development (the stand-in address, so a test's media element keeps its identity).
 */
export function rewritePlaylist(text: string, playlistUrl: URL, folder: URL, prefix: string, suffix = ''): string {
  const play = (uri: string) => `${prefix}${folderPath(uri.trim(), playlistUrl, folder)}${suffix}`;
  return text.split(/\r?\n/).map((line) => {
    const trimmed = line.trim();
    if (!trimmed) return line;
    if (trimmed.startsWith('#')) return trimmed.startsWith('#EXT') ? line.replace(URI_ATTRIBUTE, (_m, uri: string) => `URI="${play(uri)}"`) : line;
    return play(trimmed);
  }).join('\n');
}

export function isPlaylist(path: string, contentType: string | null): boolean {
  const type = (contentType ?? '').toLowerCase();
  return path.endsWith('.m3u8') || type.includes('mpegurl');
}
