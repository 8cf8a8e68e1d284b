/**
 * GET/HEAD /api/play/<token>/<path> — the bytes of content under a policy (worker/playback/). Every request is checked
 * afresh, in this order: the token's signature and expiry; the caller's location against the media's policies now
 * (the same `mediaPolicies` the media answer obeys, with playlist membership as the cache holds it: a byte request
 * never loads); the network the token was handed to; the file asked for against
 * what the token opens; then what the file turns out to be against what the token is for (a source video, audio or
 * HLS, a poster or a storyboard's sprite an image, a track WebVTT: worker/playback/deliver.ts; a storyboard's VTT is
 * rewritten so its images are playback URLs of their own, worker/playback/storyboard.ts). Refusals: 403
 * `playback_invalid`, 403 `playback_expired`, 451 `playback_denied`, 502 `playback_unsupported_type`. No answer here is ever a document or a
 * script: `nosniff` and `Content-Security-Policy: sandbox; default-src 'none'` on every one (security-headers.ts).
 */
import { ApiError, notFound, playbackDenied, playbackExpired, playbackInvalid } from '../errors.ts';
import { enforcePolicies, mediaPolicies } from '../geo/enforce.ts';
import { heldMembership } from '../geo/membership.ts';
import { deliver } from '../playback/deliver.ts';
import { playbackKeys } from '../playback/keys.ts';
import { networkDigest } from '../playback/network.ts';
import { recordedMedia } from '../playback/records.ts';
import { resolvePlayback } from '../playback/resolve.ts';
import { sameBytes, signToken, verifyToken, type PlaybackGrant } from '../playback/token.ts';
import { PLAY_PREFIX } from '../playback/urls.ts';
import { rawTarget, readQuery } from '../request-guard.ts';
import { DEV_IP_HEADER, devMode } from '../visitor.ts';
import type { Visit } from '../visit.ts';
import type { Handler } from './context.ts';

/** Development only: `?dev_ip=` stands in for the address, as the header does for fetches (a media element sends none). */
const DEV_IP_PARAM = 'dev_ip';
/**
 * Development only: a time (Unix seconds) later than the clock that expiry is judged at, so a browser suite can replay
 * a URL "later"; an earlier one is ignored, so the hook can make a URL expire sooner, never re-open an expired one.
 */
export const DEV_NOW_HEADER = 'x-reelgate-dev-now';

function nowSeconds(request: Request, dev: boolean): number {
  const real = Math.floor(Date.now() / 1000);
  const stated = dev ? request.headers.get(DEV_NOW_HEADER) : null;
  return stated && /^\d{1,10}$/.test(stated) ? Math.max(real, Number(stated)) : real;
}

export const playRoute: Handler = async (routed, env, ctx) => {
  const dev = devMode(env);
  const query = readQuery(routed, dev ? [DEV_IP_PARAM] : []);
  let request: Request = routed;
  let suffix = '';
  if (dev && query.dev_ip) {
    const headers = new Headers(routed.headers);
    headers.set(DEV_IP_HEADER, query.dev_ip);
    request = new Request(routed.url, { method: routed.method, headers });
    suffix = `?${DEV_IP_PARAM}=${encodeURIComponent(query.dev_ip)}`;
  }

  const rest = rawTarget(routed.url).path.slice(PLAY_PREFIX.length);
  const slash = rest.indexOf('/');
  const token = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash + 1);
  if (!token || !path) throw playbackInvalid();

  const verified = await verifyToken(await playbackKeys(env), token, nowSeconds(request, dev));
  if (!verified.ok) throw verified.reason === 'expired' ? playbackExpired() : playbackInvalid();
  const { grant } = verified;

  const visit: Visit = { request, env, ctx, config: routed.config };
  const site = visit.config.sites.get(grant.site);
  if (!site) throw notFound('No such site.');
  const membership = await heldMembership(visit, site);
  // Which playlists list the media is not known here now: refused as expired, so the player loads the media again
  // (which reads the playlists) and comes back with a fresh URL.
  if (!membership) throw playbackExpired('This playback URL can no longer be checked; load the media again for a fresh one.');
  try {
    await enforcePolicies(visit, mediaPolicies(site, grant.media, membership));
  } catch (error) {
    if (error instanceof ApiError && error.code === 'geo_blocked') throw playbackDenied();
    throw error;
  }
  if (grant.network) {
    const caller = await networkDigest(request, env);
    if (!caller || !sameBytes(caller, grant.network)) throw playbackInvalid('This playback URL was issued to another network.');
  }

  const resolved = await resolvePlayback(grant, path, await recordedMedia(env, site.id, grant.media));
  const sign = async (minted: PlaybackGrant) => signToken((await playbackKeys(env))[0]!, minted);
  return deliver({ request, ctx, grant, resolved, prefix: `${PLAY_PREFIX}${token}/`, suffix, sign });
};
