/** A player configuration for the player element. */
import { callUpstream, type CallerContext } from '../budget/index.ts';
import type { Env } from '../env.ts';
import { playerResponse } from './projections.ts';
import type { PlayerResponse } from '../contract/public-api.ts';
import type { Player } from '../contract/v2-types.ts';

export async function loadPlayer(env: Env, who: CallerContext, site: string, id: string): Promise<PlayerResponse> {
  return playerResponse(await callUpstream<Player>(env, who, { api: 'v2', op: 'getPlayer', site, id }));
}
