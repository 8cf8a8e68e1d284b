/**
 * The gateway's reading of the v2 route table (worker/contract/v2-routes.ts: the spec's 31 routes, plus the re-upload
 * and upload routes the official clients call), and the one function that turns a caller's path and method into a
 * checked route. Nothing reaches the upstream that this table does not describe: the path is rebuilt from the
 * checked segments in the spec's own form, so a caller cannot pick another route, host or query by encoding tricks.
 */
import { playlistTypeFromSegment, playlistTypeRefusal } from '../contract/path-segments.ts';
import { V2_ROUTE_TABLE, type V2Method, type V2Route, type V2RouteId } from '../contract/v2-routes.ts';

export type Method = V2Method;
export const METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** What a route does to the catalog: reads are scope `read` and the read lane; writes are scope `write`. */
export type Access = 'read' | 'write';

/** Which cached public answers a successful write makes stale (see purge.ts). */
export type PurgeScope =
  | 'none'
  /** The media in the path, and every feed of the site (a feed may list it). */
  | 'media'
  /** The media in the path only (its renditions and tracks are part of the player answer, not of feed cards). */
  | 'media-only'
  /** Every feed of the site: a new media may enter a tag or search feed. */
  | 'site-feeds'
  /** The playlist in the path. */
  | 'playlist'
  /** The player in the path. */
  | 'player'
  /** Every cached feed and media of the site (tag actions, posters). */
  | 'site';

export interface RouteSpec {
  /** Stable name, used in the audit trail. */
  name: string;
  method: Method;
  /**
   * Segments after `/v2/sites/<site_id>/` (after `/v2/uploads/<upload_id>/` for the upload routes); `:x` is an id,
   * `:type` a playlist type as the platform spells it in paths (`manual_playlist`).
   */
  pattern: readonly string[];
  /** Whether the spec writes the path with a trailing slash (all but the thumbnail routes). */
  trailingSlash: boolean;
  access: Access;
  /** A list route: accepts `q`, `page`, `page_length`, `sort`. */
  list: boolean;
  /** Takes a JSON body (`metadata`/`upload`/`relationships`). */
  body: boolean;
  /** An action's own top-level members instead of the envelope (the tag actions); undefined for envelope bodies. */
  members?: readonly string[];
  purge: PurgeScope;
  /**
   * Whose credential the call carries: `key` (an access key; the platform secret goes upstream) or `upload` (the
   * upload token the platform handed out with the media, checked against the key that created it and forwarded).
   */
  credential: 'key' | 'upload';
}

/** What the gateway adds to a row of the contract's table: what a successful call makes stale, and its scope. */
interface GatewayTerms {
  purge?: PurgeScope;
  /** Default: `read` for GET, `write` otherwise. */
  access?: Access;
}

/** Every row of the table must be named here, so a new route cannot reach the upstream without its purge decided. */
const TERMS: Record<V2RouteId, GatewayTerms> = {
  'media.create': { purge: 'site-feeds' },
  'media.list': {},
  'media.show': {},
  'media.update': { purge: 'media' },
  'media.delete': { purge: 'media' },
  'media.reupload': { purge: 'media' },
  'media.reupload.post': { purge: 'media' },
  'media_renditions.create': { purge: 'media-only' },
  'media_renditions.list': {},
  'media_renditions.show': {},
  'media_renditions.delete': { purge: 'media-only' },
  'originals.list': {},
  'text_tracks.create': { purge: 'media-only' },
  'text_tracks.list': {},
  'text_tracks.show': {},
  'text_tracks.update': { purge: 'media-only' },
  'text_tracks.delete': { purge: 'media-only' },
  // Publishing changes which tracks the media's answer carries: the cached answer goes.
  'text_tracks.publish': { purge: 'media-only' },
  'text_tracks.unpublish': { purge: 'media-only' },
  // A thumbnail can become a poster, which every feed card and player answer shows.
  'thumbnails.create': { purge: 'site' },
  'thumbnails.show': {},
  'thumbnails.update': { purge: 'site' },
  'playlists.create': {},
  'playlists.list': {},
  'playlists.show': {},
  'playlists.show.typed': {},
  'playlists.update': { purge: 'playlist' },
  'playlists.delete': { purge: 'playlist' },
  'playlists.delete.typed': { purge: 'playlist' },
  'players.create': {},
  'players.list': {},
  'players.show': {},
  'players.update': { purge: 'player' },
  'players.delete': { purge: 'player' },
  'tags.remove': { purge: 'site' },
  'tags.rename': { purge: 'site' },
  // A PUT by the spec, but it only reads: scope `read`, the read lane, no purge, not audited as a write.
  'usage.query': { access: 'read' },
  // Both upload routes are part of a write: scope `write`, the write lane, audited.
  'uploads.parts': { access: 'write' },
  'uploads.complete': {},
};

const SITE_PREFIX = '/v2/sites/:site/';
const UPLOAD_PREFIX = '/v2/uploads/:upload/';

/** A contract row as the gateway reads it: the segments after its prefix, the type segment spelled `:type`. */
function spec(row: V2Route, prefix: string): RouteSpec {
  const terms = TERMS[row.id];
  const pattern = row.path.slice(prefix.length).split('/').filter((s) => s !== '')
    .map((s) => (s === ':playlist_type' ? ':type' : s));
  return {
    name: row.name,
    method: row.method,
    pattern,
    trailingSlash: row.path.endsWith('/'),
    access: terms.access ?? (row.method === 'GET' ? 'read' : 'write'),
    list: 'list' in row,
    body: row.body !== 'none',
    ...('members' in row ? { members: row.members } : {}),
    purge: terms.purge ?? 'none',
    credential: row.credential === 'upload' ? 'upload' : 'key',
  };
}

