/**
 * A playlist's media, resolved from its rules (playlist-rules.ts) with as few upstream calls as possible: one media
 * list call with a `q` query (ids OR-ed for a manual playlist, the filters' terms for the others), never one call per
 * media. What is cached is the projection of every ready media of the feed; the publish window is applied when
 * answering, since time moves on.
 */
import { callUpstream, withReservation, type CallerContext } from '../budget/index.ts';
import { cached, type CachedValue } from '../cache/index.ts';
import { cacheKeys } from './keys.ts';
import type { Env } from '../env.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { feedItem, playlistHeader } from './projections.ts';
import type { FeedItem, FeedResponse } from '../contract/public-api.ts';
import { readRules, readType, type PlaylistRules } from './playlist-rules.ts';
import { filteredSelection, selectsNothing, shuffled, term, type CallerNarrowing } from './playlist-selection.ts';
import { NO_VARIANT, type FeedVariant } from './feed-variant.ts';
import { memberRulesOf, type MemberFacts, type MemberRules } from './member-rules.ts';
import { deliveryBase } from './posters.ts';
import { MAX_Q_LENGTH } from '../contract/list-query.ts';
import type { Media, MediaList, Playlist, PlaylistType, TypedPlaylist } from '../contract/v2-types.ts';

export interface FeedSnapshot {
  playlist: FeedResponse['playlist'];
  /** Ready media in feed order, publish window not yet applied. */
  items: FeedItem[];
  /**
   * What the playlist binds to a policy (geo/membership.ts), beyond what its feed shows: a manual playlist every media
   * it lists, in its order (up to the platform's 10,000); a filtered one its pinned media, and every media its rules
   * select (`selects`). Absent from a variant's feed and from entries written before they were kept.
   */
  members?: string[];
  selects?: MemberRules;
  /**
   * A recommendations variant's related media as it was read (its tags and custom params): the seed a caller named is
   * bound like the media itself, and its facts are only known once read (resources/feed.ts).
   */
  related?: MemberFacts & { id: string };
}

/** A playlist's own fields, its type and its rules: what a variant of its feed is resolved from. */
export interface PlaylistHead {
  playlist: FeedResponse['playlist'];
  type: PlaylistType;
  rules: PlaylistRules;
}

export interface FeedLoadOptions {
  env: Env;
  who: CallerContext;
  site: string;
  playlistId: string;
  variant: FeedVariant;
  maxItems: number;
  /** The playlist's type as last seen (from the entry being refreshed): saves the untyped lookup. */
  knownType?: PlaylistType | undefined;
}

/** The playlist's own feed, cached, loaded for `who` on a miss. */
export function baseFeed(c: RequestContext, who: CallerContext, site: string, playlistId: string): Promise<CachedValue<FeedSnapshot>> {
  const { env, config } = c;
  return cached<FeedSnapshot>(c, {
    kind: 'feed', key: cacheKeys.feed(site, playlistId),
    load: (previous, freshness) => loadFeed({ env, who: { ...who, ...freshness }, site, playlistId, variant: NO_VARIANT,
      maxItems: config.feed.maxItems, knownType: previous?.playlist.type }),
  });
}

/**
 * The upstream calls each load is reserved for (budget/client.ts `withReservation`): the head (the untyped playlist
 * for its type unless known, then the typed one) and the media (a list call; a recommendations feed reads its seed
 * first). An unknown type is reserved as three; a recommendations playlist's fourth call, or the two more after a
 * known type turned out stale, go first in line once the reservation is spent.
 */
const headCalls = (knownType: PlaylistType | undefined) => (knownType ? 1 : 2);
const mediaCalls = (type: PlaylistType | undefined, maxItems: number) =>
  (type === 'manual' ? Math.ceil(maxItems / IDS_PER_QUERY) : type === 'recommendations' ? 2 : 1);

