/**
 * GET /api/sites/:site/playlists/:playlist — a widget feed, paged, publish window and geo rules applied.
 *
 * A variant (`related_media_id`/`seed` for a recommendations playlist, `search` for a search one, `search` or `tags`
 * for an article-matching one) is its own cache entry: the `load` hook below. The playlist's type decides whether a
 * variant is taken at all: it comes from the playlist's head, cached beside its feed, so refusing a variant costs no
 * upstream call once the head is held, and loading one costs Delivery API calls only (delivery/feed.ts). A variant not
 * cached yet must be admitted by the budget (`feed.max_variants` per playlist per `feed.variant_window_seconds`, for
 * all isolates); one that is not, or that finds no upstream slot or delivery turn, is answered with the playlist's own
 * feed, marked `x-reelgate-variant: default` and never stored by browsers, so a flood of new values costs nothing
 * upstream and a real visitor still sees a feed. The paging hook is `present`.
 */
import { admitVariant } from '../budget/index.ts';
import { heldAnswer, holdAnswer, cached, type CachedValue } from '../cache/index.ts';
import {
  allowedCustomParams, cacheKeys, checkVariant, isPublished, isVariant, loadPlaylistHead, variantKey,
  type FeedVariant, type PlaylistHead,
} from '../catalog/index.ts';
import { baseFeed, feedOf, type FeedSnapshot } from '../delivery/index.ts';
import type { SiteConfig } from '../config.ts';
import type { FeedItem, FeedResponse } from '../contract/public-api.ts';
import {
  enforcePolicies, mediaPolicies, membershipFor, playlistPolicies, unbound, visibleItems,
} from '../geo/index.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError, invalidRequest, rateLimited } from '../http/errors.ts';
import { intParam, readQuery, requireId, searchParam, tagsParam } from '../http/request-guard.ts';
import { renderJson } from '../http/respond.ts';
import { publicCaller } from '../budget/index.ts';
import { withPlaybackThumbnails } from '../playback/index.ts';
import { signerFor, signFeedItem } from '../signing/index.ts';
import type { Presented, ResourceDeclaration } from './pipeline.ts';

const MAX_PAGE = 1000;
/** Marks an answer that is the playlist's own feed standing in for a variant that could not be loaded now. */
export const VARIANT_HEADER = 'x-reelgate-variant';

export interface FeedInput {
  site: SiteConfig;
  playlistId: string;
  page: number;
  pageLength: number;
  /** What the caller varied (none: the playlist's own feed). */
  asked: FeedVariant;
}

export const feed: ResourceDeclaration<FeedInput, FeedSnapshot, FeedResponse> = {
  kind: 'feed',
  input(c) {
    const { config } = c;
    const site = c.site(c.params.site);
    const playlistId = requireId(c.params.playlist, 'playlist');
    const query = readQuery(c.request, ['page', 'page_length', 'related_media_id', 'seed', 'tags', 'search'] as const);
    const page = intParam(query.page, 'page', 1, 1, MAX_PAGE);
    const pageLength = intParam(query.page_length, 'page_length', config.feed.defaultPageLength, 1, config.feed.maxPageLength);
    if (query.related_media_id !== undefined && query.seed !== undefined) {
      throw invalidRequest('Give "related_media_id" or its older name "seed", not both.');
    }
    const related = query.related_media_id ?? query.seed;
    const seed = related === undefined ? null : requireId(related, 'related media');
    return { site, playlistId, page, pageLength, asked: { seed, tags: tagsParam(query.tags), search: searchParam(query.search) } };
  },
  policies: (_c, { site, playlistId }) => playlistPolicies(site, playlistId),
  // A seed the caller may not see is refused as the media itself would be: its related items would describe it.
  beforeLoad(c, { site, asked }) {
    const seed = asked.seed;
    if (seed === null) return undefined;
    // By id now; by the rules of bound filtered playlists once the related media is read (presentPage).
    return membershipFor(c, site).then((membership) => enforcePolicies(c, mediaPolicies(site, seed, membership))).then(() => undefined);
  },
  async load(c, { site, playlistId, asked }) {
    const who = await publicCaller(c);
    if (!isVariant(asked)) return baseFeed(c, who, site.id, playlistId);
    const variant = await variantFeed(c, site.id, playlistId, asked);
    return variant ?? { ...await baseFeed(c, who, site.id, playlistId), standIn: true };
  },
  present: (c, input, loaded, bound) => presentPage(c, input, loaded!, bound),
};

