/**
 * The Management API v2 route table, once: the client builds its paths from it (worker/upstream/v2-client.ts), the
 * gateway matches callers against it (worker/gateway/v2-routes.ts) and the sandbox dispatches from it
 * (demo/sandbox/routes.ts). The spec's endpoint table, spelled as the spec spells it, plus the routes the official
 * clients call beyond it: a media's re-upload and the multipart upload API.
 *
 * A path pattern's `:playlist_type` is a playlist type as the platform spells it in paths (`manual_playlist`); every
 * other `:name` is an id. Each reader adds only what is its own (the gateway its purge scopes, the sandbox its
 * handlers).
 */
import { pathSegment, playlistTypeSegment } from './path-segments.ts';
import type { PlaylistType } from './v2-types.ts';

export type V2Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface V2RouteRow {
  /** Unique per row: the operation, plus a suffix where one operation has several rows. */
  id: string;
  /** The operation (the gateway's audit name); the spec's "or" rows and the re-upload's two methods share one. */
  name: string;
  method: V2Method;
  /** As the platform writes it, trailing slash included or not: `/v2/sites/:site/media/:media/`. */
  path: string;
  /** A list route: takes `q`, `page`, `page_length`, `sort` (list-query.ts); other routes take no query. */
  list?: true;
  /**
   * `json`: a JSON object of metadata, upload and relationships (the spec's rule 2); `action`: a JSON object of the
   * members `members` names, at its top level (the tag actions, as the platform's definition has them); `none`: the
   * route reads no body.
   */
  body: 'json' | 'action' | 'none';
  /** An `action` body's members, every one required. */
  members?: readonly string[];
  /** The API secret, or (`upload`) the token of the upload in the path, as the official clients send it. */
  credential: 'secret' | 'upload';
}

const S = '/v2/sites/:site';

export const V2_ROUTE_TABLE = [
  { id: 'media.create', name: 'media.create', method: 'POST', path: `${S}/media/`, body: 'json', credential: 'secret' },
  { id: 'media.list', name: 'media.list', method: 'GET', path: `${S}/media/`, list: true, body: 'none', credential: 'secret' },
  { id: 'media.show', name: 'media.show', method: 'GET', path: `${S}/media/:media/`, body: 'none', credential: 'secret' },
  { id: 'media.update', name: 'media.update', method: 'PATCH', path: `${S}/media/:media/`, body: 'json', credential: 'secret' },
  { id: 'media.delete', name: 'media.delete', method: 'DELETE', path: `${S}/media/:media/`, body: 'none', credential: 'secret' },
  // Not in the spec's table: the Python and Java clients PUT a re-upload, the Go client POSTs it. It answers like a
  // create: an upload link, or an upload id and token.
  { id: 'media.reupload', name: 'media.reupload', method: 'PUT', path: `${S}/media/:media/reupload/`, body: 'json', credential: 'secret' },
  { id: 'media.reupload.post', name: 'media.reupload', method: 'POST', path: `${S}/media/:media/reupload/`, body: 'json', credential: 'secret' },
  { id: 'media_renditions.create', name: 'media_renditions.create', method: 'POST', path: `${S}/media/:media/media_renditions/`, body: 'json', credential: 'secret' },
  { id: 'media_renditions.list', name: 'media_renditions.list', method: 'GET', path: `${S}/media/:media/media_renditions/`, list: true, body: 'none', credential: 'secret' },
  { id: 'media_renditions.show', name: 'media_renditions.show', method: 'GET', path: `${S}/media/:media/media_renditions/:rendition/`, body: 'none', credential: 'secret' },
  { id: 'media_renditions.delete', name: 'media_renditions.delete', method: 'DELETE', path: `${S}/media/:media/media_renditions/:rendition/`, body: 'none', credential: 'secret' },
  { id: 'originals.list', name: 'originals.list', method: 'GET', path: `${S}/media/:media/originals/`, list: true, body: 'none', credential: 'secret' },
  { id: 'text_tracks.create', name: 'text_tracks.create', method: 'POST', path: `${S}/media/:media/text_tracks/`, body: 'json', credential: 'secret' },
  { id: 'text_tracks.list', name: 'text_tracks.list', method: 'GET', path: `${S}/media/:media/text_tracks/`, list: true, body: 'none', credential: 'secret' },
  { id: 'text_tracks.show', name: 'text_tracks.show', method: 'GET', path: `${S}/media/:media/text_tracks/:track/`, body: 'none', credential: 'secret' },
  { id: 'text_tracks.update', name: 'text_tracks.update', method: 'PATCH', path: `${S}/media/:media/text_tracks/:track/`, body: 'json', credential: 'secret' },
  { id: 'text_tracks.delete', name: 'text_tracks.delete', method: 'DELETE', path: `${S}/media/:media/text_tracks/:track/`, body: 'none', credential: 'secret' },
  // A draft track (uploaded with `auto_publish: false`) is delivered once published; unpublishing makes it a draft.
  { id: 'text_tracks.publish', name: 'text_tracks.publish', method: 'PUT', path: `${S}/media/:media/text_tracks/:track/publish/`, body: 'none', credential: 'secret' },
  { id: 'text_tracks.unpublish', name: 'text_tracks.unpublish', method: 'PUT', path: `${S}/media/:media/text_tracks/:track/unpublish/`, body: 'none', credential: 'secret' },
  // The spec writes the two thumbnail id paths without a trailing slash.
  { id: 'thumbnails.create', name: 'thumbnails.create', method: 'POST', path: `${S}/thumbnails/`, body: 'json', credential: 'secret' },
  { id: 'thumbnails.show', name: 'thumbnails.show', method: 'GET', path: `${S}/thumbnails/:thumbnail`, body: 'none', credential: 'secret' },
  { id: 'thumbnails.update', name: 'thumbnails.update', method: 'PATCH', path: `${S}/thumbnails/:thumbnail`, body: 'json', credential: 'secret' },
  { id: 'playlists.create', name: 'playlists.create', method: 'POST', path: `${S}/playlists/:playlist_type/`, body: 'json', credential: 'secret' },
  { id: 'playlists.list', name: 'playlists.list', method: 'GET', path: `${S}/playlists/`, list: true, body: 'none', credential: 'secret' },
  { id: 'playlists.show', name: 'playlists.show', method: 'GET', path: `${S}/playlists/:playlist/`, body: 'none', credential: 'secret' },
  { id: 'playlists.show.typed', name: 'playlists.show', method: 'GET', path: `${S}/playlists/:playlist/:playlist_type/`, body: 'none', credential: 'secret' },
  { id: 'playlists.update', name: 'playlists.update', method: 'PATCH', path: `${S}/playlists/:playlist/:playlist_type/`, body: 'json', credential: 'secret' },
  { id: 'playlists.delete', name: 'playlists.delete', method: 'DELETE', path: `${S}/playlists/:playlist/`, body: 'none', credential: 'secret' },
  { id: 'playlists.delete.typed', name: 'playlists.delete', method: 'DELETE', path: `${S}/playlists/:playlist/:playlist_type/`, body: 'none', credential: 'secret' },
  { id: 'players.create', name: 'players.create', method: 'POST', path: `${S}/players/`, body: 'json', credential: 'secret' },
  { id: 'players.list', name: 'players.list', method: 'GET', path: `${S}/players/`, list: true, body: 'none', credential: 'secret' },
  { id: 'players.show', name: 'players.show', method: 'GET', path: `${S}/players/:player/`, body: 'none', credential: 'secret' },
  { id: 'players.update', name: 'players.update', method: 'PATCH', path: `${S}/players/:player/`, body: 'json', credential: 'secret' },
  { id: 'players.delete', name: 'players.delete', method: 'DELETE', path: `${S}/players/:player/`, body: 'none', credential: 'secret' },
  { id: 'tags.remove', name: 'tags.remove', method: 'PUT', path: `${S}/remove_tag/`, body: 'action', members: ['tag'], credential: 'secret' },
  { id: 'tags.rename', name: 'tags.rename', method: 'PUT', path: `${S}/rename_tag/`, body: 'action', members: ['original_tag', 'new_tag'], credential: 'secret' },
  // A PUT by the spec, though it only reads.
  { id: 'usage.query', name: 'usage.query', method: 'PUT', path: `${S}/query_usage/`, body: 'json', credential: 'secret' },
  // The upload API as the official clients drive a multipart upload, with the upload's own token; written without a
  // trailing slash (the Python and Go clients' form).
  { id: 'uploads.parts', name: 'uploads.parts', method: 'GET', path: '/v2/uploads/:upload/parts', list: true, body: 'none', credential: 'upload' },
  { id: 'uploads.complete', name: 'uploads.complete', method: 'PUT', path: '/v2/uploads/:upload/complete', body: 'none', credential: 'upload' },
] as const satisfies readonly V2RouteRow[];

