/** GET /api/sites/:site/media/:media — one published, ready media with its renditions and tracks. */
import { cached } from '../cache/cached.ts';
import { cacheKeys } from '../cache/keys.ts';
import { loadMedia } from '../catalog/media.ts';
import { notFound } from '../errors.ts';
import { enforcePolicies, mediaPolicies } from '../geo/enforce.ts';
import { playlistMembership } from '../geo/membership.ts';
import { playbackBinding } from '../playback/network.ts';
import { withPlaybackUrls } from '../playback/urls.ts';
import { allowedCustomParams, isPublished } from '../projections.ts';
import type { MediaResponse } from '../contract/public-api.ts';
import { readQuery, requireId } from '../request-guard.ts';
import { jsonResponse, PRIVATE_NO_STORE, publicCacheControl } from '../respond.ts';
import { ServerTiming } from '../server-timing.ts';
import { publicCaller, siteOf, type Visit } from '../visit.ts';
import type { Handler } from './context.ts';

export const mediaRoute: Handler = async (request, env, ctx) => {
  const { config } = request;
  const site = siteOf(config, request.params.site);
  const mediaId = requireId(request.params.media, 'media');
  readQuery(request, []);
  const timing = new ServerTiming();
  const visit: Visit = { request, env, ctx, config, timing };
  const who = await publicCaller(request, env);
  // Decided before the media is read: a refused caller learns nothing of it, and spends nothing on it.
  const membership = await playlistMembership(visit, who, site);
  const personal = await enforcePolicies(visit, mediaPolicies(site, mediaId, membership));
  // Content under a policy is answered with playback URLs only: a caller no URL can be bound to is refused now, before
  // the media is read (withPlaybackUrls would refuse it too, after spending the load).
  if (personal) await playbackBinding(request, env, config.playback.bindNetwork);
  const { value, state, storedAt } = await cached<MediaResponse>({
    ...visit, kind: 'media', key: cacheKeys.media(site.id, mediaId),
    load: (_previous, freshness) => loadMedia(env, { ...who, ...freshness }, site.id, mediaId, config.customParamsAllowlist),
  });
  if (!isPublished(value, Date.now())) throw notFound();
  timing.note('cache', state);
  // The allowlist as configured now, even for an entry cached under an older one.
  let body: MediaResponse = { ...value, custom_params: allowedCustomParams(value.custom_params, config.customParamsAllowlist) };
  // Content under a policy: the worker's own playback URLs, never the platform's (the answer is private, see below).
  if (personal) body = await withPlaybackUrls(visit, site.id, body);
  return jsonResponse(request, body, {
    cacheState: state,
    storedAt,
    timing,
    cacheControl: personal ? PRIVATE_NO_STORE : publicCacheControl(Math.min(300, config.cache.media.freshSeconds)),
  });
};
