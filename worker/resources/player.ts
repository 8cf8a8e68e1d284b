/**
 * GET /api/sites/:site/players/:player — a player configuration. A setting of its `setup_config` that names content
 * under a policy (a playlist or media URL, an inline playlist) is left out for callers that content's policies refuse.
 */
import type { SiteConfig } from '../config.ts';
import type { PlayerResponse } from '../contract/public-api.ts';
import { cacheKeys, loadPlayer } from '../catalog/index.ts';
import { allowedBy, boundSettings, membershipFor, namesAnything } from '../geo/index.ts';
import { siteAndId, type ResourceDeclaration } from './pipeline.ts';

export interface PlayerInput {
  site: SiteConfig;
  playerId: string;
}

export const player: ResourceDeclaration<PlayerInput, PlayerResponse, PlayerResponse> = {
  kind: 'player',
  input(c) {
    const { site, id } = siteAndId(c, 'player');
    return { site, playerId: id };
  },
  policies: (_c, { site }) => [site.policy],
  key: ({ site, playerId }) => cacheKeys.player(site.id, playerId),
  fetch: (c, { site, playerId }, who) => loadPlayer(c.env, who, site.id, playerId),
  async present(c, { site }, loaded, bound) {
    const value = loaded!.value;
    // Membership is read only for a configuration that names something: most name no content and cost nothing here.
    if (!(site.playlists.size || site.media.size) || !namesAnything(value.setup_config)) return { body: value, personal: bound };
    const settings = boundSettings(value.setup_config, site, await membershipFor(c, site));
    if (!settings.size) return { body: value, personal: bound };
    const names = [...settings.keys()];
    const allowed = await allowedBy(c, names.map((name) => settings.get(name)!));
    const refused = new Set(names.filter((_, i) => !allowed[i]));
    const body = refused.size
      ? { ...value, setup_config: Object.fromEntries(Object.entries(value.setup_config).filter(([k]) => !refused.has(k))) }
      : value;
    return { body, personal: true };
  },
};
