/**
 * A playlist's media, resolved by its type's subresource with as few upstream calls as possible: one list call with
 * a `q` query (ids OR-ed, tags AND-ed or OR-ed, the saved search), never one call per media. What is cached is the
 * projection of every ready media of the feed; the publish window is applied when answering, since time moves on.
 */
import { callUpstream, withReservation, type CallerContext } from '../budget/upstream.ts';
import { cached, type CachedValue } from '../cache/cached.ts';
import { cacheKeys } from '../cache/keys.ts';
import type { Config } from '../config.ts';
import type { Env } from '../env.ts';
import { ApiError, invalidRequest } from '../errors.ts';
import type { ServerTiming } from '../server-timing.ts';
import { feedItem, playlistHeader } from '../projections.ts';
import type { FeedItem, FeedResponse } from '../contract/public-api.ts';
import { playlistTypeOf, subresourceOf } from './playlist-answers.ts';
import type { Media, MediaList, Playlist, PlaylistSubresources, PlaylistType, TypedPlaylist } from '../contract/v2-types.ts';

export interface FeedSnapshot {
  playlist: FeedResponse['playlist'];
  /** Ready media in feed order, publish window not yet applied. */
  items: FeedItem[];
}

/** What a caller may vary: the seed of a recommendations feed, the article tags of an article-matching feed. */
export interface FeedVariant {
  seed: string | null;
  tags: string[];
}

/** The query parameter each playlist type varies by; the other types take none. */
const VARIANT_PARAMETER: Partial<Record<PlaylistType, keyof FeedVariant>> = {
  recommendations: 'seed',
  article_matching: 'tags',
};

/**
 * Refuses a variant the playlist's type does not use: every value would be a new cache key (and upstream calls) for
 * an answer that is the same as the playlist's own feed.
 */
export function checkVariant(type: PlaylistType, variant: FeedVariant): void {
  for (const parameter of ['seed', 'tags'] as const) {
    const given = parameter === 'seed' ? variant.seed !== null : variant.tags.length > 0;
    if (!given || VARIANT_PARAMETER[type] === parameter) continue;
    const takes = Object.entries(VARIANT_PARAMETER).find(([, p]) => p === parameter)![0];
    throw invalidRequest(`"${parameter}" applies to ${takes} playlists only; this playlist is ${type}.`);
  }
}

/** A playlist's own fields and its type's subresource: what a variant of its feed is resolved from. */
export interface PlaylistHead {
  playlist: FeedResponse['playlist'];
  type: PlaylistType;
  sub: PlaylistSubresources[PlaylistType] | null;
}

export interface FeedLoadOptions {
  env: Env;
  who: CallerContext;
  site: string;
  playlistId: string;
  variant: FeedVariant;
  maxItems: number;
  allowlist: readonly string[];
  /** The playlist's type as last seen (from the entry being refreshed): saves the untyped lookup. */
  knownType?: PlaylistType | undefined;
}

/** Who asks for a playlist's feed, and where its cache entries are. */
export interface FeedLookup {
  env: Env;
  config: Config;
  ctx: ExecutionContext;
  timing?: ServerTiming | undefined;
  who: CallerContext;
  site: string;
  playlistId: string;
}

/** The playlist's own feed, cached. */
export function baseFeed({ env, config, ctx, timing, who, site, playlistId }: FeedLookup): Promise<CachedValue<FeedSnapshot>> {
  return cached<FeedSnapshot>({
    env, config, ctx, timing, kind: 'feed', key: cacheKeys.feed(site, playlistId),
    load: (previous, freshness) => loadFeed({ env, who: { ...who, ...freshness }, site, playlistId, variant: { seed: null, tags: [] },
      maxItems: config.feed.maxItems, allowlist: config.customParamsAllowlist, knownType: previous?.playlist.type }),
  });
}

