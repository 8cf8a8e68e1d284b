/**
 * GET /api/sites/:site/playlists/:playlist — a widget feed, paged, publish window and geo rules applied.
 *
 * A variant (`seed` for a recommendations playlist, `tags` for an article-matching one) is its own cache entry. The
 * playlist's type decides whether a variant is taken at all: it comes from the playlist's head, cached beside its feed,
 * so refusing a variant costs no upstream call once the head is held. A variant not cached yet must be admitted by the
 * budget object (`feed.max_variants` per playlist per `feed.variant_window_seconds`, for all isolates); one that is
 * not, or that finds no upstream slot, is answered with the playlist's own feed, marked `x-reelgate-variant: default`
 * and never stored by browsers, so a flood of new values costs nothing upstream and a real visitor still sees a feed.
 */
import { budgetStub } from '../budget/upstream.ts';
import { cached, type CachedValue } from '../cache/cached.ts';
import { cacheKeys, variantKey } from '../cache/keys.ts';
import { heldAnswer, holdAnswer } from '../cache/rendered.ts';
import {
  baseFeed, feedOf, loadPlaylistHead, type FeedLookup, type FeedSnapshot, type PlaylistHead,
} from '../catalog/feed.ts';
import { checkVariant, isVariant, type FeedVariant } from '../catalog/feed-variant.ts';
import type { SiteConfig } from '../config.ts';
import { ApiError, invalidRequest, rateLimited } from '../errors.ts';
import { enforcePolicies, mediaPolicies, playlistPolicies, unbound, visibleItems } from '../geo/enforce.ts';
import { playlistMembership, type Membership } from '../geo/membership.ts';
import { allowedCustomParams, isPublished } from '../projections.ts';
import type { FeedItem, FeedResponse } from '../contract/public-api.ts';
import { intParam, readQuery, requireId, searchParam, tagsParam } from '../request-guard.ts';
import { withPlaybackThumbnails } from '../playback/urls.ts';
import { PRIVATE_NO_STORE, publicCacheControl, renderJson, renderedResponse, type RenderedJson } from '../respond.ts';
import { ServerTiming } from '../server-timing.ts';
import { publicCaller, siteOf, type Visit } from '../visit.ts';
import type { Handler } from './context.ts';

const MAX_PAGE = 1000;
/** Marks an answer that is the playlist's own feed standing in for a variant that could not be loaded now. */
export const VARIANT_HEADER = 'x-reelgate-variant';