/** A variant's feed, or null when it cannot be loaded now (the playlist's variant cap, or no upstream slot). */
async function variantFeed(c: RequestContext, site: string, playlistId: string, variant: FeedVariant):
  Promise<CachedValue<FeedSnapshot> | null> {
  const { env, config } = c;
  const who = await publicCaller(c);
  const head = await cached<PlaylistHead>(c, {
    kind: 'feed', key: cacheKeys.feedHead(site, playlistId),
    load: (previous, freshness) => loadPlaylistHead({ env, who: { ...who, ...freshness }, site, playlistId, knownType: previous?.type }),
  });
  checkVariant(head.value.type, variant);
  const key = variantKey(variant);
  try {
    return await cached<FeedSnapshot>(c, {
      kind: 'feed', key: cacheKeys.feedVariant(site, playlistId, variant),
      load: async (_previous, freshness) => {
        // Only loads ask: a cached variant is answered without counting (a refused refresh leaves it served stale).
        const admission = await admitVariant(env, `${site}:${playlistId}`, key);
        if (!admission.ok) throw rateLimited(admission.retryAfterSeconds, 'This playlist has too many new variants; retry later.');
        return feedOf({ env, config, who: { ...who, ...freshness }, site, playlistId, variant,
          maxItems: config.feed.maxItems }, head.value);
      },
    });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 429 || error.code === 'delivery_busy')) return null;
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

/**
 * The page as this caller may see it. Nothing of an unbound site answers to a policy, so its feed is the same for
 * every caller: a function of the cache entry, the page, the configuration and the clock (publish windows). It is
 * rendered once and sent again while those hold (cache/rendered.ts), instead of filtered, serialised and hashed on
 * every HIT.
 */
async function presentPage(c: RequestContext, input: FeedInput, loaded: CachedValue<FeedSnapshot> & { standIn?: boolean },
  gatedFeed: boolean): Promise<Presented<FeedResponse>> {
  const { site, playlistId, page, pageLength, asked } = input;
  const { value, etag } = loaded;
  const standIn = loaded.standIn === true;
  const headers = standIn ? { [VARIANT_HEADER]: 'default' } : undefined;
  const now = Date.now();
  const signer = signerFor(c.env, c.config, site.id, c.request);
  const shared = unbound(site) && typeof etag === 'string' && etag !== '' && signer?.shortened !== true;
  const answerKey = cacheKeys.renderedFeed(site.id, playlistId, isVariant(asked) && !standIn ? asked : null, page, pageLength);
  const held = shared ? heldAnswer<FeedResponse>(answerKey, etag, c.config, now) : undefined;
  if (held) return { body: held.body, rendered: held.rendered, personal: false, ...(headers ? { headers } : {}) };

  // Read after the feed itself, which it reads again when this playlist is bound: the answer's state is the feed's.
  // (A held answer is of an unbound site, which no membership can bind: it needs none.)
  const membership = await membershipFor(c, site);
  // The related media, read by the variant's load: judged by the rules of bound filtered playlists too.
  const related = asked.seed !== null && !standIn ? value.related : undefined;
  if (related) await enforcePolicies(c, mediaPolicies(site, related.id, membership, related));

  const published = value.items.filter((item) => isPublished(item, now));
  // Items the caller may not see leave the feed (judged on all they are: a bound playlist's rule may name a custom
  // param the allowlist does not show), and an answer that depends on who asks is never shared.
  const { visible: items, bound: gatedIds } = await visibleItems(c, site, membership, published);
  const personal = gatedFeed || gatedIds.size > 0 || signer?.shortened === true;
  const start = (page - 1) * pageLength;
  let pageItems = items.slice(start, start + pageLength);
  // An item under a policy is named by no platform URL: its poster is the worker's own playback URL (Geo-bound
  // playback). Items under no policy keep the platform's, signed when the site signs them.
  const gated = gatedFeed ? pageItems : pageItems.filter((item) => gatedIds.has(item.id));
  const played = gated.length ? new Map((await withPlaybackThumbnails(c, site.id, gated)).map((item) => [item.id, item])) : null;
  if (played || signer) {
    pageItems = await Promise.all(pageItems.map((item) => played?.get(item.id) ?? (signer ? signFeedItem(signer, item, now) : item)));
  }
  // The allowlist as configured now, even for entries cached under an older one.
  const allowlist = c.config.customParamsAllowlist;
  pageItems = pageItems.map((item) => ({ ...item, custom_params: allowedCustomParams(item.custom_params, allowlist) }));
  const body: FeedResponse = {
    site: site.id,
    playlist: value.playlist,
    items: pageItems,
    page,
    page_length: pageLength,
    total: items.length,
    next_page: start + pageLength < items.length ? page + 1 : null,
  };
  const rendered = await renderJson(body);
  // Held until its next publish change, and, when its URLs are signed, until their window turns.
  const until = Math.min(nextPublishChange(value.items, now), signer ? signer.windowEndMs(now) : Infinity);
  if (shared && !personal) holdAnswer(answerKey, etag, c.config, until, { rendered, body });
  return { body, rendered, personal, ...(headers ? { headers } : {}) };
}
