/**
 * What an embed shows, decided exactly as the public API decides it (README, "What binds a media"): a media answers
 * to `mediaPolicies(site, id, membership)`, a playlist to its site's and its own policy, and a refused caller gets 451
 * before anything of the content is read. Shared by the embed pages and `/oembed`, from the same cache entries as
 * `/api/sites/:site/media/:media` and `/api/sites/:site/playlists/:playlist`.
 */
import { cached } from '../cache/cached.ts';
import { cacheKeys } from '../cache/keys.ts';
import { baseFeed } from '../catalog/feed.ts';
import { loadMedia } from '../catalog/media.ts';
import { notFound } from '../errors.ts';
import { enforcePolicies, mediaPolicies, playlistPolicies, visibleItems } from '../geo/enforce.ts';
import { playlistMembership } from '../geo/membership.ts';
import { withPlaybackThumbnails, withPlaybackUrls } from '../playback/urls.ts';
import { isPublished } from '../projections.ts';
import type { MediaResponse } from '../contract/public-api.ts';
import { publicCaller, siteOf, type Visit } from '../visit.ts';
import type { EmbedTarget } from './targets.ts';

export interface Embeddable {
  title: string;
  /** Whether the answer depends on who asks (a policy applied): then nothing may store it for others. */
  personal: boolean;
  /**
   * A poster for oEmbed's `thumbnail_url`: the platform's URL for content under no policy, else the worker's own
   * playback URL (a path; bound to the caller's network and expiring like every playback URL). Null when none.
   */
  thumbnail: string | null;
}

export interface ResolveOptions {
  /** Whether a thumbnail is wanted (oEmbed): for a playlist it means deciding its items' policies. */
  thumbnail: boolean;
}

export async function resolveEmbed(visit: Visit, target: EmbedTarget, options: ResolveOptions): Promise<Embeddable> {
  return target.kind === 'media' ? resolveMedia(visit, target, options) : resolvePlaylist(visit, target, options);
}

async function resolveMedia(visit: Visit, target: EmbedTarget, options: ResolveOptions): Promise<Embeddable> {
  const { request, env, config } = visit;
  const site = siteOf(config, target.site);
  const who = await publicCaller(request, env);
  // Decided before the media is read, as the media route does: a refused caller learns nothing of it.
  const membership = await playlistMembership(visit, who, site);
  const personal = await enforcePolicies(visit, mediaPolicies(site, target.id, membership));
  const { value } = await cached<MediaResponse>({
    ...visit, kind: 'media', key: cacheKeys.media(site.id, target.id),
    load: (_previous, freshness) => loadMedia(env, { ...who, ...freshness }, site.id, target.id, config.customParamsAllowlist),
  });
  if (!isPublished(value, Date.now())) throw notFound();
  let thumbnail: string | null = null;
  if (options.thumbnail) {
    const shown = personal ? await withPlaybackUrls(visit, site.id, value) : value;
    thumbnail = shown.poster ?? shown.thumbnail;
  }
  return { title: value.title, personal, thumbnail };
}

async function resolvePlaylist(visit: Visit, target: EmbedTarget, options: ResolveOptions): Promise<Embeddable> {
  const { request, env, ctx, config } = visit;
  const site = siteOf(config, target.site);
  const gatedFeed = await enforcePolicies(visit, playlistPolicies(site, target.id));
  const who = await publicCaller(request, env);
  const { value } = await baseFeed({ env, config, ctx, who, site: site.id, playlistId: target.id });
  if (!options.thumbnail) return { title: value.playlist.title, personal: gatedFeed, thumbnail: null };
  // The shelf's first card as the caller would see it: published, and allowed by everything that binds it.
  const membership = await playlistMembership(visit, who, site);
  const now = Date.now();
  const published = value.items.filter((item) => isPublished(item, now));
  const { visible: [first], bound } = await visibleItems(visit, site, membership, published);
  const personal = gatedFeed || bound.size > 0;
  let thumbnail = first?.thumbnail ?? null;
  if (first && (gatedFeed || bound.has(first.id))) {
    thumbnail = (await withPlaybackThumbnails(visit, site.id, [first]))[0]!.thumbnail;
  }
  return { title: value.playlist.title, personal, thumbnail };
}