/** A variant's feed, or null when it cannot be loaded now (the playlist's variant cap, or no upstream slot). */
async function variantFeed(lookup: FeedLookup, variant: FeedVariant): Promise<CachedValue<FeedSnapshot> | null> {
  const { env, config, ctx, timing, who, site, playlistId } = lookup;
  const head = await cached<PlaylistHead>({
    env, config, ctx, timing, kind: 'feed', key: cacheKeys.feedHead(site, playlistId),
    load: (previous, freshness) => loadPlaylistHead({ env, who: { ...who, ...freshness }, site, playlistId, knownType: previous?.type }),
  });
  checkVariant(head.value.type, variant);
  const key = variantKey(variant);
  try {
    return await cached<FeedSnapshot>({
      env, config, ctx, timing, kind: 'feed', key: cacheKeys.feedVariant(site, playlistId, variant),
      load: async (_previous, freshness) => {
        // Only loads ask: a cached variant is answered without counting (a refused refresh leaves it served stale).
        const admission = await budgetStub(env).admitVariant(`${site}:${playlistId}`, key);
        if (!admission.ok) throw rateLimited(admission.retryAfterSeconds, 'This playlist has too many new variants; retry later.');
        return feedOf({ env, who: { ...who, ...freshness }, site, playlistId, variant,
          maxItems: config.feed.maxItems, allowlist: config.customParamsAllowlist }, head.value);
      },
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return null;
    throw error;
  }
}

/** When the published subset of `items` next changes by itself: the next publish window to open or close. */
function nextPublishChange(items: readonly FeedItem[], now: number): number {
  let next = Infinity;
  for (const item of items) {
    for (const date of [item.publish_start_date, item.publish_end_date]) {
      const at = date ? Date.parse(date) : NaN;
      if (Number.isFinite(at) && at > now && at < next) next = at;
    }
  }
  return next;
}

/** What a feed request is answered from, once its entry and the playlists' membership are in hand. */
interface FeedAnswerInput {
  visit: Visit;
  site: SiteConfig;
  value: FeedSnapshot;
  membership: Membership;
  /** Whether a policy bound the whole feed (the site's or the playlist's). */
  gatedFeed: boolean;
  page: number;
  pageLength: number;
  allowlist: readonly string[];
  now: number;
}

/** The page as this caller may see it, and whether it depends on who asks. */
async function feedAnswer({ visit, site, value, membership, gatedFeed, page, pageLength, allowlist, now }:
FeedAnswerInput): Promise<{ body: FeedResponse; personal: boolean }> {
  // The allowlist as configured now, even for entries cached under an older one.
  const published = value.items.filter((item) => isPublished(item, now))
    .map((item) => ({ ...item, custom_params: allowedCustomParams(item.custom_params, allowlist) }));
  // Items the caller may not see leave the feed, and an answer that depends on who asks is never shared.
  const { visible: items, bound: gatedIds } = await visibleItems(visit, site, membership, published);
  const personal = gatedFeed || gatedIds.size > 0;
  const start = (page - 1) * pageLength;
  let pageItems = items.slice(start, start + pageLength);
  // An item under a policy is named by no platform URL: its poster is the worker's own playback URL (Geo-bound
  // playback). Items under no policy keep the platform's.
  const gated = gatedFeed ? pageItems : pageItems.filter((item) => gatedIds.has(item.id));
  if (gated.length) {
    const signed = new Map((await withPlaybackThumbnails(visit, site.id, gated)).map((item) => [item.id, item]));
    pageItems = pageItems.map((item) => signed.get(item.id) ?? item);
  }
  const body: FeedResponse = {
    site: site.id,
    playlist: value.playlist,
    items: pageItems,
    page,
    page_length: pageLength,
    total: items.length,
    next_page: start + pageLength < items.length ? page + 1 : null,
  };
  return { body, personal };
}

export const feedRoute: Handler = async (request, env, ctx) => {
  const { config } = request;
  const site = siteOf(config, request.params.site);
  const playlistId = requireId(request.params.playlist, 'playlist');
  const query = readQuery(request, ['page', 'page_length', 'related_media_id', 'seed', 'tags', 'search'] as const);
  const page = intParam(query.page, 'page', 1, 1, MAX_PAGE);
  const pageLength = intParam(query.page_length, 'page_length', config.feed.defaultPageLength, 1, config.feed.maxPageLength);
  if (query.related_media_id !== undefined && query.seed !== undefined) {
    throw invalidRequest('Give "related_media_id" or its older name "seed", not both.');
  }
  const related = query.related_media_id ?? query.seed;
  const seed = related === undefined ? null : requireId(related, 'related media');
  const tags = tagsParam(query.tags);
  const search = searchParam(query.search);
  const asked: FeedVariant = { seed, tags, search };
  const timing = new ServerTiming();
  const visit: Visit = { request, env, ctx, config, timing };

  const gatedFeed = await enforcePolicies(visit, playlistPolicies(site, playlistId));
  const who = await publicCaller(request, env);
  let membership: Membership | undefined;
  // A seed the caller may not see is refused as the media itself would be: its related items would describe it.
  if (seed !== null) {
    membership = await playlistMembership(visit, who, site);
    await enforcePolicies(visit, mediaPolicies(site, seed, membership));
  }
  const lookup: FeedLookup = { env, config, ctx, timing, who, site: site.id, playlistId };
  const variant = isVariant(asked) ? await variantFeed(lookup, asked) : null;
  const standIn = isVariant(asked) && variant === null;
  // The feed itself before membership, which reads the same entry when this playlist is bound: its state is this one's.
  const { value, state, storedAt, etag } = variant ?? await baseFeed(lookup);
  membership ??= await playlistMembership(visit, who, site);

  const now = Date.now();
  // Nothing of an unbound site answers to a policy, so its feed is the same for every caller: a function of the cache
  // entry, the page, the configuration and the clock (publish windows). It is rendered once and sent again while
  // those hold (cache/rendered.ts), instead of filtered, serialised and hashed on every HIT.
  const shared = unbound(site) && typeof etag === 'string' && etag !== '';
  const answerKey = cacheKeys.renderedFeed(site.id, playlistId, variant ? asked : null, page, pageLength);
  let rendered: RenderedJson | undefined = shared ? heldAnswer(answerKey, etag, config, now) : undefined;
  let personal = false;
  if (!rendered) {
    const built = await feedAnswer({ visit, site, value, membership, gatedFeed, page, pageLength,
      allowlist: config.customParamsAllowlist, now });
    personal = built.personal;
    rendered = await renderJson(built.body);
    if (shared && !personal) holdAnswer(answerKey, etag, config, nextPublishChange(value.items, now), rendered);
  }

  timing.note('cache', state);
  const response = renderedResponse(request, rendered, {
    cacheState: state,
    storedAt,
    timing,
    // A stand-in must not be kept under the variant's URL: the next request may get the variant itself.
    cacheControl: personal || standIn ? PRIVATE_NO_STORE : publicCacheControl(Math.min(60, config.cache.feed.freshSeconds)),
  });
  if (standIn) response.headers.set(VARIANT_HEADER, 'default');
  return response;
};
