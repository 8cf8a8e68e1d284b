// players/: name, release channel, and a setup_config the API stores without validating its members (spec).
import { RELEASE_CHANNELS, type Player, type PlayerMetadata } from '../../../worker/contract/v2-types.ts';
import { field, isObject, onlyKnown, requireSection } from '../body.ts';
import { type RouteContext, nowIso, param, site } from '../context.ts';
import { PLAYER_FIELDS } from '../fields.ts';
import { invalid, json, noContent, notFound } from '../http.ts';
import { freshId } from '../prng.ts';
import { listPage } from '../query.ts';

/** v1 put player options at the top level; v2 wants them inside setup_config. */
const V1_OPTION_HINTS: Record<string, string> = Object.fromEntries(
  ['aspectratio', 'responsive', 'autostart', 'displaydescription', 'displaytitle', 'playbackRateControls', 'preload', 'repeat',
    'stretching', 'mute', 'width', 'height', 'skin', 'controls'].map((option) => [option, `setup_config.${option}`]),
);

/** Each given field replaces the stored one; setup_config and custom_params are replaced as whole objects. */
function applyPlayerMetadata(current: PlayerMetadata, patch: Record<string, unknown>): PlayerMetadata {
  onlyKnown(patch, 'metadata', ['name', 'release_channel', 'setup_config', 'custom_params'], V1_OPTION_HINTS);
  const next = { ...current };
  if (patch.name !== undefined) next.name = field.string(patch.name, 'metadata.name', { nonEmpty: true, max: 200 }) as string;
  if (patch.release_channel !== undefined) {
    next.release_channel = field.oneOf(patch.release_channel, 'metadata.release_channel', RELEASE_CHANNELS);
  }
  if (patch.setup_config !== undefined) {
    if (!isObject(patch.setup_config)) throw invalid('invalid_parameter', 'metadata.setup_config must be an object.');
    next.setup_config = patch.setup_config;
  }
  if (patch.custom_params !== undefined) next.custom_params = field.customParams(patch.custom_params, 'metadata.custom_params');
  return next;
}

/** The `schema` every player answer names. */
export const PLAYER_SCHEMA = 'https://schema.jwplayer.com/types/player.json';

function loadPlayer(ctx: RouteContext, siteId: string): Player {
  const id = param(ctx, 'player');
  const player = ctx.store.get<Player>('player', siteId, id);
  if (!player) throw notFound(`Player '${id}' in site '${siteId}'`);
  return player;
}

export function createPlayer(ctx: RouteContext): Response {
  const siteId = site(ctx);
  if (ctx.body.upload || ctx.body.relationships) throw invalid('invalid_body', "Creating a player takes 'metadata' only.");
  const metadata = requireSection(ctx.body, 'metadata');
  if (metadata.name === undefined) throw invalid('invalid_parameter', 'metadata.name is required.');
  const at = nowIso(ctx);
  const player: Player = {
    id: freshId(), type: 'player', created: at, last_modified: at, schema: PLAYER_SCHEMA, version: '8', relationships: {},
    metadata: applyPlayerMetadata({ name: '', release_channel: 'latest', setup_config: {}, custom_params: {} }, metadata),
  };
  ctx.store.put('player', siteId, null, player);
  return json(player, 201);
}

export function listPlayers(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const page = listPage(ctx.store.list<Player>('player', siteId), ctx.url.searchParams, PLAYER_FIELDS, 'created:desc');
  return json({ page: page.page, page_length: page.page_length, total: page.total, players: page.items });
}

export function showPlayer(ctx: RouteContext): Response {
  return json(loadPlayer(ctx, site(ctx)));
}

export function updatePlayer(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const player = loadPlayer(ctx, siteId);
  if (ctx.body.upload || ctx.body.relationships) throw invalid('invalid_body', "Updating a player takes 'metadata' only.");
  player.metadata = applyPlayerMetadata(player.metadata, requireSection(ctx.body, 'metadata'));
  player.last_modified = nowIso(ctx);
  ctx.store.put('player', siteId, null, player);
  return json(player);
}

export function deletePlayer(ctx: RouteContext): Response {
  const siteId = site(ctx);
  ctx.store.delete('player', siteId, loadPlayer(ctx, siteId).id);
  return noContent();
}