/** `field:value`, quoted when the value holds anything but plain word characters. */
function term(field: string, value: string): string {
  const clean = value.replace(/["\\]/g, '');
  return /^[A-Za-z0-9_.-]+$/.test(clean) ? `${field}:${clean}` : `${field}:"${clean}"`;
}

/**
 * The upstream calls each load is reserved for (budget/upstream.ts `withReservation`): the head (the untyped playlist
 * for its type unless known, then the typed one) and the media (a list call; a recommendations feed reads its seed
 * first). An unknown type is reserved as three; a recommendations playlist's fourth call, or the two more after a
 * known type turned out stale, go first in line once the reservation is spent.
 */
const headCalls = (knownType: PlaylistType | undefined) => (knownType ? 1 : 2);
const mediaCalls = (type: PlaylistType | undefined) => (type === 'recommendations' ? 2 : 1);

/** The playlist's own feed (no variant): its head and its media, on one reservation. */
export async function loadFeed(options: FeedLoadOptions): Promise<FeedSnapshot> {
  const { env, who, site, playlistId, knownType } = options;
  return withReservation(env, who, { key: cacheKeys.feed(site, playlistId), calls: headCalls(knownType) + mediaCalls(knownType) },
    async (reserved) => {
      const within = { ...options, who: reserved };
      return resolveFeed(within, await playlistHead(within));
    });
}

/** The playlist with its type's subresource: one upstream call when its type is known, else two. */
export async function loadPlaylistHead(options: Omit<FeedLoadOptions, 'variant' | 'maxItems' | 'allowlist'>): Promise<PlaylistHead> {
  const { env, who, site, playlistId, knownType } = options;
  return withReservation(env, who, { key: cacheKeys.feedHead(site, playlistId), calls: headCalls(knownType) },
    (reserved) => playlistHead({ ...options, who: reserved }));
}

/** A feed resolved from a head already at hand (cached for variants): only the media calls. */
export async function feedOf(options: FeedLoadOptions, head: PlaylistHead): Promise<FeedSnapshot> {
  const { env, who, site, playlistId, variant } = options;
  return withReservation(env, who, { key: cacheKeys.feedVariant(site, playlistId, variant), calls: mediaCalls(head.type) },
    (reserved) => resolveFeed({ ...options, who: reserved }, head));
}

async function playlistHead(options: Omit<FeedLoadOptions, 'variant' | 'maxItems' | 'allowlist'>): Promise<PlaylistHead> {
  const typed = await typedPlaylist(options);
  const type = playlistTypeOf(typed);
  const sub = subresourceOf(typed, type);
  return { playlist: playlistHeader({ ...typed, playlist_type: type }), type, sub };
}

async function resolveFeed(options: FeedLoadOptions, head: PlaylistHead): Promise<FeedSnapshot> {
  const media = head.sub ? await resolveMedia(options, head.type, head.sub) : [];
  return {
    playlist: head.playlist,
    items: media.filter((m) => m.status === 'ready').map((m) => feedItem(m, options.allowlist)),
  };
}

/** The playlist with its subresource: one call when its type is known, else the untyped lookup first. */
async function typedPlaylist({ env, who, site, playlistId, knownType }: Omit<FeedLoadOptions, 'variant' | 'maxItems' | 'allowlist'>): Promise<TypedPlaylist> {
  if (knownType) {
    try {
      return await callUpstream<TypedPlaylist>(env, who, { api: 'v2', op: 'getTypedPlaylist', site, id: playlistId, type: knownType });
    } catch (error) {
      // The type may have changed (or the playlist gone): ask again from the start.
      if (!(error instanceof ApiError) || error.code !== 'not_found') throw error;
    }
  }
  const head = await callUpstream<Playlist>(env, who, { api: 'v2', op: 'getPlaylist', site, id: playlistId });
  return callUpstream<TypedPlaylist>(env, who, { api: 'v2', op: 'getTypedPlaylist', site, id: playlistId, type: playlistTypeOf(head) });
}

async function resolveMedia(options: FeedLoadOptions, type: PlaylistType,
  sub: PlaylistSubresources[PlaylistType]): Promise<Media[]> {
  const limit = Math.max(0, Math.min(Number(sub.max_items) || options.maxItems, options.maxItems));
  if (limit === 0) return [];
  switch (type) {
    case 'manual':
    case 'trending':
      return byIds(options, (sub as PlaylistSubresources['manual']).media_ids.slice(0, limit));
    case 'dynamic': {
      const s = sub as PlaylistSubresources['dynamic'];
      if (!s.tags.length) return [];
      const q = s.tags.map((t) => term('tags', t)).join(s.tags_mode === 'all' ? ' AND ' : ' OR ');
      return list(options, q, limit, s.sort);
    }
    case 'search': {
      const s = sub as PlaylistSubresources['search'];
      return list(options, s.q, limit, s.sort);
    }
    case 'recommendations': {
      const s = sub as PlaylistSubresources['recommendations'];
      const seedId = options.variant.seed ?? s.seed_media_id;
      if (!seedId) return [];
      let seed: Media;
      try {
        seed = await callUpstream<Media>(options.env, options.who, { api: 'v2', op: 'getMedia', site: options.site, id: seedId });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_found') return [];
        throw error;
      }
      const tags = seed.metadata.tags ?? [];
      if (!tags.length) return [];
      const related = await list(options, tags.map((t) => term('tags', t)).join(' OR '), limit + 1, undefined);
      return related.filter((m) => m.id !== seed.id).slice(0, limit);
    }
    case 'article_matching': {
      const s = sub as PlaylistSubresources['article_matching'];
      const tags = options.variant.tags.length ? options.variant.tags : s.default_tags;
      if (!tags.length) return [];
      return list(options, tags.map((t) => term('tags', t)).join(' OR '), limit, undefined);
    }
    case 'watchlist':
      // Each viewer's own list: nothing the worker can resolve without the viewer.
      return [];
  }
}

async function list(options: FeedLoadOptions, q: string, limit: number, sort: string | undefined): Promise<Media[]> {
  const answer = await callUpstream<MediaList>(options.env, options.who, {
    api: 'v2', op: 'listMedia', site: options.site,
    params: { q, page: 1, page_length: limit, ...(sort ? { sort } : {}) },
  });
  return answer.media.slice(0, limit);
}

/** One list call for an ordered id list, answered in the list's order. */
async function byIds(options: FeedLoadOptions, ids: string[]): Promise<Media[]> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return [];
  const found = await list(options, wanted.map((id) => term('id', id)).join(' OR '), wanted.length, undefined);
  const byId = new Map(found.map((m) => [m.id, m]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}