/** The playlist's own feed (no variant): its head and its media, on one reservation. */
export async function loadFeed(options: FeedLoadOptions): Promise<FeedSnapshot> {
  const { env, who, site, playlistId, knownType } = options;
  return withReservation(env, who, { key: cacheKeys.feed(site, playlistId), calls: headCalls(knownType) + mediaCalls(knownType, options.maxItems) },
    async (reserved) => {
      const within = { ...options, who: reserved };
      return resolveFeed(within, await playlistHead(within));
    });
}

/** The playlist's fields, type and rules: one upstream call when its type is known, else two. */
export async function loadPlaylistHead(options: Omit<FeedLoadOptions, 'variant' | 'maxItems'>): Promise<PlaylistHead> {
  const { env, who, site, playlistId, knownType } = options;
  return withReservation(env, who, { key: cacheKeys.feedHead(site, playlistId), calls: headCalls(knownType) },
    (reserved) => playlistHead({ ...options, who: reserved }));
}

/** A feed resolved from a head already at hand (cached for variants): only the media calls. */
export async function feedOf(options: FeedLoadOptions, head: PlaylistHead): Promise<FeedSnapshot> {
  const { env, who, site, playlistId, variant } = options;
  return withReservation(env, who, { key: cacheKeys.feedVariant(site, playlistId, variant), calls: mediaCalls(head.type, options.maxItems) },
    (reserved) => resolveFeed({ ...options, who: reserved }, head));
}

async function playlistHead(options: Omit<FeedLoadOptions, 'variant' | 'maxItems'>): Promise<PlaylistHead> {
  const { playlistId } = options;
  const { type, typed } = await typedPlaylist(options);
  const rules = readRules(playlistId, type, typed.metadata);
  return { playlist: playlistHeader(typed, type), type, rules };
}

async function resolveFeed(options: FeedLoadOptions, head: PlaylistHead): Promise<FeedSnapshot> {
  let related: Media | null = null;
  const media = await resolveMedia(options, head.rules, (seed) => {
    related = seed;
  });
  const projection = { delivery: deliveryBase(options.env.DELIVERY_BASE_URL) };
  const items = media.filter((m) => m.status === 'ready').map((m) => feedItem(m, projection));
  const { rules } = head;
  const seed = related as Media | null;
  if (seed) {
    const facts = { id: seed.id, tags: [...(seed.metadata.tags ?? [])], custom_params: { ...(seed.metadata.custom_params ?? {}) } };
    return { playlist: head.playlist, items, related: facts };
  }
  if (options.variant !== NO_VARIANT || rules.type === 'watchlist') return { playlist: head.playlist, items };
  return rules.type === 'manual'
    ? { playlist: head.playlist, items, members: rules.ids }
    : { playlist: head.playlist, items, members: rules.pinned, selects: memberRulesOf(rules) };
}

/**
 * The typed answer (rules under `metadata`) and the type: one call when the type is known, else the untyped answer
 * first, which alone names the type. A watchlist has no rules to read, so its untyped answer is enough.
 */
async function typedPlaylist({ env, who, site, playlistId, knownType }: Omit<FeedLoadOptions, 'variant' | 'maxItems'>):
  Promise<{ type: PlaylistType; typed: TypedPlaylist | Playlist }> {
  if (knownType) {
    try {
      const typed = await callUpstream<TypedPlaylist>(env, who, { api: 'v2', op: 'getTypedPlaylist', site, id: playlistId, type: knownType });
      return { type: knownType, typed };
    } catch (error) {
      // The type may have changed (or the playlist gone): ask again from the start.
      if (!(error instanceof ApiError) || error.code !== 'not_found') throw error;
    }
  }
  const untyped = await callUpstream<Playlist>(env, who, { api: 'v2', op: 'getPlaylist', site, id: playlistId });
  const type = readType(playlistId, untyped);
  if (type === 'watchlist') return { type, typed: untyped };
  const typed = await callUpstream<TypedPlaylist>(env, who, { api: 'v2', op: 'getTypedPlaylist', site, id: playlistId, type });
  return { type, typed };
}

