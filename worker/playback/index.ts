/**
 * Geo-bound playback: the worker's own URLs for the bytes of content under a policy (urls.ts mints them, token.ts
 * signs them), and the byte route that checks and serves them (route.ts, `GET /api/play/<token>/<path>`). Others
 * import from here.
 */
export { addressUnreadable, playbackBinding } from './network.ts';
export { playRoute } from './route.ts';
export { PLAY_PREFIX, withPlaybackThumbnails, withPlaybackUrls } from './urls.ts';
