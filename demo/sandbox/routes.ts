// The sandbox's dispatch over the v2 route table (worker/contract/v2-routes.ts): a handler per row. A path matches with
// or without its trailing slash. A typed-playlist path's type segment is the platform's spelling (`manual_playlist`);
// the handlers refuse any other.
import { V2_ROUTE_TABLE, type V2Method, type V2RouteId } from '../../worker/contract/v2-routes.ts';
import type { Handler } from './context.ts';
import { createMedia, deleteMedia, listMedia, reuploadMedia, showMedia, updateMedia } from './handlers/media.ts';
import {
  createRendition, createTextTrack, deleteRendition, deleteTextTrack, listOriginals, listRenditions, listTextTracks,
  publishTextTrack, showRendition, showTextTrack, unpublishTextTrack, updateTextTrack,
} from './handlers/conversions.ts';
import { createThumbnail, showThumbnail, updateThumbnail } from './handlers/thumbnails.ts';
import {
  createPlaylist, deletePlaylist, deleteTypedPlaylist, listPlaylists, showPlaylist, showTypedPlaylist, updatePlaylist,
} from './handlers/playlists.ts';
import { createPlayer, deletePlayer, listPlayers, showPlayer, updatePlayer } from './handlers/players.ts';
import { queryUsage, removeTag, renameTag } from './handlers/actions.ts';
import { completeUpload, listUploadParts } from './uploads.ts';

export type Method = V2Method;

export interface Route {
  method: Method;
  /** The contract's path, e.g. `/v2/sites/:site/media/:media/`; also the key of /_sandbox/stats. */
  pattern: string;
  handler: Handler;
  /** Takes `q`, `page`, `page_length`, `sort`; other routes take no query (worker/contract/list-query.ts). */
  list?: true;
  /** A write route that takes no body (`uploads/<id>/complete`): whatever is sent is not read. */
  noBody?: true;
  /** The credential: the API secret, or (`upload`) the token of the upload in the path. */
  auth?: 'upload';
  /** An action's top-level members, read instead of the envelope (the tag actions). */
  action?: readonly string[];
}

/** The sandbox's handler of every row of the contract's table (a missing one is a type error). */
const HANDLERS: Record<V2RouteId, Handler> = {
  'media.create': createMedia,
  'media.list': listMedia,
  'media.show': showMedia,
  'media.update': updateMedia,
  'media.delete': deleteMedia,
  'media.reupload': reuploadMedia,
  'media.reupload.post': reuploadMedia,
  'media_renditions.create': createRendition,
  'media_renditions.list': listRenditions,
  'media_renditions.show': showRendition,
  'media_renditions.delete': deleteRendition,
  'originals.list': listOriginals,
  'text_tracks.create': createTextTrack,
  'text_tracks.list': listTextTracks,
  'text_tracks.show': showTextTrack,
  'text_tracks.update': updateTextTrack,
  'text_tracks.delete': deleteTextTrack,
  'text_tracks.publish': publishTextTrack,
  'text_tracks.unpublish': unpublishTextTrack,
  'thumbnails.create': createThumbnail,
  'thumbnails.show': showThumbnail,
  'thumbnails.update': updateThumbnail,
  'playlists.create': createPlaylist,
  'playlists.list': listPlaylists,
  'playlists.show': showPlaylist,
  'playlists.show.typed': showTypedPlaylist,
  'playlists.update': updatePlaylist,
  'playlists.delete': deletePlaylist,
  'playlists.delete.typed': deleteTypedPlaylist,
  'players.create': createPlayer,
  'players.list': listPlayers,
  'players.show': showPlayer,
  'players.update': updatePlayer,
  'players.delete': deletePlayer,
  'tags.remove': removeTag,
  'tags.rename': renameTag,
  'usage.query': queryUsage,
  'uploads.parts': listUploadParts,
  'uploads.complete': completeUpload,
};

export const ROUTES: readonly Route[] = V2_ROUTE_TABLE.map((row): Route => ({
  method: row.method,
  pattern: row.path,
  handler: HANDLERS[row.id],
  ...('list' in row ? { list: true as const } : {}),
  ...(row.body === 'none' && row.method !== 'GET' && row.method !== 'DELETE' ? { noBody: true as const } : {}),
  ...(row.credential === 'upload' ? { auth: 'upload' as const } : {}),
  ...('members' in row ? { action: row.members } : {}),
}));

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
