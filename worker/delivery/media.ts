/**
 * One media for a player, as the platform's own player gets it: from the Delivery API's `GET /v2/media/<id>` (its
 * HLS manifest and files, its published text tracks, its posters and storyboard, its title, tags and custom params),
 * which costs nothing of the Management API's 60 a minute.
 *
 * The Management API is asked what delivery does not say, in one call, `GET sites/<site>/media/<id>/text_tracks/`:
 * - **whose the media is.** Delivery serves any property's public media by id alone and names no property, so a
 *   media of another site asked for under this one would be answered under this site's policies (none, perhaps)
 *   instead of its own. The site-scoped list answers 404 for a media that is not the site's, and so does the worker.
 * - **its text tracks' languages** (`srclang`): delivery names a track's file, kind and label only.
 * A media delivery does not know (unknown, unpublished) costs no Management call at all. Everything a policy judges
 * (tags and custom params, for membership by rule) is in the delivery answer.
 *
 * Delivery answers only what is published now, so a media out of its window, unready or unknown is "not found"; the
 * window's end is not stated (`publish_end_date` is null): the cache window bounds how long a media that stops being
 * published can still be answered, as it bounds any other change.
 */
import { callUpstream, withReservation, type CallerContext } from '../budget/index.ts';
import {
  cacheKeys, deliveryBase, dimension, isHlsType, isPlayableType, renditionLabel, sourceTypeOf, STORYBOARD_LABEL,
} from '../catalog/index.ts';
import type { Config } from '../config.ts';
import type { DeliveryFeed, DeliveryItem, DeliverySource, DeliveryTrack } from '../contract/delivery-types.ts';
import { httpUrl } from '../contract/links.ts';
import type { FeedItem, MediaResponse, MediaSource, MediaTrack } from '../contract/public-api.ts';
import type { TextTrack, TextTrackList } from '../contract/v2-types.ts';
import type { Env } from '../env.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { unsigned } from '../signing/index.ts';
import { tagsOf } from './answers.ts';
import { fetchDelivery, reportRefusal } from './client.ts';

/** The Management calls a media answer makes: its text tracks, which say the media is the site's and their languages. */
export const MEDIA_MANAGEMENT_CALLS = 1;
/** Enough for every text track of one media in a single page. */
const TRACK_PAGE_LENGTH = 100;

const TEXT_KINDS: ReadonlySet<string> = new Set(['captions', 'subtitles', 'chapters', 'descriptions', 'metadata']);
const MENU_KINDS: ReadonlySet<string> = new Set(['captions', 'subtitles']);
const STORYBOARD_KINDS: ReadonlySet<string> = new Set(['thumbnails', 'thumbnail']);

export async function loadMedia(env: Env, config: Config, who: CallerContext, site: string, id: string): Promise<MediaResponse> {
  // The Management call is reserved before the delivery call is made: a miss the budget refuses now (429) has spent
  // nothing of either, and one delivery does not know gives its token back unspent.
  return withReservation(env, who, { key: cacheKeys.media(site, id), calls: MEDIA_MANAGEMENT_CALLS }, async (reserved) => {
    let feed: DeliveryFeed;
    try {
      feed = await fetchDelivery(env, config, { kind: 'media', site, id }, { acceptRecent: who.acceptRecent ?? false });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'delivery_refused') {
        // A signing site's token opens its own property's media only, so a refusal may be another property's media:
        // not found, if the site does not have it; the site's own refused is the operator's signing configuration.
        await trackLanguages(env, reserved, site, id);
        reportRefusal(config, site, `media ${site}/${id}`);
      }
      throw error;
    }
    const found = feed.playlist.find((entry) => entry.mediaid === id);
    if (!found) throw notFound('No such media, or it is not published.');
    const delivery = deliveryBase(env.DELIVERY_BASE_URL);
    const item = unsignedItem(found, delivery);
    // 404 when the media is another site's (or gone since): not found here either.
    const languages = await trackLanguages(env, reserved, site, id);
    return mediaFromDelivery(site, item, languages, delivery);
  });
}

/**
 * The Management API's text tracks of the media in this site, by id: their language. One call, on the load's
 * reservation; `not_found` when the media is not the site's.
 */
async function trackLanguages(env: Env, reserved: CallerContext, site: string, id: string): Promise<Map<string, string>> {
  const list = await callUpstream<TextTrackList>(env, reserved, {
    api: 'v2', op: 'listTextTracks', site, id, params: { page: 1, page_length: TRACK_PAGE_LENGTH },
  });
  const languages = new Map<string, string>();
  for (const track of list.text_tracks as TextTrack[]) {
    if (typeof track.id === 'string' && typeof track.metadata?.srclang === 'string') languages.set(track.id, track.metadata.srclang);
  }
  return languages;
}

/**
 * The item with the signatures of a signed answer taken off its delivery-host URLs: what is cached is the same for
 * every caller and outlives any signature; each answer signs its URLs afresh (or makes them playback URLs).
 */
export function unsignedItem(item: DeliveryItem, delivery: string | null): DeliveryItem {
  if (delivery === null) return item;
  const strip = (text: string): string => {
    if (!text.startsWith(`${delivery}/`) || !/[?&](?:exp|sig|token)=/.test(text)) return text;
    try {
      return unsigned(new URL(text)).href;
    } catch {
      return text;
    }
  };
  return {
    ...item,
    image: strip(item.image),
    ...(item.images ? { images: item.images.map((image) => ({ ...image, src: strip(image.src) })) } : {}),
    sources: item.sources.map((source) => ({ ...source, file: strip(source.file) })),
    tracks: item.tracks.map((track) => ({ ...track, file: strip(track.file) })),
  };
}

