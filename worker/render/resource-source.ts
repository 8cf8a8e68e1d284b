/**
 * `RenderSource` over the worker's own public API: each read is the very request the element would make, answered by
 * the same router with the page visitor's headers and `request.cf`, so the same visitor limit, cache, budget and geo
 * policies apply (a refused answer renders nothing). Regions come from the policies that bind the media
 * (geo/enforce.ts `mediaPolicies`), with playlist membership as the cache holds it: the feed or media answer just
 * given read it.
 */
import type { FeedResponse, MediaResponse } from '../contract/public-api.ts';
import { mediaPolicies } from '../geo/enforce.ts';
import { heldMembership } from '../geo/membership.ts';
import { publicOrigin } from '../public-origin.ts';
import type { Visit } from '../visit.ts';
import type { Answer, RenderSource } from './page.ts';
import { regionsOf, type Regions } from './regions.ts';

export type ApiFetch = (request: Request) => Promise<Response>;

export function apiSource(visit: Visit, api: ApiFetch): RenderSource {
  const page = visit.request;
  const origin = new URL(page.url).origin;
  // The page's own request, re-aimed: its headers (the visitor's address, DEV_MODE's stand-in) and `cf` go along; its
  // validators and range do not (they are the page's, and a 304 would render nothing).
  const headers = new Headers(page.headers);
  for (const name of ['if-none-match', 'if-modified-since', 'if-range', 'range']) headers.delete(name);
  const read = async <T>(path: string): Promise<Answer<T> | null> => {
    const response = await api(new Request(`${origin}${path}`, { method: 'GET', headers, cf: page.cf }));
    if (response.status !== 200) {
      await response.body?.cancel();
      return null;
    }
    return { body: await response.json<T>(), cacheControl: response.headers.get('cache-control') };
  };
  const seg = encodeURIComponent;
  const memberships = new Map<string, ReturnType<typeof heldMembership>>();
  const regions = new Map<string, Regions>();
  return {
    feed: (site, playlist, pageLength) =>
      read<FeedResponse>(`/api/sites/${seg(site)}/playlists/${seg(playlist)}?page=1&page_length=${pageLength}`),
    media: (site, media) => read<MediaResponse>(`/api/sites/${seg(site)}/media/${seg(media)}`),
    async regions(siteId, media) {
      const site = visit.config.sites.get(siteId);
      if (!site) return null;
      // Once per site and per set of policies for the whole page, not once per item.
      if (!memberships.has(siteId)) memberships.set(siteId, heldMembership(visit, site));
      const membership = await memberships.get(siteId)!;
      const names = mediaPolicies(site, media, membership ?? (() => []));
      const key = names.join(' ');
      if (!regions.has(key)) regions.set(key, regionsOf(names.map((name) => visit.config.policies.get(name)!)));
      return regions.get(key)!;
    },
    // Written into the page (links, JSON-LD): the public origin when one is configured, never what `Host` said.
    embedUrl: (site, media) => `${publicOrigin(page, visit.config)}/embed/${seg(site)}/media/${seg(media)}`,
    page: new URL(page.url),
  };
}
