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
import { deliveryHost } from '../catalog/index.ts';
import { enforcePolicies, heldMembership, mediaPolicies } from '../geo/index.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError, notFound, playbackDenied, playbackExpired, playbackInvalid } from '../http/errors.ts';
import { rawTarget } from '../http/paths.ts';
import { readQuery } from '../http/request-guard.ts';
import { signerFor } from '../signing/index.ts';
import { DEV_IP_HEADER, devMode } from '../http/visitor.ts';
import { deliver } from './deliver.ts';
import { playbackKeys } from './keys.ts';
import { networkDigest } from './network.ts';
import { recordedMedia } from './records.ts';
import { resolvePlayback } from './resolve.ts';
import { sameBytes, signToken, verifyToken, type PlaybackGrant } from './token.ts';
import { PLAY_PREFIX } from './urls.ts';

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

export async function playRoute(routed: RequestContext): Promise<Response> {
  const { env, ctx } = routed;
  const dev = devMode(env);
  const query = readQuery(routed.request, dev ? [DEV_IP_PARAM] : []);
  let visit = routed;
  let suffix = '';
  if (dev && query.dev_ip) {
    const headers = new Headers(routed.request.headers);
    headers.set(DEV_IP_HEADER, query.dev_ip);
    visit = routed.as(new Request(routed.request.url, { method: routed.request.method, headers }));
    suffix = `?${DEV_IP_PARAM}=${encodeURIComponent(query.dev_ip)}`;
  }

  const { request } = visit;
  const rest = rawTarget(request.url).path.slice(PLAY_PREFIX.length);
  const slash = rest.indexOf('/');
  const token = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash + 1);
  if (!token || !path) throw playbackInvalid();

  const verified = await verifyToken(await playbackKeys(env), token, nowSeconds(request, dev));
  if (!verified.ok) throw verified.reason === 'expired' ? playbackExpired() : playbackInvalid();
  const { grant } = verified;

  const site = visit.config.sites.get(grant.site);
  if (!site) throw notFound('No such site.');
  const membership = await heldMembership(visit, site);
  // Which playlists list the media is not known here now: refused as expired, so the player loads the media again
  // (which reads the playlists) and comes back with a fresh URL.
  if (!membership) throw playbackExpired('This playback URL can no longer be checked; load the media again for a fresh one.');
  // The worker's own record of the media: what the bytes resolve against, and what a playlist's rules are judged on.
  const record = await recordedMedia(env, site.id, grant.media);
  try {
    await enforcePolicies(visit, mediaPolicies(site, grant.media, membership, record ?? 'unknown'));
  } catch (error) {
    if (error instanceof ApiError && error.code === 'geo_blocked') throw playbackDenied();
    throw error;
  }
  if (grant.network) {
    const caller = await networkDigest(request, env);
    if (!caller || !sameBytes(caller, grant.network)) throw playbackInvalid('This playback URL was issued to another network.');
  }

  // The site's property may enforce URL signing: then every byte fetch is signed, for that fetch only (worker/signing/).
  const signer = signerFor(env, visit.config, site.id);
  const resolved = await resolvePlayback(grant, path, record, deliveryHost(env.DELIVERY_BASE_URL));
  const sign = async (minted: PlaybackGrant) => signToken((await playbackKeys(env))[0]!, minted);
  return deliver({ request, ctx, grant, resolved, prefix: `${PLAY_PREFIX}${token}/`, suffix, sign, signer });
}
