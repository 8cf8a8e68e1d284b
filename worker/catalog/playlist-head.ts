/**
 * A playlist's head, from the Management API: its own fields, its type and its rules. The head is what only the
 * Management API knows of a playlist, and what reelgate still asks it for: the type decides which variant a caller may
 * ask for, and the rules decide what a bound playlist binds (catalog/member-rules.ts). What a shelf shows is the
 * Delivery API's to say (delivery/feed.ts).
 */
import { callUpstream, withReservation, type CallerContext } from '../budget/index.ts';
import type { FeedResponse } from '../contract/public-api.ts';
import type { Playlist, PlaylistType, TypedPlaylist } from '../contract/v2-types.ts';
import type { Env } from '../env.ts';
import { ApiError } from '../http/errors.ts';
import { cacheKeys } from './keys.ts';
import { readRules, readType, type PlaylistRules } from './playlist-rules.ts';
import { playlistHeader } from './projections.ts';

export interface PlaylistHead {
  playlist: FeedResponse['playlist'];
  type: PlaylistType;
  rules: PlaylistRules;
}

export interface HeadLoadOptions {
  env: Env;
  who: CallerContext;
  site: string;
  playlistId: string;
  /** The playlist's type as last seen (from the entry being refreshed): saves the untyped lookup. */
  knownType?: PlaylistType | undefined;
}

/** The Management calls a head costs: the typed answer, and the untyped one first unless the type is known. */
export const headCalls = (knownType: PlaylistType | undefined) => (knownType ? 1 : 2);

/** The head on a reservation of its own: one upstream call when its type is known, else two. */
export function loadPlaylistHead(options: HeadLoadOptions): Promise<PlaylistHead> {
  const { env, who, site, playlistId, knownType } = options;
  return withReservation(env, who, { key: cacheKeys.feedHead(site, playlistId), calls: headCalls(knownType) },
    async (reserved) => {
      const { type, typed } = await typedPlaylist({ ...options, who: reserved });
      return { playlist: playlistHeader(typed, type), type, rules: readRules(playlistId, type, typed.metadata) };
    });
}

/**
 * The typed answer (rules under `metadata`) and the type: one call when the type is known, else the untyped answer
 * first, which alone names the type. A watchlist has no rules to read, so its untyped answer is enough.
 */
async function typedPlaylist({ env, who, site, playlistId, knownType }: HeadLoadOptions):
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
