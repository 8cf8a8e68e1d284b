/**
 * Whose file a URL on the platform's delivery host is, read from its path in the platform's documented layout:
 *
 *   /videos/<media>[-<template>].<ext>   /manifests/<media>.m3u8 and /manifests/<media>/…   /strips/<media>-<w>.<ext>
 *   /thumbs/<media>-<w>.<ext>            /previews/<media>…                                 /tracks/<text track>.<ext>
 *   /v2/media/<media>[/…]                /v2/playlists/<playlist>[/…]                       (the Delivery API)
 *
 * A media's answer may name a delivery-host file only when the file is that media's own: a writer's external media
 * whose source URL names another media's rendition or manifest would otherwise get that file signed by the worker (on a
 * signing site) or fetched by it (under a policy), opening bytes the other media's policy refuses. A path in one of
 * those folders that the layout cannot read names nobody the worker can vouch for, so it is refused too (fail closed).
 * A path outside them names no platform content at all (the platform's CDN keeps its content only there).
 */
import type { MediaResponse } from '../contract/public-api.ts';
import { ApiError } from '../http/errors.ts';
import { count } from '../metrics/index.ts';
import { deliveryBase } from './posters.ts';

/** The folders the platform keeps content in, by first path segment. */
const CONTENT_FOLDERS: ReadonlySet<string> = new Set(['videos', 'manifests', 'strips', 'thumbs', 'previews', 'tracks', 'v2']);

const ID = '([A-Za-z0-9]{1,64})';
const OWNED_BY_MEDIA: readonly RegExp[] = [
  new RegExp(`^/videos/${ID}(?:-[A-Za-z0-9_-]+)?\\.[A-Za-z0-9]+$`),
  new RegExp(`^/manifests/${ID}(?:\\.m3u8|/.+)$`),
  new RegExp(`^/strips/${ID}-[0-9]+\\.[A-Za-z0-9]+$`),
  new RegExp(`^/thumbs/${ID}-[0-9]+\\.[A-Za-z0-9]+$`),
  new RegExp(`^/previews/${ID}(?:[-/.].*)?$`),
  new RegExp(`^/v2/media/${ID}(?:/.*)?$`),
];
const OWNED_BY_TRACK = new RegExp(`^/tracks/${ID}\\.[A-Za-z0-9]+$`);

/** What a delivery-host path names: a media's file, a text track's file, or something the layout cannot vouch for. */
export type DeliveryOwner =
  | { kind: 'media'; id: string }
  | { kind: 'text_track'; id: string }
  | { kind: 'unreadable' }
  | { kind: 'outside' };

/** The owner of a path on the delivery host, the delivery base's own path prefix already taken off. */
export function deliveryOwner(path: string): DeliveryOwner {
  const folder = path.split('/')[1] ?? '';
  if (!CONTENT_FOLDERS.has(folder)) return { kind: 'outside' };
  // Encoded dots and separators never name a file of the layout (the URL parser has resolved plain dot segments).
  if (/%2f|%5c|%2e/i.test(path)) return { kind: 'unreadable' };
  for (const pattern of OWNED_BY_MEDIA) {
    const match = pattern.exec(path);
    if (match) return { kind: 'media', id: match[1]! };
  }
  const track = OWNED_BY_TRACK.exec(path);
  return track ? { kind: 'text_track', id: track[1]! } : { kind: 'unreadable' };
}

/** Which media's answer a URL stands in, and what it may be. */
export interface FileClaim {
  site: string;
  media: string;
  /** A text track of the media (the platform lists them per media and writes their files itself): `/tracks/` too. */
  track: boolean;
}

/** The delivery host as a URL is compared with it: its origin, and the path prefix its files lie under (or ''). */
export interface DeliveryHost {
  origin: string;
  prefix: string;
}

/** `DELIVERY_BASE_URL` read for `isOwnFile`, or null when it is not set (no URL is then the delivery host's). */
export function deliveryHost(configured: string | undefined): DeliveryHost | null {
  const base = deliveryBase(configured);
  if (base === null) return null;
  const url = new URL(base);
  return { origin: url.origin, prefix: url.pathname === '/' ? '' : url.pathname };
}

/**
 * Whether a URL may stand in `claim.media`'s answer: anything off the delivery host, anything outside its content
 * folders, and the media's own files; never another media's file, nor one the layout cannot read.
 */
export function isOwnFile(url: URL, host: DeliveryHost | null, claim: FileClaim): boolean {
  if (host === null || url.origin !== host.origin) return true;
  if (host.prefix && !url.pathname.startsWith(`${host.prefix}/`)) return true;
  const owner = deliveryOwner(url.pathname.slice(host.prefix.length));
  switch (owner.kind) {
    case 'outside': return true;
    case 'media': return owner.id === claim.media;
    case 'text_track': return claim.track;
    case 'unreadable': return false;
  }
}

/** The error a media whose answer names a file that is not its own gets, in every door (and where it was refused). */
export function foreignDeliveryFile(claim: FileClaim, url: URL, where: 'answer' | 'signing' | 'playback'): ApiError {
  console.error(`reelgate: media ${claim.site}/${claim.media} names ${url.origin}${url.pathname}, a delivery-host file `
    + `that is not its own; refused (${where})`);
  count('foreign_delivery_files', { site: claim.site, at: where });
  return new ApiError(502, 'foreign_delivery_file', `Media ${claim.media} names a file on the platform's delivery host `
    + 'that belongs to other content; the worker serves, signs and fetches a media\'s own files only.');
}

/** Throws `foreign_delivery_file` unless the URL may stand in the media's answer (`isOwnFile`). */
export function checkOwnFile(text: string, host: DeliveryHost | null, claim: FileClaim,
  where: 'answer' | 'signing' | 'playback'): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return; // Not a URL: nothing it could open.
  }
  if (!isOwnFile(url, host, claim)) throw foreignDeliveryFile(claim, url, where);
}

/** Media answers already found to name only their own files (a memory HIT hands out the same object again). */
const checked = new WeakSet<MediaResponse>();

/**
 * Throws `foreign_delivery_file` unless every URL of a media answer is the media's own (`isOwnFile`): its sources and
 * pictures its media's files, its tracks its text tracks' or its media's. Checked on what the cache holds, before
 * anything is signed or turned into a playback URL, so every door refuses alike.
 */
export function checkMediaFiles(media: MediaResponse, deliveryConfigured: string | undefined): void {
  if (checked.has(media)) return;
  const host = deliveryHost(deliveryConfigured);
  const claim: FileClaim = { site: media.site, media: media.id, track: false };
  const pictures = [media.poster, media.thumbnail, ...media.thumbnails.map((t) => t.url)];
  for (const url of [...pictures, ...media.sources.map((s) => s.url)]) {
    if (url !== null) checkOwnFile(url, host, claim, 'answer');
  }
  const asTrack = { ...claim, track: true };
  for (const track of media.tracks) checkOwnFile(track.url, host, asTrack, 'answer');
  checked.add(media);
}
