/**
 * Playback URLs for a media answer under a policy: every source, text track and poster becomes
 * `/api/play/<token>/<file>` on this worker (a path: resolve it against the worker's address you called). An HLS source
 * opens its whole folder (master, variant playlists, segments, keys, subtitles); every other URL opens one file. With
 * `playback.bind_network` on, every URL carries the caller's network, and none is minted when that cannot be read
 * (network.ts, `playbackBinding`): never an unbound URL in its place.
 */
import type { RequestContext } from '../http/context.ts';
import type { Config } from '../config.ts';
import type { Env } from '../env.ts';
import type { FeedItem, MediaResponse } from '../contract/public-api.ts';
import { devMode } from '../http/visitor.ts';
import { playbackKeys } from './keys.ts';
import { playbackBinding } from './network.ts';
import { rememberFeedPosters, rememberMedia } from './records.ts';
import { isHlsType } from '../catalog/index.ts';
import { digest8, signToken, type PlaybackGrant, type PlaybackResource } from './token.ts';

export const PLAY_PREFIX = '/api/play/';
const FILE_NAME = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,63}$/;


/** The name a file-scoped URL ends in: the upstream file's own name when it is a plain one, else `file`. */
export function fileName(upstream: string): string {
  let last = '';
  try {
    last = new URL(upstream).pathname.split('/').pop() ?? '';
  } catch {
    // Not a URL: it resolves to nothing anyway.
  }
  return FILE_NAME.test(last) ? last : 'file';
}

/** Playback URLs only to http(s) delivery hosts; anything else the platform names is left out of the answer. */
export function deliverable(upstream: string): boolean {
  try {
    const url = new URL(upstream);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** Expiry: the configured lifetime, rounded up to the minute so repeated answers within a minute are identical. */
export function expiryFor(nowMs: number, minutes: number): number {
  return Math.ceil((nowMs / 1000 + minutes * 60) / 60) * 60;
}

/**
 * Development only (DEV_MODE): the playback URLs of this one answer expire this many seconds (1-3600) from now, to
 * the second, instead of after `playback.token_minutes`. It is how a browser suite gets URLs that really expire
 * while a video plays (a media element sends no headers, so `x-reelgate-dev-now` cannot reach its requests). It
 * only ever shortens what is signed, and other answers' URLs are untouched. Ignored with DEV_MODE off.
 */
export const DEV_TOKEN_SECONDS_HEADER = 'x-reelgate-dev-token-seconds';

function expiryOf(request: Request, env: Env, minutes: number): number {
  const stated = devMode(env) ? request.headers.get(DEV_TOKEN_SECONDS_HEADER) : null;
  const seconds = stated && /^\d{1,4}$/.test(stated) ? Number(stated) : 0;
  if (seconds >= 1 && seconds <= 3600) return Math.floor(Date.now() / 1000) + seconds;
  return expiryFor(Date.now(), minutes);
}

/**
 * A playback URL's lifetime for a site: `playback.token_minutes`, and never longer than the site's signed delivery URLs
 * live (`url_signing.lifetime_minutes`): no URL the worker hands out opens a platform file for longer than configured.
 */
function tokenMinutes(config: Config, site: string): number {
  const signing = config.sites.get(site)?.urlSigning;
  return signing ? Math.min(config.playback.tokenMinutes, signing.lifetimeMinutes) : config.playback.tokenMinutes;
}

export async function withPlaybackUrls({ request, env, config }: RequestContext, site: string,
  media: MediaResponse): Promise<MediaResponse> {
  const { playback } = config;
  const [key] = await playbackKeys(env);
  const expires = expiryOf(request, env, tokenMinutes(config, site));
  const network = await playbackBinding(request, env, playback.bindNetwork);
  const url = async (upstream: string, resource: PlaybackResource, folder: boolean): Promise<string> => {
    const grant: PlaybackGrant = { site, media: media.id, resource, scope: folder ? 'folder' : 'file',
      digest: await digest8(upstream), expires, network };
    return `${PLAY_PREFIX}${await signToken(key!, grant)}/${fileName(upstream)}`;
  };
  rememberMedia(site, media);
  const poster = media.poster && deliverable(media.poster) ? await url(media.poster, 'poster', false) : null;
  const thumbnail = media.thumbnail === media.poster ? poster
    : media.thumbnail && deliverable(media.thumbnail) ? await url(media.thumbnail, 'poster', false) : null;
  return {
    ...media,
    poster,
    thumbnail,
    thumbnails: await Promise.all(media.thumbnails.filter((t) => deliverable(t.url))
      .map(async (t) => ({ ...t, url: await url(t.url, 'poster', false) }))),
    sources: await Promise.all(media.sources.filter((s) => deliverable(s.url))
      .map(async (s) => ({ ...s, url: await url(s.url, 'source', isHlsType(s.type)) }))),
    tracks: await Promise.all(media.tracks.filter((t) => deliverable(t.url))
      .map(async (t) => ({ ...t, url: await url(t.url, 'track', false) }))),
  };
}

/**
 * A feed under a policy: each item's thumbnail becomes a poster playback URL (the feed names nothing else of the
 * platform's). The items' poster records are kept for the URLs' lifetime (records.ts).
 */
export async function withPlaybackThumbnails<T extends FeedItem>({ request, env, ctx, config }: RequestContext,
  site: string, items: readonly T[]): Promise<T[]> {
  const { playback } = config;
  const minutes = tokenMinutes(config, site);
  const [key] = await playbackKeys(env);
  const expires = expiryFor(Date.now(), minutes);
  const network = await playbackBinding(request, env, playback.bindNetwork);
  rememberFeedPosters(env, ctx, site, items, minutes * 60 + 60);
  return Promise.all(items.map(async (item) => {
    if (!item.thumbnail || !deliverable(item.thumbnail)) return { ...item, thumbnail: null, thumbnails: [] };
    const grant: PlaybackGrant = { site, media: item.id, resource: 'poster', scope: 'file',
      digest: await digest8(item.thumbnail), expires, network };
    return { ...item, thumbnail: `${PLAY_PREFIX}${await signToken(key!, grant)}/${fileName(item.thumbnail)}`, thumbnails: [] };
  }));
}
