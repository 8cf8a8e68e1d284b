/**
 * Geo-bound playback: the worker's own URLs for the bytes of content under a policy (urls.ts mints them, token.ts
 * signs them), and the byte route that checks and serves them (route.ts, `GET /api/play/<token>/<path>`). Others
 * import from here.
 */
import { metered } from './metering.ts';
import { playRoute as unmetered } from './route.ts';

export { addressUnreadable, playbackBinding } from './network.ts';
/** GET/HEAD /api/play/<token>/<path> (route.ts), counted (metering.ts). */
export const playRoute = metered(unmetered);
export { PLAY_PREFIX, withPlaybackThumbnails, withPlaybackUrls } from './urls.ts';
