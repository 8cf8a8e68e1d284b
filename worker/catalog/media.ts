/**
 * One media for a player: the media, then (only if it is public) its renditions and text tracks. Three calls that
 * only together make an answer, so they are reserved together before the first (budget/client.ts).
 */
import { callUpstream, withReservation, type CallerContext } from '../budget/index.ts';
import { cacheKeys } from './keys.ts';
import type { Env } from '../env.ts';
import { notFound } from '../http/errors.ts';
import { mediaResponse } from './projections.ts';
import { deliveryBase } from './posters.ts';
import type { MediaResponse } from '../contract/public-api.ts';
import type { Media, MediaRenditionList, TextTrackList } from '../contract/v2-types.ts';

/** Enough for every rendition and track of one media in a single page. */
const SUBLIST_PAGE_LENGTH = 100;
/** The media, its renditions, its text tracks. */
export const MEDIA_LOAD_CALLS = 3;

export async function loadMedia(env: Env, who: CallerContext, site: string, id: string): Promise<MediaResponse> {
  return withReservation(env, who, { key: cacheKeys.media(site, id), calls: MEDIA_LOAD_CALLS },
    (reserved) => resolveMedia(env, reserved, site, id));
}

async function resolveMedia(env: Env, who: CallerContext, site: string, id: string): Promise<MediaResponse> {
  const media = await callUpstream<Media>(env, who, { api: 'v2', op: 'getMedia', site, id });
  // Not ready, or never published: answer (and cache) "not found" without spending two more calls (they go back to
  // the budget with the rest of the reservation). A media whose window merely starts later is cached whole, and the
  // window is checked when answering.
  const end = media.metadata.publish_end_date ? Date.parse(media.metadata.publish_end_date) : null;
  if (media.status !== 'ready' || !media.metadata.publish_start_date || (end !== null && end <= Date.now())) {
    throw notFound();
  }
  const params = { page: 1, page_length: SUBLIST_PAGE_LENGTH };
  const [renditions, tracks] = await Promise.all([
    callUpstream<MediaRenditionList>(env, who, { api: 'v2', op: 'listMediaRenditions', site, id, params }),
    callUpstream<TextTrackList>(env, who, { api: 'v2', op: 'listTextTracks', site, id, params }),
  ]);
  return mediaResponse(site, media, renditions.media_renditions, tracks.text_tracks,
    { delivery: deliveryBase(env.DELIVERY_BASE_URL) });
}
