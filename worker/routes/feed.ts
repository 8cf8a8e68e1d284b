/** GET /api/sites/:site/playlists/:playlist — a widget feed, paged, publish window and geo rules applied. */
import { cached } from '../cache/cached.ts';
import { loadFeed, type FeedSnapshot } from '../catalog/feed.ts';
import { getConfig } from '../config.ts';
import { enforcePolicies } from '../geo/enforce.ts';
import { locateCaller } from '../geo/locate.ts';
import { decide } from '../geo/policy.ts';
import { allowedCustomParams, isPublished } from '../projections.ts';
import type { FeedResponse } from '../public-api.ts';
import { intParam, readQuery, requireId, tagsParam } from '../request-guard.ts';
import { jsonResponse, PRIVATE_NO_STORE, publicCacheControl } from '../respond.ts';
import { ServerTiming } from '../server-timing.ts';
import { publicCaller, siteOf, type Handler } from './context.ts';

const MAX_PAGE = 1000;

export const feedRoute: Handler = async (request, env, ctx) => {
  const config = getConfig(env);
  const site = siteOf(env, request.params.site);
  const playlistId = requireId(request.params.playlist, 'playlist');
  const query = readQuery(request, ['page', 'page_length', 'seed', 'tags'] as const);
  const page = intParam(query.page, 'page', 1, 1, MAX_PAGE);
  const pageLength = intParam(query.page_length, 'page_length', config.feed.defaultPageLength, 1, config.feed.maxPageLength);
  const seed = query.seed === undefined ? null : requireId(query.seed, 'seed media');
  const tags = tagsParam(query.tags);
  const timing = new ServerTiming();

  let personal = await enforcePolicies(request, env, ctx, [site.policy, site.playlists.get(playlistId)], timing);
  const who = await publicCaller(request, env);
  const variant = seed || tags.length ? `:${seed ?? ''}:${tags.join(',')}` : '';
  const { value, state, storedAt } = await cached<FeedSnapshot>({
    env, ctx, timing, kind: 'feed', key: `feed:${site.id}:${playlistId}${variant}`,
    load: (previous, freshness) => loadFeed({ env, who: { ...who, ...freshness }, site: site.id, playlistId, variant: { seed, tags },
      maxItems: config.feed.maxItems, allowlist: config.customParamsAllowlist, knownType: previous?.playlist.type }),
  });

  const now = Date.now();
  // The allowlist as configured now, even for entries cached under an older one.
  let items = value.items.filter((item) => isPublished(item, now))
    .map((item) => ({ ...item, custom_params: allowedCustomParams(item.custom_params, config.customParamsAllowlist) }));
  // Media bound to their own policy leave the feed for callers that policy refuses.
  if (items.some((item) => site.media.has(item.id))) {
    personal = true;
    const where = await locateCaller(request, env, ctx, timing);
    items = items.filter((item) => {
      const name = site.media.get(item.id);
      return !name || decide(config.policies.get(name)!, where).allowed;
    });
  }
  const start = (page - 1) * pageLength;
  const body: FeedResponse = {
    site: site.id,
    playlist: value.playlist,
    items: items.slice(start, start + pageLength),
    page,
    page_length: pageLength,
    total: items.length,
    next_page: start + pageLength < items.length ? page + 1 : null,
  };
  timing.note('cache', state);
  return jsonResponse(request, body, {
    cacheState: state,
    storedAt,
    timing,
    cacheControl: personal ? PRIVATE_NO_STORE : publicCacheControl(Math.min(60, config.cache.feed.freshSeconds)),
  });
};
