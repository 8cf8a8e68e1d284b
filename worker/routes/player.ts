/**
 * GET /api/sites/:site/players/:player — a player configuration. A setting of its `setup_config` that names content
 * under a policy (a playlist or media URL, an inline playlist) is left out for callers that content's policies refuse.
 */
import { cached } from '../cache/cached.ts';
import { cacheKeys } from '../cache/keys.ts';
import { loadPlayer } from '../catalog/player.ts';
import { allowedBy, enforcePolicies } from '../geo/enforce.ts';
import { playlistMembership } from '../geo/membership.ts';
import { boundSettings, namesAnything } from '../geo/player-references.ts';
import type { PlayerResponse } from '../contract/public-api.ts';
import { readQuery, requireId } from '../request-guard.ts';
import { jsonResponse, PRIVATE_NO_STORE, publicCacheControl } from '../respond.ts';
import { ServerTiming } from '../server-timing.ts';
import { publicCaller, siteOf, type Visit } from '../visit.ts';
import type { Handler } from './context.ts';

export const playerRoute: Handler = async (request, env, ctx) => {
  const { config } = request;
  const site = siteOf(config, request.params.site);
  const playerId = requireId(request.params.player, 'player');
  readQuery(request, []);
  const timing = new ServerTiming();
  const visit: Visit = { request, env, ctx, config, timing };
  let personal = await enforcePolicies(visit, [site.policy]);
  const who = await publicCaller(request, env);
  const { value, state, storedAt } = await cached<PlayerResponse>({
    ...visit, kind: 'player', key: cacheKeys.player(site.id, playerId),
    load: (_previous, freshness) => loadPlayer(env, { ...who, ...freshness }, site.id, playerId),
  });
  let body = value;
  // Membership is read only for a configuration that names something: most name no content and cost nothing here.
  if ((site.playlists.size || site.media.size) && namesAnything(value.setup_config)) {
    const bound = boundSettings(value.setup_config, site, await playlistMembership(visit, who, site));
    if (bound.size) {
      personal = true;
      const settings = [...bound.keys()];
      const allowed = await allowedBy(visit, settings.map((s) => bound.get(s)!));
      const refused = new Set(settings.filter((_, i) => !allowed[i]));
      if (refused.size) {
        body = { ...value, setup_config: Object.fromEntries(Object.entries(value.setup_config).filter(([k]) => !refused.has(k))) };
      }
    }
  }
  timing.note('cache', state);
  return jsonResponse(request, body, {
    cacheState: state,
    storedAt,
    timing,
    cacheControl: personal ? PRIVATE_NO_STORE : publicCacheControl(Math.min(300, config.cache.player.freshSeconds)),
  });
};
