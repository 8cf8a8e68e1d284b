/**
 * The worker's public API: the JSON the widgets (and any page) receive. These are projections of the upstream
 * resources, never the upstream bodies: nothing here may carry upload details, source/download URLs, error messages
 * or custom params outside the operator's allowlist. `components/` imports these types (type-only) so the two sides
 * cannot drift.
 */
import type { PlaylistType } from './v2-types.ts';
import type { ProxyIdentification, ProxyType } from './geo-types.ts';

/** A card in a feed. */
export interface FeedItem {
  id: string;
  title: string;
  description: string | null;
  /** Seconds, or null when unknown. */
  duration: number | null;
  tags: string[];
  publish_start_date: string | null;
  publish_end_date: string | null;
  /** Poster image URL (an image the page may load), or null. */
  thumbnail: string | null;
  /** Poster URLs by width, smallest first, for `srcset`. */
  thumbnails: Array<{ url: string; width: number }>;
  permalink: string | null;
  media_type: 'video' | 'audio' | 'unknown';
  /** Only custom params on the operator's allowlist. */
  custom_params: Record<string, string>;
}

/** GET /api/sites/:site/playlists/:playlist */
export interface FeedResponse {
  site: string;
  playlist: {
    id: string;
    type: PlaylistType;
    title: string;
    description: string | null;
    author: string | null;
    link: string | null;
  };
  items: FeedItem[];
  page: number;
  page_length: number;
  /** Items in the whole feed after publish-window filtering. */
  total: number;
  /** The next page number, or null on the last page. */
  next_page: number | null;
}

export interface MediaSource {
  url: string;
  /** MIME type, e.g. `video/mp4`. */
  type: string;
  width: number | null;
  height: number | null;
  /** Bytes. */
  filesize: number;
  label: string;
}
/**
 * A text track of a media. `captions`, `subtitles`, `chapters`, `descriptions` and `metadata` are the media's own text
 * tracks, in the platform's menu order, with at most one captions or subtitles track `default`.
 *
 * `thumbnails` is the platform's preview-thumbnail storyboard (`<delivery>/strips/<media_id>-120.vtt`): a WebVTT file
 * whose cues each name a sprite image and the frame in it (`<media_id>-120.jpg#xywh=x,y,w,h`, relative to the VTT),
 * for a seek bar's previews. It is not a text track a `<track>` element can show (HTML has no such kind): a player
 * fetches and reads it itself. Listed last, once, for a video media with playable sources when the worker knows the
 * delivery host; its `label` is `Thumbnails`, `srclang` empty and `default` false. Under a policy, its URL and each
 * image its cues name are playback URLs (the VTT is rewritten as it is served).
 */
export interface MediaTrack {
  url: string;
  kind: 'captions' | 'subtitles' | 'chapters' | 'descriptions' | 'metadata' | 'thumbnails';
  label: string;
  srclang: string;
  default: boolean;
}

/** GET /api/sites/:site/media/:media */
export interface MediaResponse extends FeedItem {
  site: string;
  poster: string | null;
  /** Playable renditions, widest first. */
  sources: MediaSource[];
  /** The media's text tracks, then (video only) its `thumbnails` storyboard: see `MediaTrack`. */
  tracks: MediaTrack[];
}

/** GET /api/sites/:site/players/:player */
export interface PlayerResponse {
  id: string;
  name: string;
  release_channel: string;
  setup_config: Record<string, unknown>;
}

export type GeoSource = 'geo-api' | 'cf' | 'none';

/** GET /api/geo */
export interface GeoResponse {
  country: string | null;
  continent: string | null;
  region: string | null;
  city: string | null;
  timezone: string | null;
  proxy: { identification: ProxyIdentification | null; type: ProxyType | null };
  source: GeoSource;
}

export type GateReason =
  | 'allowed'
  | 'country_denied'
  | 'country_not_allowed'
  | 'continent_denied'
  | 'continent_not_allowed'
  | 'proxy_denied'
  | 'location_unknown';

/** GET /api/gate/:policy */
export interface GateResponse {
  policy: string;
  allowed: boolean;
  reason: GateReason;
  /**
   * Whether the decision had every fact the policy asks about. False when the location or (for a policy with proxy
   * rules) the proxy class could not be had, so the policy's `unknown` rule decided.
   */
  complete: boolean;
  country: string | null;
  proxy: { identification: ProxyIdentification | null; type: ProxyType | null };
}

/** Every error, from every route: the v2 error body. */
export interface ErrorResponse {
  errors: Array<{ code: string; description: string }>;
}
