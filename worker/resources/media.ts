/** GET /api/sites/:site/media/:media — one published media, as the Delivery API gives it (delivery/media.ts). */
import type { SiteConfig } from '../config.ts';
import type { MediaResponse } from '../contract/public-api.ts';
import { allowedCustomParams, cacheKeys, checkMediaFiles, isPublished } from '../catalog/index.ts';
import { loadMedia } from '../delivery/index.ts';
import { enforcePolicies, mediaPolicies, membershipFor } from '../geo/index.ts';
import type { RequestContext } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { playbackBinding, withPlaybackUrls } from '../playback/index.ts';
import { signerFor, signMedia } from '../signing/index.ts';
import { siteAndId, type ResourceDeclaration } from './pipeline.ts';

export interface MediaInput {
  site: SiteConfig;
  mediaId: string;
}

export const media: ResourceDeclaration<MediaInput, MediaResponse, MediaResponse> = {
  kind: 'media',
  input(c) {
    const { site, id } = siteAndId(c, 'media');
    return { site, mediaId: id };
  },
  // Decided before the media is read: a refused caller learns nothing of it, and spends nothing on it. Its playlists
  // bind it too (geo/membership.ts).
  policies: async (c, { site, mediaId }) => mediaPolicies(site, mediaId, await membershipFor(c, site)),
  // Content under a policy is answered with playback URLs only: a caller no URL can be bound to is refused now, before
  // the media is read (`withPlaybackUrls` would refuse it too, after spending the load).
  async beforeLoad(c, _input, bound) {
    if (bound) await playbackBinding(c.request, c.env, c.config.playback.bindNetwork);
  },
  key: ({ site, mediaId }) => cacheKeys.media(site.id, mediaId),
  fetch: (c, { site, mediaId }, who) => loadMedia(c.env, c.config, who, site.id, mediaId),
  present: async (c, input, loaded, bound) => {
    const { value } = loaded!;
    // Now the media is read: the rules of bound filtered playlists are judged on it (its tags, its custom params).
    const ruled = await enforcePolicies(c, mediaPolicies(input.site, input.mediaId, await membershipFor(c, input.site), value));
    return presentMedia(c, input, value, bound || ruled);
  },
};

/**
 * The media as this caller sees it: published now, today's custom params allowlist, and its URLs: under a policy the
 * worker's own playback URLs, never the platform's (the answer is private); else the platform's, signed when the site
 * signs them (worker/signing/).
 */
async function presentMedia(c: RequestContext, { site }: MediaInput, value: MediaResponse, bound: boolean) {
  const now = Date.now();
  if (!isPublished(value, now)) throw notFound();
  // A writer's external media may name another media's file on the delivery host: refused for everyone, bound or not.
  checkMediaFiles(value, c.env.DELIVERY_BASE_URL);
  const signer = signerFor(c.env, c.config, site.id, c.request);
  // The allowlist as configured now, even for an entry cached under an older one.
  let body: MediaResponse = { ...value, custom_params: allowedCustomParams(value.custom_params, c.config.customParamsAllowlist) };
  if (bound) body = await withPlaybackUrls(c, site.id, body);
  else if (signer) body = await signMedia(signer, body, now);
  return { body, personal: bound || signer?.shortened === true };
}