/** The spec's endpoint table, row by row ("or" rows give two patterns of one route name), and the re-upload. */
export const V2_ROUTES: readonly RouteSpec[] = V2_ROUTE_TABLE
  .filter((row) => row.path.startsWith(SITE_PREFIX)).map((row) => spec(row, SITE_PREFIX));

/**
 * The platform's upload API, `/v2/uploads/<upload_id>/...`, as the official clients drive a multipart upload with the
 * upload's own token. The clients write the paths with and without a trailing slash; upstream they go without.
 */
export const UPLOAD_ROUTES: readonly RouteSpec[] = V2_ROUTE_TABLE
  .filter((row) => row.path.startsWith(UPLOAD_PREFIX)).map((row) => spec(row, UPLOAD_PREFIX));

/** Ids: letters, digits, `_` and `-`, as the platform issues them; nothing that could mean something in a path. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const MAX_PATH_LENGTH = 512;

export interface MatchedRoute {
  spec: RouteSpec;
  site: string;
  /**
   * Path parameters by name (`media`, `rendition`, `track`, `thumbnail`, `playlist`, `player`, `upload`, and `type`:
   * the playlist type by its short name, `manual`).
   */
  params: Record<string, string>;
  /**
   * The upstream path, rebuilt from checked segments: `/v2/sites/<site>/...` (`/v2/uploads/<id>/...`). The site of an
   * upload route is empty until its upload is looked up.
   */
  upstreamPath: string;
}

export type RouteLookup =
  | { kind: 'match'; route: MatchedRoute }
  /** The path names a route, but not with this method. */
  | { kind: 'method_not_allowed'; allow: Method[] }
  | { kind: 'not_found' }
  /** The path itself is unusable (encoding, empty segments, length, charset). */
  | { kind: 'invalid'; reason: string }
  /** A typed-playlist path whose type segment is not one (`manual` instead of `manual_playlist`): 400, as upstream. */
  | { kind: 'invalid_playlist_type'; reason: string };

function bind(pattern: readonly string[], segments: readonly string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const want = pattern[i]!;
    const got = segments[i]!;
    if (want === ':type') {
      const type = playlistTypeFromSegment(got);
      if (type === null) return null;
      params.type = type;
    } else if (want.startsWith(':')) {
      if (!ID_PATTERN.test(got)) return null;
      params[want.slice(1)] = got;
    } else if (want !== got) {
      return null;
    }
  }
  return params;
}

/**
 * Looks up `pathname` (as the worker received it, `/v2/...`) with `method`. A trailing slash is optional for the
 * caller; the upstream always gets the spec's form.
 */
export function matchV2Route(method: string, pathname: string): RouteLookup {
  if (pathname.length > MAX_PATH_LENGTH) return { kind: 'invalid', reason: 'The path is too long.' };
  // Ids never need encoding, so any escape is a trick (`%2f`, `%2e%2e`) or a mistake.
  if (pathname.includes('%')) return { kind: 'invalid', reason: 'Percent-encoded characters are not allowed in the path.' };
  if (!pathname.startsWith('/v2/')) return { kind: 'not_found' };
  const trimmed = pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const segments = trimmed.slice('/v2/'.length).split('/');
  if (segments.some((s) => s === '')) return { kind: 'invalid', reason: 'The path holds an empty segment.' };
  if (segments.some((s) => s === '.' || s === '..')) return { kind: 'invalid', reason: 'Dot segments are not allowed.' };
  const [top, owner, ...rest] = segments;
  if (top === 'uploads' && owner !== undefined && rest.length === 1) {
    if (!ID_PATTERN.test(owner)) return { kind: 'invalid', reason: 'The upload id is not valid.' };
    return lookUp(method, UPLOAD_ROUTES, rest, '', { upload: owner }, `/v2/uploads/${owner}/`);
  }
  if (top !== 'sites' || owner === undefined || rest.length === 0) return { kind: 'not_found' };
  if (!ID_PATTERN.test(owner)) return { kind: 'invalid', reason: 'The site id is not valid.' };
  // The type segment of a typed-playlist path must be the platform's spelling; the upstream refuses anything else
  // with 400 invalid_playlist_type, and so does the gateway, without spending a call on it.
  const typeSegment = rest[0] === 'playlists'
    ? rest.length === 3 ? rest[2] : rest.length === 2 && method === 'POST' ? rest[1] : undefined
    : undefined;
  if (typeSegment !== undefined && playlistTypeFromSegment(typeSegment) === null &&
    (rest.length === 2 || ID_PATTERN.test(rest[1]!))) {
    return { kind: 'invalid_playlist_type', reason: playlistTypeRefusal(typeSegment) };
  }
  return lookUp(method, V2_ROUTES, rest, owner, {}, `/v2/sites/${owner}/`);
}

function lookUp(
  method: string, table: readonly RouteSpec[], rest: readonly string[], site: string, fixed: Record<string, string>,
  prefix: string,
): RouteLookup {
  const allow = new Set<Method>();
  for (const spec of table) {
    const params = bind(spec.pattern, rest);
    if (!params) continue;
    allow.add(spec.method);
    if (spec.method !== method) continue;
    const upstreamPath = `${prefix}${rest.join('/')}${spec.trailingSlash ? '/' : ''}`;
    return { kind: 'match', route: { spec, site, params: { ...fixed, ...params }, upstreamPath } };
  }
  if (allow.size === 0) return { kind: 'not_found' };
  return { kind: 'method_not_allowed', allow: METHODS.filter((m) => allow.has(m)) };
}
