// playlists/: six types, each with its rules under `metadata` beside the playlist's own fields. Show and delete
// answer on both playlists/<id>/ and playlists/<id>/<type>_playlist/; the typed form 404s when the playlist is of
// another type. The untyped answers (show and list) name the type by its short name in `playlist_type` and carry
// only the playlist's own fields; the typed answers carry the rules and no type (answers.ts).
import type { PlaylistMetadata, PlaylistType } from '../../../worker/contract/v2-types.ts';
import { field, onlyKnown, requireSection } from '../body.ts';
import { typedPlaylistAnswer, untypedPlaylistAnswer } from '../answers.ts';
import { type RouteContext, nowIso, param, site } from '../context.ts';
import { PLAYLIST_FIELDS } from '../fields.ts';
import { invalid, json, noContent, notFound } from '../http.ts';
import { freshId } from '../prng.ts';
import { defaultRules, mergeRules, requirePlaylistTypeSegment, RULE_MEMBERS } from '../playlist-rules.ts';
import { listPage } from '../query.ts';
import type { Playlist } from '../records.ts';

const OWN_FIELDS = ['title', 'description', 'author', 'link', 'custom_params'] as const;

function applyOwnFields(current: PlaylistMetadata, patch: Record<string, unknown>): PlaylistMetadata {
  const next = { ...current };
  for (const key of OWN_FIELDS) {
    const value = patch[key];
    if (value === undefined) continue;
    if (key === 'title') next.title = field.string(value, 'metadata.title', { nonEmpty: true, max: 500 }) as string;
    else if (key === 'custom_params') next.custom_params = field.customParams(value, 'metadata.custom_params');
    else if (key === 'link') next.link = value === null ? null : field.url(value, 'metadata.link');
    else next[key] = field.string(value, `metadata.${key}`, { nullable: true, max: 5000 });
  }
  return next;
}

/** A body's `metadata`: the playlist's fields and its type's rules, nothing else. */
function readMetadata(ctx: RouteContext, type: PlaylistType, verb: string): Record<string, unknown> {
  if (ctx.body.upload || ctx.body.relationships) throw invalid('invalid_body', `${verb} a playlist takes 'metadata' only.`);
  const metadata = requireSection(ctx.body, 'metadata');
  onlyKnown(metadata, 'metadata', [...OWN_FIELDS, ...RULE_MEMBERS[type]]);
  return metadata;
}

function mediaChecker(ctx: RouteContext, siteId: string): (id: string) => boolean {
  return (id) => ctx.store.get('media', siteId, id) !== null;
}

function own(metadata: Playlist['metadata']): PlaylistMetadata {
  const { title, description, author, link, custom_params } = metadata;
  return { title, description, author, link, custom_params };
}

function rulesOf(playlist: Playlist): Record<string, unknown> {
  return Object.fromEntries(RULE_MEMBERS[playlist.playlist_type].map((member) => [member, playlist.metadata[member]]));
}

export function createPlaylist(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const type = requirePlaylistTypeSegment(param(ctx, 'playlist_type'));
  const metadata = readMetadata(ctx, type, 'Creating');
  if (metadata.title === undefined) throw invalid('invalid_parameter', 'metadata.title is required.');
  const fields = applyOwnFields({ title: '', description: null, author: null, link: null, custom_params: {} }, metadata);
  const rules = mergeRules(type, defaultRules(type), metadata, mediaChecker(ctx, siteId));
  const at = nowIso(ctx);
  const playlist: Playlist = {
    id: freshId(), type: 'playlist', created: at, last_modified: at, playlist_type: type, default: false,
    metadata: { ...fields, ...rules },
  };
  ctx.store.put('playlist', siteId, null, playlist);
  return json(typedPlaylistAnswer(playlist), 201);
}

export function listPlaylists(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const page = listPage(ctx.store.list<Playlist>('playlist', siteId), ctx.url.searchParams, PLAYLIST_FIELDS, 'created:desc');
  return json({ page: page.page, page_length: page.page_length, total: page.total, playlists: page.items.map(untypedPlaylistAnswer) });
}

function loadPlaylist(ctx: RouteContext, siteId: string, typed: boolean): Playlist {
  const id = param(ctx, 'playlist');
  const type = typed ? requirePlaylistTypeSegment(param(ctx, 'playlist_type')) : null;
  const playlist = ctx.store.get<Playlist>('playlist', siteId, id);
  if (!playlist) throw notFound(`Playlist '${id}' in site '${siteId}'`);
  if (type !== null && playlist.playlist_type !== type) {
    throw notFound(`Playlist '${id}' is a ${playlist.playlist_type} playlist (playlists/${id}/${playlist.playlist_type}_playlist/), so ${type} playlist '${id}'`);
  }
  return playlist;
}

