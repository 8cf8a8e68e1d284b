// The platform's Delivery API v2 (the public, CDN-served API players read), as its published definition answers it:
// jwplayer/jwplatform-docs, docs/api-definitions/Delivery-API-v2.yaml, `GET /v2/media/{media_id}` and
// `GET /v2/playlists/{playlist_id}`. The definition gives the answers as examples (its schema is `type: object`);
// the fields below are the examples' (`mediaid`, `pubdate`, `tags`, `image`, `feedid`, `custom`, `sources`, `tracks`,
// `link`, `recommendations`, `duration`) with the ones today's answers add (`images`, a source's `label`, a track's
// `label` and `default`). test/platform/delivery-schema.json holds every answer the suites receive to this shape.

/** One file a player may play: the HLS manifest first (`/manifests/<id>.m3u8`), then MP4/M4A files. */
export interface DeliverySource {
  file: string;
  type: string;
  /** Pixels; absent for audio and (sometimes) the manifest. */
  width?: number;
  height?: number;
  /** e.g. "720p", "AAC Audio"; absent on the manifest. */
  label?: string;
  filesize?: number;
}

/**
 * A published text track, or the storyboard. The definition's example names the storyboard's kind `thumbnail`;
 * players and today's answers say `thumbnails`. Both are read as the storyboard.
 */
export interface DeliveryTrack {
  file: string;
  kind: 'captions' | 'subtitles' | 'chapters' | 'thumbnails' | 'thumbnail' | (string & {});
  label?: string;
  default?: boolean;
}

/** A poster at one width (`/v2/media/<id>/poster.jpg?width=<w>`). */
export interface DeliveryImage {
  src: string;
  width: number;
  type: string;
}

/** A media as delivery describes it: published, ready, and nothing a visitor may not see. */
export interface DeliveryItem {
  mediaid: string;
  title: string;
  description: string;
  /** Unix seconds: when the media was (or is) published. */
  pubdate: number;
  /** Comma-separated ("drama, thriller"); empty or absent for none. */
  tags?: string;
  /** The poster at the answer's `poster_width` (default 720). */
  image: string;
  images?: DeliveryImage[];
  /** Seconds; 0 for a live or unknown duration. */
  duration: number;
  /** The media's preview page. */
  link: string;
  /** The playlist the item came from (on a media answer, a feed of its own or absent). */
  feedid?: string;
  /** The media's custom parameters, every one of them (the worker keeps only the operator's allowlist). */
  custom: Record<string, string>;
  sources: DeliverySource[];
  tracks: DeliveryTrack[];
  /** A feed of media related to this one (protocol-relative in the definition's example). */
  recommendations?: string;
}

/** `GET /v2/media/{id}`: one item. `GET /v2/playlists/{id}`: the playlist's page of items, and where the next is. */
export interface DeliveryFeed {
  title?: string;
  description?: string;
  /** e.g. "Single Item" (a media), "MANUAL", "DYNAMIC", "TRENDING", "SIMILAR", "SEARCH" … (a playlist). */
  kind?: string;
  feedid?: string;
  playlist: DeliveryItem[];
  /** Paging of a playlist answer: absolute URLs of the first, previous, next and last pages. */
  links?: { first?: string; prev?: string; next?: string; last?: string };
}

/** The query a playlist answer takes (the definition's parameters; `page_offset` is 1-based, `page_limit` ≤ 100). */
export interface DeliveryPlaylistQuery {
  related_media_id?: string;
  search?: string;
  page_offset?: number;
  page_limit?: number;
  poster_width?: number;
}

/** The definition's `page_limit` maximum. */
export const DELIVERY_MAX_PAGE_LIMIT = 100;
/** The widths `poster_width` takes (the definition's enum); 720 when none is asked. */
export const DELIVERY_POSTER_WIDTHS = [40, 120, 320, 480, 720, 1280, 1920] as const;
export const DELIVERY_DEFAULT_POSTER_WIDTH = 720;