/** The text track a delivery file names (`/tracks/<id>.vtt`, `.srt`…), or null. */
function trackIdOf(file: string): string | null {
  try {
    return /\/tracks\/([A-Za-z0-9]+)\.[a-z0-9]+$/.exec(new URL(file).pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** A delivery source as a player source: its stated type when it is one a player is handed, else its URL's. */
function source(raw: DeliverySource): MediaSource | null {
  const url = httpUrl(raw.file);
  if (url === null) return null;
  const stated = raw.type.trim().toLowerCase();
  const type = isPlayableType(stated) ? stated : sourceTypeOf({ delivery_url: url, width: raw.width, height: raw.height });
  if (type === null) return null;
  const width = dimension(raw.width);
  const height = dimension(raw.height);
  return {
    url, type, width, height,
    filesize: typeof raw.filesize === 'number' && raw.filesize >= 0 ? raw.filesize : 0,
    label: renditionLabel(type, width, height),
  };
}

const adaptive = (s: MediaSource) => isHlsType(s.type) || s.type === 'application/dash+xml';

/** The text tracks in delivery's order (the platform's menu), one captions or subtitles track `default`. */
function textTracksOf(tracks: readonly DeliveryTrack[], languages: ReadonlyMap<string, string>): MediaTrack[] {
  const usable = tracks.filter((t) => TEXT_KINDS.has(t.kind) && httpUrl(t.file) !== null);
  // Delivery flags the default track; without a flag the first of the captions menu is the one shown first.
  const flagged = usable.find((t) => t.default === true && MENU_KINDS.has(t.kind));
  const first = flagged ?? usable.find((t) => MENU_KINDS.has(t.kind));
  return usable.map((t) => ({
    url: httpUrl(t.file)!,
    kind: t.kind as MediaTrack['kind'],
    label: t.label ?? '',
    srclang: languages.get(trackIdOf(t.file) ?? '') ?? '',
    default: t === first,
  }));
}

/** The item's playable sources: the adaptive manifest first (a player that can use it should), then files widest first, audio last. */
function sourcesOf(item: DeliveryItem): MediaSource[] {
  const playable = item.sources.map(source).filter((s): s is MediaSource => s !== null);
  return [...playable.filter(adaptive), ...playable.filter((s) => !adaptive(s))
    .sort((a, b) => (b.width ?? -1) - (a.width ?? -1) || b.filesize - a.filesize)];
}

const isVideo = (sources: readonly MediaSource[]) => sources.some((s) => adaptive(s) || s.type.startsWith('video/'));

/** A delivery item as a shelf shows it (a feed's item, and the fields a media answer shares with one); every custom param kept. */
export function feedItemFromDelivery(item: DeliveryItem, delivery: string | null, sources = sourcesOf(item)): FeedItem {
  const sizes = (item.images ?? [])
    .map((image) => ({ url: httpUrl(image.src), width: dimension(image.width) }))
    .filter((image): image is { url: string; width: number } => image.url !== null && image.width !== null)
    .sort((a, b) => a.width - b.width);
  const poster = httpUrl(item.image) ?? sizes.at(-1)?.url ?? null;
  return {
    id: item.mediaid,
    title: item.title,
    description: item.description === '' ? null : item.description,
    duration: item.duration > 0 ? item.duration : null,
    tags: tagsOf(item),
    // Whole seconds, as the Management API writes its dates.
    publish_start_date: new Date(item.pubdate * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    publish_end_date: null,
    thumbnail: poster,
    thumbnails: sizes,
    permalink: permalinkOf(item.link, delivery),
    media_type: isVideo(sources) ? 'video' : sources.some((s) => s.type.startsWith('audio/')) ? 'audio' : 'unknown',
    custom_params: { ...item.custom },
  };
}

/** The public media answer from a delivery item (and its tracks' languages); the cache keeps every custom param. */
export function mediaFromDelivery(site: string, item: DeliveryItem, languages: ReadonlyMap<string, string>,
  delivery: string | null): MediaResponse {
  const sources = sourcesOf(item);
  const fields = feedItemFromDelivery(item, delivery, sources);
  const storyboard = item.tracks.find((t) => STORYBOARD_KINDS.has(t.kind) && httpUrl(t.file) !== null);
  const tracks = textTracksOf(item.tracks, languages);
  // A storyboard previews a video that can be played; an audio media, or one with nothing to play, has none.
  if (storyboard && isVideo(sources)) {
    tracks.push({ url: httpUrl(storyboard.file)!, kind: 'thumbnails', label: STORYBOARD_LABEL, srclang: '', default: false });
  }
  return { ...fields, site, poster: fields.thumbnail, sources, tracks };
}

/** The media's link, unless it is the delivery host's own preview page (what delivery answers when none is set). */
function permalinkOf(link: string, delivery: string | null): string | null {
  const url = httpUrl(link);
  if (url === null) return null;
  if (delivery !== null && url.startsWith(`${delivery}/previews/`)) return null;
  return url;
}
