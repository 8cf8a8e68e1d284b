/**
 * `RenderSource` over the public resources themselves (worker/resources/): each read runs the very declaration the
 * element's request would, for the page's visitor (their address, DEV_MODE's stand-in, `request.cf`), up to its
 * presentation, so the same cache, budget and geo policies apply (a refused read renders nothing), and it is what the
 * API would answer, with the Cache-Control it would carry. The visitor's abuse limit counts the page's reads once.
 * Regions come from the policies that bind the media (geo `mediaPolicies`), with playlist membership as the cache
 * holds it: the feed or media answer just given read it.
 */
import { NO_VARIANT } from '../catalog/index.ts';
import type { FeedResponse, MediaResponse } from '../contract/public-api.ts';
import type { MemberFacts } from '../catalog/index.ts';
import { heldFacts, heldMembership, mediaPolicies, type Membership } from '../geo/index.ts';
import { enforceVisitorLimit } from '../http/abuse-limit.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { publicOrigin } from '../http/public-origin.ts';
import { intParam, requireId } from '../http/request-guard.ts';
import { cacheControlFor, feed, media, resolveInput, type Presented, type ResourceKind } from '../resources/index.ts';
import type { Answer, RenderSource } from './page.ts';
import { regionsOf, type Regions } from './regions.ts';

/** What a page knows of a site whose bound playlists are not held: nothing binds by playlist (its own policies do). */
const NO_MEMBERSHIP: Membership = Object.assign(() => [], { byRule: [] });

type Facts = MemberFacts & { id: string };

export function resourceSource(c: RequestContext): RenderSource {
  const page = c.request;
  let limited: Promise<void> | undefined;
  /** Every media the page's reads loaded, as the cache holds it (all its custom params): what its regions are judged on. */
  const seen = new Map<string, Facts>();
  const read = async <B>(kind: ResourceKind,
    run: () => Promise<{ presented: Presented<B>; loaded?: { value: unknown } | undefined }>): Promise<Answer<B> | null> => {
    try {
      await (limited ??= enforceVisitorLimit(page, c.env));
      const { presented, loaded } = await run();
      const value = loaded?.value as { items?: Facts[] } & Partial<Facts> | undefined;
      for (const item of value?.items ?? (value?.id ? [value as Facts] : [])) seen.set(item.id, item);
      return { body: presented.body, cacheControl: cacheControlFor(kind, c.config, presented.personal || presented.noStore === true) };
    } catch (error) {
      // Refused, missing, unavailable, over the visitor's limit: the element renders its fallback.
      if (!(error instanceof ApiError)) console.error('reelgate: render read failed', error instanceof Error ? error.name : typeof error);
      return null;
    }
  };
  const seg = encodeURIComponent;
  const memberships = new Map<string, ReturnType<typeof heldMembership>>();
  const regions = new Map<string, Regions>();
  return {
    // The ids and the page length come from the publisher's markup: checked as the API checks them (a 400 renders nothing).
    feed: (site, playlist, pageLength) => read<FeedResponse>('feed', () => resolveInput(feed, c, {
      site: c.site(site), playlistId: requireId(playlist, 'playlist'), page: 1,
      pageLength: intParam(String(pageLength), 'page_length', 0, 1, c.config.feed.maxPageLength), asked: NO_VARIANT,
    })),
    media: (site, id) => read<MediaResponse>('media', () => resolveInput(media, c, { site: c.site(site), mediaId: requireId(id, 'media') })),
    async regions(siteId, mediaId) {
      const site = c.config.sites.get(siteId);
      if (!site) return null;
      // Once per site and per set of policies for the whole page, not once per item.
      if (!memberships.has(siteId)) memberships.set(siteId, heldMembership(c, site));
      const membership = await memberships.get(siteId)!;
      const facts = seen.get(mediaId) ?? await heldFacts(c, siteId, mediaId) ?? 'unknown';
      const names = mediaPolicies(site, mediaId, membership ?? NO_MEMBERSHIP, facts);
      const key = names.join(' ');
      if (!regions.has(key)) regions.set(key, regionsOf(names.map((name) => c.config.policies.get(name)!)));
      return regions.get(key)!;
    },
    // Written into the page (links, JSON-LD): the public origin when one is configured, never what `Host` said.
    embedUrl: (site, id) => `${publicOrigin(page, c.config)}/embed/${seg(site)}/media/${seg(id)}`,
    page: new URL(page.url),
  };
}
