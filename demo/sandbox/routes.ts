// The spec's endpoint table, spelled as the spec spells it, plus the routes the official clients call beyond it (a
// media's re-upload, the multipart upload API). A path matches with or without its trailing slash. A typed-playlist
// path's type segment is the platform's spelling (`manual_playlist`); the handlers refuse any other.
import type { Handler } from './context.ts';
import { createMedia, deleteMedia, listMedia, reuploadMedia, showMedia, updateMedia } from './handlers/media.ts';
import {
  createRendition, createTextTrack, deleteRendition, deleteTextTrack, listOriginals, listRenditions, listTextTracks,
  showRendition, showTextTrack, updateTextTrack,
} from './handlers/conversions.ts';
import { createThumbnail, showThumbnail, updateThumbnail } from './handlers/thumbnails.ts';
import {
  createPlaylist, deletePlaylist, deleteTypedPlaylist, listPlaylists, showPlaylist, showTypedPlaylist, updatePlaylist,
} from './handlers/playlists.ts';
import { createPlayer, deletePlayer, listPlayers, showPlayer, updatePlayer } from './handlers/players.ts';
import { queryUsage, removeTag, renameTag } from './handlers/actions.ts';
import { completeUpload, listUploadParts } from './uploads.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Route {
  method: Method;
  /** As in the spec's table, e.g. `/v2/sites/:site/media/:media/`; also the key of /_sandbox/stats. */
  pattern: string;
  handler: Handler;
  /** Takes `q`, `page`, `page_length`, `sort`; other routes take no query (worker/upstream/list-query.ts). */
  list?: true;
  /** A write route that takes no body (`uploads/<id>/complete`): whatever is sent is not read. */
  noBody?: true;
  /** The credential: the API secret, or (`upload`) the token of the upload in the path. */
  auth?: 'upload';
}

const S = '/v2/sites/:site';
export const ROUTES: readonly Route[] = [
  { method: 'POST', pattern: `${S}/media/`, handler: createMedia },
  { method: 'GET', pattern: `${S}/media/`, handler: listMedia, list: true },
  { method: 'GET', pattern: `${S}/media/:media/`, handler: showMedia },
  { method: 'PATCH', pattern: `${S}/media/:media/`, handler: updateMedia },
  { method: 'DELETE', pattern: `${S}/media/:media/`, handler: deleteMedia },
  // The Python and Java clients PUT a re-upload, the Go client POSTs it.
  { method: 'PUT', pattern: `${S}/media/:media/reupload/`, handler: reuploadMedia },
  { method: 'POST', pattern: `${S}/media/:media/reupload/`, handler: reuploadMedia },
  { method: 'POST', pattern: `${S}/media/:media/media_renditions/`, handler: createRendition },
  { method: 'GET', pattern: `${S}/media/:media/media_renditions/`, handler: listRenditions, list: true },
  { method: 'GET', pattern: `${S}/media/:media/media_renditions/:rendition/`, handler: showRendition },
  { method: 'DELETE', pattern: `${S}/media/:media/media_renditions/:rendition/`, handler: deleteRendition },
  { method: 'GET', pattern: `${S}/media/:media/originals/`, handler: listOriginals, list: true },
  { method: 'POST', pattern: `${S}/media/:media/text_tracks/`, handler: createTextTrack },
  { method: 'GET', pattern: `${S}/media/:media/text_tracks/`, handler: listTextTracks, list: true },
  { method: 'GET', pattern: `${S}/media/:media/text_tracks/:track/`, handler: showTextTrack },
  { method: 'PATCH', pattern: `${S}/media/:media/text_tracks/:track/`, handler: updateTextTrack },
  { method: 'DELETE', pattern: `${S}/media/:media/text_tracks/:track/`, handler: deleteTextTrack },
  { method: 'POST', pattern: `${S}/thumbnails/`, handler: createThumbnail },
  { method: 'GET', pattern: `${S}/thumbnails/:thumbnail`, handler: showThumbnail },
  { method: 'PATCH', pattern: `${S}/thumbnails/:thumbnail`, handler: updateThumbnail },
  { method: 'POST', pattern: `${S}/playlists/:playlist_type/`, handler: createPlaylist },
  { method: 'GET', pattern: `${S}/playlists/`, handler: listPlaylists, list: true },
  { method: 'GET', pattern: `${S}/playlists/:playlist/`, handler: showPlaylist },
  { method: 'GET', pattern: `${S}/playlists/:playlist/:playlist_type/`, handler: showTypedPlaylist },
  { method: 'PATCH', pattern: `${S}/playlists/:playlist/:playlist_type/`, handler: updatePlaylist },
  { method: 'DELETE', pattern: `${S}/playlists/:playlist/`, handler: deletePlaylist },
  { method: 'DELETE', pattern: `${S}/playlists/:playlist/:playlist_type/`, handler: deleteTypedPlaylist },
  { method: 'POST', pattern: `${S}/players/`, handler: createPlayer },
  { method: 'GET', pattern: `${S}/players/`, handler: listPlayers, list: true },
  { method: 'GET', pattern: `${S}/players/:player/`, handler: showPlayer },
  { method: 'PATCH', pattern: `${S}/players/:player/`, handler: updatePlayer },
  { method: 'DELETE', pattern: `${S}/players/:player/`, handler: deletePlayer },
  { method: 'PUT', pattern: `${S}/remove_tag/`, handler: removeTag },
  { method: 'PUT', pattern: `${S}/rename_tag/`, handler: renameTag },
  { method: 'PUT', pattern: `${S}/query_usage/`, handler: queryUsage },
  { method: 'GET', pattern: '/v2/uploads/:upload/parts/', handler: listUploadParts, list: true, auth: 'upload' },
  { method: 'PUT', pattern: '/v2/uploads/:upload/complete/', handler: completeUpload, noBody: true, auth: 'upload' },
];

const segments = (path: string): string[] => path.split('/').filter((part) => part !== '');

function matchPattern(pattern: string, parts: string[]): Record<string, string> | null {
  const want = segments(pattern);
  if (want.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const expected = want[i]!;
    const actual = parts[i]!;
    if (expected.startsWith(':')) params[expected.slice(1)] = actual;
    else if (expected !== actual) return null;
  }
  return params;
}

export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: Method[]; pattern: string }
  | { kind: 'not_found' };

/** Finds the route of a path and method; a path known under other methods is a 405 with their list. */
export function matchRoute(method: string, pathname: string): RouteMatch {
  if (pathname.includes('//')) return { kind: 'not_found' };
  let parts: string[];
  try {
    parts = segments(pathname).map(decodeURIComponent);
  } catch {
    return { kind: 'not_found' };
  }
  const allow = new Set<Method>();
  let pattern = '';
  for (const route of ROUTES) {
    const params = matchPattern(route.pattern, parts);
    if (!params) continue;
    if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { kind: 'route', route, params };
    allow.add(route.method);
    pattern ||= route.pattern;
  }
  return allow.size > 0 ? { kind: 'method_not_allowed', allow: [...allow], pattern } : { kind: 'not_found' };
}