export type V2Route = (typeof V2_ROUTE_TABLE)[number];
export type V2RouteId = V2Route['id'];

/** The `:name`s of a path pattern. */
type ParamNames<P extends string> =
  P extends `${string}:${infer Name}/${infer Rest}` ? Name | ParamNames<Rest>
    : P extends `${string}:${infer Name}` ? Name : never;

/** What `v2Path` needs for a route: every id as a string, the playlist type as a type. */
export type V2PathParams<Id extends V2RouteId> = {
  [K in ParamNames<Extract<V2Route, { id: Id }>['path']>]: K extends 'playlist_type' ? PlaylistType : string;
};

const BY_ID = new Map<string, V2Route>(V2_ROUTE_TABLE.map((row) => [row.id, row]));

export function v2Route<Id extends V2RouteId>(id: Id): Extract<V2Route, { id: Id }> {
  return BY_ID.get(id) as Extract<V2Route, { id: Id }>;
}

/** How a refusal names a parameter: after the client's argument (`mediaId must be a non-empty string.`). */
const ARGUMENT: Record<string, string> = {
  site: 'site', media: 'mediaId', rendition: 'renditionId', track: 'trackId', thumbnail: 'thumbnailId',
  playlist: 'playlistId', player: 'playerId', upload: 'uploadId',
};

/**
 * The path of a route with its parameters checked and encoded (path-segments.ts): a value can never change which
 * route is called. Checked from the last segment to the first, so a call with several bad values is refused for the
 * innermost one, as the client always did. Throws `InvalidArgumentError`.
 */
export function v2Path<Id extends V2RouteId>(id: Id, params: V2PathParams<Id>): string {
  const values = params as Record<string, unknown>;
  const parts = v2Route(id).path.split('/');
  for (let i = parts.length - 1; i >= 0; i -= 1) {
    const part = parts[i]!;
    if (!part.startsWith(':')) continue;
    const name = part.slice(1);
    parts[i] = name === 'playlist_type'
      ? playlistTypeSegment(values[name])
      : pathSegment(ARGUMENT[name] ?? name, values[name]);
  }
  return parts.join('/');
}
