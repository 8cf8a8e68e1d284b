/** GET /api/sites/:site/players/:player — a player configuration. */
import { cached } from '../cache/cached.ts';
import { loadPlayer } from '../catalog/player.ts';
import { getConfig } from '../config.ts';
import { enforcePolicies } from '../geo/enforce.ts';
import type { PlayerResponse } from '../public-api.ts';
import { readQuery, requireId } from '../request-guard.ts';
import { jsonResponse, PRIVATE_NO_STORE, publicCacheControl } from '../respond.ts';
import { ServerTiming } from '../server-timing.ts';
import { publicCaller, siteOf, type Handler } from './context.ts';

export const playerRoute: Handler = async (request, env, ctx) => {
  const config = getConfig(env);
  const site = siteOf(env, request.params.site);
  const playerId = requireId(request.params.player, 'player');
  readQuery(request, []);
  const timing = new ServerTiming();
  const personal = await enforcePolicies(request, env, ctx, [site.policy], timing);
  const who = await publicCaller(request, env);
  const { value, state, storedAt } = await cached<PlayerResponse>({
    env, ctx, timing, kind: 'player', key: `player:${site.id}:${playerId}`,
    load: (_previous, freshness) => loadPlayer(env, { ...who, ...freshness }, site.id, playerId),
  });
  timing.note('cache', state);
  return jsonResponse(request, value, {
    cacheState: state,
    storedAt,
    timing,
    cacheControl: personal ? PRIVATE_NO_STORE : publicCacheControl(Math.min(300, config.cache.player.freshSeconds)),
  });
};
