/**
 * `POST /admin/purge`: deletes a site's cached answers (a playlist's feeds, a media and the feeds it may be in, a
 * player, or everything of the site), at once, in this isolate and in KV.
 */
import { invalidate } from '../../cache/index.ts';
import { cacheKeys, cachePrefixes } from '../../catalog/index.ts';
import { RESOURCE_ID, SITE_ID, type Config } from '../../config.ts';
import type { RequestContext } from '../../http/context.ts';
import { noStoreJson } from '../../http/respond.ts';
import { invalid, methodNotAllowed } from '../errors.ts';
import { onlyParams, readJson } from './request.ts';

const PURGE_SCOPES = ['playlist', 'media', 'player'] as const;
type PurgeScope = 'site' | (typeof PURGE_SCOPES)[number];

/** `POST /admin/purge` `{site}` plus at most one of `playlist`, `media`, `player`. */
function readPurge(config: Config, body: unknown): { site: string; scope: PurgeScope; id: string | null } {
  const shape = 'The body is {"site":"<id>"} plus at most one of "playlist", "media", "player" (an 8-character id).';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid(shape);
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => name !== 'site' && !(PURGE_SCOPES as readonly string[]).includes(name));
  if (unknown !== undefined) throw invalid(`Unknown field "${unknown.slice(0, 32).replace(/[^\w-]/g, '')}". ${shape}`);
  const site = fields.site;
  if (typeof site !== 'string' || !SITE_ID.test(site)) throw invalid(`site must be a site id (8 letters or digits). ${shape}`);
  if (!config.sites.has(site)) throw invalid(`Site ${site} is not in the configuration.`);
  const scopes = PURGE_SCOPES.filter((scope) => fields[scope] !== undefined);
  if (scopes.length > 1) throw invalid(`Name at most one of playlist, media, player. ${shape}`);
  const scope = scopes[0];
  if (scope === undefined) return { site, scope: 'site', id: null };
  const id = fields[scope];
  if (typeof id !== 'string' || !RESOURCE_ID.test(id)) throw invalid(`${scope} must be a platform id (8 letters or digits).`);
  return { site, scope, id };
}

/** The keys and prefixes a purge deletes (catalog/keys.ts): a media takes its site's feeds along, as a media write does. */
function purgeTargets(site: string, scope: PurgeScope, id: string | null): { keys: string[]; prefixes: string[] } {
  switch (scope) {
    case 'playlist':
      return { keys: [cacheKeys.feed(site, id!)], prefixes: [cachePrefixes.playlistVariants(site, id!)] };
    case 'media':
      return { keys: [cacheKeys.media(site, id!)], prefixes: [cachePrefixes.siteFeeds(site)] };
    case 'player':
      return { keys: [cacheKeys.player(site, id!)], prefixes: [] };
    case 'site':
      // A player key with no player id is the prefix of all the site's players.
      return { keys: [], prefixes: [cachePrefixes.siteFeeds(site), cachePrefixes.siteMedia(site), cacheKeys.player(site, '')] };
  }
}

export async function purgeRoute({ request, env, config }: RequestContext): Promise<Response> {
  onlyParams(new URL(request.url), []);
  if (request.method !== 'POST') throw methodNotAllowed(['POST']);
  const { site, scope, id } = readPurge(config, await readJson(request));
  const removed = await invalidate(env.CACHE, purgeTargets(site, scope, id));
  return noStoreJson({ site, scope, id, removed });
}
