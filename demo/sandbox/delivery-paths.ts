// The delivery host's layout, as the platform's CDN names its files (see README.md, "Delivery layout"). Stored
// resources keep these paths; answers give them the caller's origin (present.ts). Pure: the seed (and the test
// configuration's copy of it, test/worker/seed-ids.mjs) builds its URLs with these.
//
//   /videos/<media_id>-<rendition_id>.mp4          an MP4 rendition (.m4a for an audio one)
//   /manifests/<media_id>.m3u8                     the HLS master; its folder, relative to it:
//   /manifests/<media_id>/<variant>/index.m3u8       a variant's VOD playlist (variant: 360p, 720p)
//   /manifests/<media_id>/<variant>/seg-<n>.ts       its MPEG-TS segments
//   /manifests/<media_id>/subs/<track_id>.m3u8       a subtitles rendition, and its WebVTT (.vtt)
//   /tracks/<track_id>.vtt                         a text track
//   /strips/<media_id>-120.vtt                     the storyboard, and its sprite sheet (-120.svg)
//   /v2/media/<media_id>/poster.jpg                the poster (Delivery API v2, ?width=)
//   /v2/media/<media_id>/thumbnails/<id>.jpg       a thumbnail (Delivery API v2, ?width=)
//   /v2/media/<media_id>                           a media as JSON (Delivery API v2, delivery-api.ts)
//   /v2/playlists/<playlist_id>                    a playlist's page of media as JSON (Delivery API v2)

export const deliveryPath = {
  /** The platform names a rendition by its media and its conversion template; the sandbox's rendition id stands for it. */
  video: (mediaId: string, renditionId: string, audio: boolean): string => `/videos/${mediaId}-${renditionId}.${audio ? 'm4a' : 'mp4'}`,
  manifest: (mediaId: string): string => `/manifests/${mediaId}.m3u8`,
  track: (trackId: string): string => `/tracks/${trackId}.vtt`,
  strip: (mediaId: string): string => `/strips/${mediaId}-120.vtt`,
  poster: (mediaId: string): string => `/v2/media/${mediaId}/poster.jpg`,
  thumbnail: (mediaId: string, thumbnailId: string): string => `/v2/media/${mediaId}/thumbnails/${thumbnailId}.jpg`,
  /** The Delivery API's JSON answers (delivery-api.ts). */
  mediaFeed: (mediaId: string): string => `/v2/media/${mediaId}`,
  playlistFeed: (playlistId: string): string => `/v2/playlists/${playlistId}`,
  /** The media's preview page, as the platform links it (the sandbox serves none). */
  preview: (mediaId: string): string => `/previews/${mediaId}`,
} as const;

/**
 * Where the catalog's files are, and the Delivery API's JSON answers (`/v2/media/<id>`, `/v2/playlists/<id>`: the
 * Management API is all under `/v2/sites/`). `/cdn/` holds the test fixtures only (hostile folder, test HLS, generated
 * files).
 */
export const DELIVERY_PREFIXES = ['/videos/', '/manifests/', '/tracks/', '/strips/', '/thumbs/', '/v2/media/', '/v2/playlists/', '/cdn/'] as const;

export function isDeliveryPath(path: string): boolean {
  return DELIVERY_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** What a catalog file path names: the media (or text track) it belongs to, and which signing scheme guards it. */
export interface DeliveryOwner {
  kind: 'media' | 'text_track';
  id: string;
  /** `legacy`: `?exp=&sig=` (file paths); `jwt`: `?token=` (the Delivery API's /v2/ paths). */
  scheme: 'legacy' | 'jwt';
}

/** The owner of a catalog file by its path alone, or null for anything else (fixtures, unknown shapes). */
export function deliveryOwner(path: string): DeliveryOwner | null {
  // `/videos/<media>.mp4` and `/thumbs/<media>-<width>.jpg` are the platform's too (the sandbox serves neither): they
  // belong to their media all the same, so an enforcing site refuses them unsigned before anything else.
  let match = /^\/videos\/([A-Za-z0-9]+)(?:-[A-Za-z0-9]+)?\.(?:mp4|m4a)$/.exec(path)
    ?? /^\/manifests\/([A-Za-z0-9]+)(?:\.m3u8|\/.+)$/.exec(path)
    ?? /^\/strips\/([A-Za-z0-9]+)-[0-9]+\.(?:vtt|svg)$/.exec(path)
    ?? /^\/thumbs\/([A-Za-z0-9]+)-[0-9]+\.jpg$/.exec(path);
  if (match) return { kind: 'media', id: match[1]!, scheme: 'legacy' };
  match = /^\/tracks\/([A-Za-z0-9]+)\.vtt$/.exec(path);
  if (match) return { kind: 'text_track', id: match[1]!, scheme: 'legacy' };
  match = /^\/v2\/media\/([A-Za-z0-9]+)\/(?:poster\.jpg|thumbnails\/[A-Za-z0-9]+\.jpg)$/.exec(path);
  if (match) return { kind: 'media', id: match[1]!, scheme: 'jwt' };
  return null;
}

/**
 * The Delivery API's two JSON routes, named as /_sandbox/scripted takes them (the Management API's routes are named by
 * their pattern the same way). Only these exact paths: `/v2/media/<id>/poster.jpg` and the thumbnails are images.
 */
export const DELIVERY_API_ROUTES = [
  { method: 'GET', pattern: '/v2/media/:media' },
  { method: 'GET', pattern: '/v2/playlists/:playlist' },
] as const;
export type DeliveryApiRoute = (typeof DELIVERY_API_ROUTES)[number];

/** The Delivery API route a path is, with its id, or null. */
export function deliveryApiRoute(path: string): { route: DeliveryApiRoute; params: Record<string, string> } | null {
  let match = /^\/v2\/media\/([A-Za-z0-9]+)$/.exec(path);
  if (match) return { route: DELIVERY_API_ROUTES[0], params: { media: match[1]! } };
  match = /^\/v2\/playlists\/([A-Za-z0-9]+)$/.exec(path);
  if (match) return { route: DELIVERY_API_ROUTES[1], params: { playlist: match[1]! } };
  return null;
}