/** What the caller's variant narrows a filtered playlist by; a related media that is gone narrows to nothing. */
async function narrowingFor(options: FeedLoadOptions, type: PlaylistType): Promise<CallerNarrowing | null> {
  const { variant } = options;
  if (type === 'search' && variant.search !== null) return { kind: 'search', phrase: variant.search };
  if (type === 'article_matching' && variant.tags.length) return { kind: 'tags', tags: variant.tags };
  if (type === 'recommendations' && variant.seed !== null) {
    try {
      const media = await callUpstream<Media>(options.env, options.who, { api: 'v2', op: 'getMedia', site: options.site, id: variant.seed });
      return { kind: 'related', media };
    } catch (error) {
      if (error instanceof ApiError && error.code === 'not_found') return null;
      throw error;
    }
  }
  return { kind: 'none' };
}

async function resolveMedia(options: FeedLoadOptions, rules: PlaylistRules, sawRelated: (media: Media) => void): Promise<Media[]> {
  if (rules.type === 'watchlist') return [];
  if (rules.type === 'manual') return byIds(options, rules.ids.slice(0, options.maxItems));
  const limit = Math.max(0, Math.min(rules.limit, options.maxItems));
  if (limit === 0) return [];
  const narrowing = await narrowingFor(options, rules.type);
  if (narrowing?.kind === 'related') sawRelated(narrowing.media);
  if (narrowing === null || selectsNothing(narrowing)) return [];
  const selection = filteredSelection(rules, narrowing);
  const now = Date.now();
  const listed = (await list(options, selection.q, selection.pageLength, selection.sort)).filter((m) => selection.keep(m, now));
  const ordered = selection.shuffle ? shuffled(listed) : listed;
  // Pinned media hold the first places whatever the filters say; those the list did not bring are asked for by id.
  const pinned = rules.pinned.filter((id) => narrowing.kind !== 'related' || id !== narrowing.media.id);
  const byId = new Map(ordered.map((m) => [m.id, m]));
  const missing = pinned.filter((id) => !byId.has(id));
  for (const m of missing.length ? await byIds(options, missing) : []) byId.set(m.id, m);
  const first = pinned.flatMap((id) => byId.get(id) ?? []);
  return [...first, ...ordered.filter((m) => !pinned.includes(m.id))].slice(0, limit);
}

async function list(options: FeedLoadOptions, q: string, pageLength: number, sort: string | undefined): Promise<Media[]> {
  const answer = await callUpstream<MediaList>(options.env, options.who, {
    api: 'v2', op: 'listMedia', site: options.site,
    params: { ...(q ? { q } : {}), page: 1, page_length: pageLength, ...(sort ? { sort } : {}) },
  });
  return answer.media.slice(0, pageLength);
}

/**
 * How many `id:<id>` terms one `q` carries: eight-character ids OR-ed take 15n − 4 characters, and the platform takes
 * a `q` of at most 1,024 (contract/list-query.ts).
 */
export const IDS_PER_QUERY = Math.floor((MAX_Q_LENGTH + 4) / 15);

/** An ordered id list in as few list calls as the `q` bound allows (chunks side by side), answered in its order. */
async function byIds(options: FeedLoadOptions, ids: string[]): Promise<Media[]> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return [];
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let length = 0;
  for (const id of wanted) {
    const text = term('id', id);
    const joined = chunk.length ? length + ' OR '.length + text.length : text.length;
    if (chunk.length && joined > MAX_Q_LENGTH) {
      chunks.push(chunk);
      chunk = [text];
      length = text.length;
    } else {
      chunk.push(text);
      length = joined;
    }
  }
  chunks.push(chunk);
  const found = (await Promise.all(chunks.map((terms) => list(options, terms.join(' OR '), terms.length, undefined)))).flat();
  const byId = new Map(found.map((m) => [m.id, m]));
  return wanted.flatMap((id) => byId.get(id) ?? []);
}