export function showPlaylist(ctx: RouteContext): Response {
  return json(untypedPlaylistAnswer(loadPlaylist(ctx, site(ctx), false)));
}

export function showTypedPlaylist(ctx: RouteContext): Response {
  const answer = typedPlaylistAnswer(loadPlaylist(ctx, site(ctx), true));
  // Marked, so the test pools' conformance gate lets the deformed answer through (test/platform/conformance-worker.ts).
  if (ctx.changedPlaylistShape) return json(changedShape(answer), 200, { 'x-sandbox-fault': 'changed_playlist_shape' });
  if (ctx.droppedPlaylistRules && 'tag_filter' in answer.metadata) {
    const { tag_filter: _tags, custom_param_filter: _params, pinning: _pinning, ...rest } = answer.metadata as Record<string, unknown>;
    return json({ ...answer, metadata: rest }, 200, { 'x-sandbox-fault': 'dropped_playlist_rules' });
  }
  return json(answer);
}

/** The `changed_playlist_shape` fault: the rules where a changed platform might put them, not where it documents them. */
function changedShape(answer: ReturnType<typeof typedPlaylistAnswer>): unknown {
  const { media_filter: mediaFilter, tag_filter: tagFilter, ...rest } = answer.metadata as Record<string, unknown>;
  return {
    ...answer,
    metadata: {
      ...rest,
      ...(tagFilter !== undefined ? { tag_filter: 'tags:any' } : {}),
      rules: { media_filter: mediaFilter, tag_filter: tagFilter },
    },
  };
}

export function updatePlaylist(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const playlist = loadPlaylist(ctx, siteId, true);
  const type = playlist.playlist_type;
  const metadata = readMetadata(ctx, type, 'Updating');
  const fields = applyOwnFields(own(playlist.metadata), metadata);
  const rules = mergeRules(type, rulesOf(playlist), metadata, mediaChecker(ctx, siteId));
  playlist.metadata = { ...fields, ...rules };
  playlist.last_modified = nowIso(ctx);
  ctx.store.put('playlist', siteId, null, playlist);
  return json(typedPlaylistAnswer(playlist));
}

function remove(ctx: RouteContext, typed: boolean): Response {
  const siteId = site(ctx);
  const playlist = loadPlaylist(ctx, siteId, typed);
  ctx.store.delete('playlist', siteId, playlist.id);
  return noContent();
}

export const deletePlaylist = (ctx: RouteContext): Response => remove(ctx, false);
export const deleteTypedPlaylist = (ctx: RouteContext): Response => remove(ctx, true);

/** Rewrites one filter's `{include, exclude}` value lists; true when anything changed. */
function retagFilter(filter: unknown, tag: string, retag: (tags: readonly string[]) => string[]): boolean {
  let changed = false;
  for (const side of ['include', 'exclude'] as const) {
    const part = (filter as Record<string, { values?: unknown }> | undefined)?.[side];
    if (!part || !Array.isArray(part.values) || !part.values.includes(tag)) continue;
    part.values = retag(part.values as string[]);
    changed = true;
  }
  return changed;
}

/** The tag actions' part in playlists: every tag filter that names the tag is rewritten by `retag`. */
export function retagPlaylists(ctx: RouteContext, siteId: string, tag: string, retag: (tags: readonly string[]) => string[]): void {
  for (const playlist of ctx.store.list<Playlist>('playlist', siteId)) {
    if (!retagFilter(playlist.metadata.tag_filter, tag, retag)) continue;
    playlist.last_modified = nowIso(ctx);
    ctx.store.put('playlist', siteId, null, playlist);
  }
}

/** A deleted media leaves every playlist that named it: a manual playlist's list, a pinning slot. */
export function forgetMediaInPlaylists(ctx: RouteContext, siteId: string, mediaId: string): void {
  for (const playlist of ctx.store.list<Playlist>('playlist', siteId)) {
    const m = playlist.metadata as Record<string, unknown>;
    let changed = false;
    const include = (m.media_filter as { include?: { values?: string[] } } | undefined)?.include;
    if (playlist.playlist_type === 'manual' && include?.values?.includes(mediaId)) {
      include.values = include.values.filter((id) => id !== mediaId);
      changed = true;
    }
    const pinning = m.pinning as Record<string, string | null> | undefined;
    for (const slot of ['slot1', 'slot2']) {
      if (pinning?.[slot] === mediaId) {
        pinning[slot] = null;
        changed = true;
      }
    }
    if (changed) ctx.store.put('playlist', siteId, null, playlist);
  }
}
