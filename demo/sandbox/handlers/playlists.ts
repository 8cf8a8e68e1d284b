// playlists/: seven types, each with its subresource under a key named by the type. Show and delete answer on both
// playlists/<id>/ and playlists/<id>/<type>_playlist/; the typed form 404s when the playlist is of another type.
// Answers name the type by its short name in `playlist_type` (`manual`), as the list filter `playlist_type:manual` does.
import type { Media, Playlist, PlaylistMetadata, PlaylistType, TypedPlaylist } from '../../../worker/contract/v2-types.ts';
import { field, onlyKnown, requireSection } from '../body.ts';
import { type RouteContext, nowIso, param, site } from '../context.ts';
import { PLAYLIST_FIELDS } from '../fields.ts';
import { invalid, json, noContent, notFound } from '../http.ts';
import { freshId } from '../prng.ts';
import { isPublished, mergeSubresource, requirePlaylistTypeSegment, SUBRESOURCE_DEFAULTS, trendingIds } from '../playlist-rules.ts';
import { listPage } from '../query.ts';

const TOP_KEYS = ['title', 'description', 'author', 'link', 'custom_params'] as const;

type Sub = Record<string, unknown>;

function subOf(playlist: TypedPlaylist): Sub {
  return (playlist as unknown as Record<string, Sub>)[playlist.playlist_type] ?? {};
}

/** The playlist without its subresource (GET playlists/<id>/ and list items). */
function plain(playlist: TypedPlaylist): Playlist {
  const { id, type, created, last_modified, playlist_type, metadata } = playlist;
  return { id, type, created, last_modified, playlist_type, metadata };
}

function applyTop(current: PlaylistMetadata, patch: Record<string, unknown>, type: PlaylistType): PlaylistMetadata {
  onlyKnown(patch, 'metadata', [...TOP_KEYS, type]);
  const next = { ...current };
  for (const key of TOP_KEYS) {
    const value = patch[key];
    if (value === undefined) continue;
    if (key === 'title') next.title = field.string(value, 'metadata.title', { nonEmpty: true, max: 500 }) as string;
    else if (key === 'custom_params') next.custom_params = field.customParams(value, 'metadata.custom_params');
    else if (key === 'link') next.link = value === null ? null : field.url(value, 'metadata.link');
    else next[key] = field.string(value, `metadata.${key}`, { nullable: true, max: 5000 });
  }
  return next;
}

function mediaChecker(ctx: RouteContext, siteId: string): (id: string) => boolean {
  return (id) => ctx.store.get('media', siteId, id) !== null;
}

/** Trending lists are the platform's to compute: refreshed from the site's published media on every write. */
function refreshTrending(ctx: RouteContext, siteId: string, playlist: TypedPlaylist): void {
  if (playlist.playlist_type !== 'trending') return;
  const sub = subOf(playlist);
  const published = ctx.store.list<Media>('media', siteId).filter((media) => isPublished(media, ctx.now.getTime()));
  sub.media_ids = trendingIds(published, String(sub.window), Number(sub.max_items));
}

export function createPlaylist(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const type = requirePlaylistTypeSegment(param(ctx, 'playlist_type'));
  if (ctx.body.upload || ctx.body.relationships) throw invalid('invalid_body', "Creating a playlist takes 'metadata' only.");
  const metadata = requireSection(ctx.body, 'metadata');
  if (metadata.title === undefined) throw invalid('invalid_parameter', 'metadata.title is required.');
  const top = applyTop({ title: '', description: null, author: null, link: null, custom_params: {} }, metadata, type);
  const sub = mergeSubresource(type, structuredClone(SUBRESOURCE_DEFAULTS[type]), metadata[type], mediaChecker(ctx, siteId));
  const at = nowIso(ctx);
  const playlist = { id: freshId(), type: 'playlist', created: at, last_modified: at, playlist_type: type, metadata: top, [type]: sub } as unknown as TypedPlaylist;
  refreshTrending(ctx, siteId, playlist);
  ctx.store.put('playlist', siteId, null, playlist);
  return json(playlist, 201);
}

export function listPlaylists(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const page = listPage(ctx.store.list<TypedPlaylist>('playlist', siteId), ctx.url.searchParams, PLAYLIST_FIELDS, 'created:desc');
  return json({ page: page.page, page_length: page.page_length, total: page.total, playlists: page.items.map(plain) });
}

function loadPlaylist(ctx: RouteContext, siteId: string, typed: boolean): TypedPlaylist {
  const id = param(ctx, 'playlist');
  const type = typed ? requirePlaylistTypeSegment(param(ctx, 'playlist_type')) : null;
  const playlist = ctx.store.get<TypedPlaylist>('playlist', siteId, id);
  if (!playlist) throw notFound(`Playlist '${id}' in site '${siteId}'`);
  if (type !== null && playlist.playlist_type !== type) {
    throw notFound(`Playlist '${id}' is a ${playlist.playlist_type} playlist (playlists/${id}/${playlist.playlist_type}_playlist/), so ${type} playlist '${id}'`);
  }
  return playlist;
}

export function showPlaylist(ctx: RouteContext): Response {
  return json(plain(loadPlaylist(ctx, site(ctx), false)));
}

export function showTypedPlaylist(ctx: RouteContext): Response {
  return json(loadPlaylist(ctx, site(ctx), true));
}

export function updatePlaylist(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const playlist = loadPlaylist(ctx, siteId, true);
  if (ctx.body.upload || ctx.body.relationships) throw invalid('invalid_body', "Updating a playlist takes 'metadata' only.");
  const metadata = requireSection(ctx.body, 'metadata');
  const type = playlist.playlist_type;
  playlist.metadata = applyTop(playlist.metadata, metadata, type);
  const merged = mergeSubresource(type, subOf(playlist) as never, metadata[type], mediaChecker(ctx, siteId));
  (playlist as unknown as Record<string, unknown>)[type] = merged;
  playlist.last_modified = nowIso(ctx);
  refreshTrending(ctx, siteId, playlist);
  ctx.store.put('playlist', siteId, null, playlist);
  return json(playlist);
}

function remove(ctx: RouteContext, typed: boolean): Response {
  const siteId = site(ctx);
  const playlist = loadPlaylist(ctx, siteId, typed);
  ctx.store.delete('playlist', siteId, playlist.id);
  return noContent();
}

export const deletePlaylist = (ctx: RouteContext): Response => remove(ctx, false);
export const deleteTypedPlaylist = (ctx: RouteContext): Response => remove(ctx, true);
