/** A verified grant plus the path asked for → the one upstream URL to fetch, from the worker's own record. */
import { notFound, playbackExpired, playbackInvalid } from '../http/errors.ts';
import { foreignDeliveryFile, isOwnFile, isPublished, storyboardFile, type DeliveryHost, type FileClaim } from '../catalog/index.ts';
import type { MediaResponse } from '../contract/public-api.ts';
import { folderPath, PlaylistOutsideFolder } from './hls.ts';
import { digest8, sameBytes, type PlaybackGrant } from './token.ts';
import { deliverable, fileName } from './urls.ts';

export interface Resolved {
  /** What to fetch. */
  upstream: URL;
  /** For a folder grant: the folder (URIs in its playlists must stay inside). */
  folder: URL | null;
  /** The path under the token, as asked. */
  path: string;
  /** The file is the media's storyboard VTT: served rewritten (storyboard.ts). */
  storyboard: boolean;
}

const STORYBOARD_KIND = 'thumbnails';

/** The upstream URLs a grant's digest may name: from the record only, never from the request. */
function candidates(grant: PlaybackGrant, media: MediaResponse, path: string): string[] {
  switch (grant.resource) {
    case 'source': return media.sources.map((s) => s.url);
    case 'track': return media.tracks.map((t) => t.url);
    case 'poster': return [media.poster, media.thumbnail, ...media.thumbnails.map((t) => t.url)]
      .filter((u): u is string => typeof u === 'string');
    // The image named `path` of each storyboard the record lists, when it is one of that storyboard's own files: the
    // digest then says whether it is the one the token was minted for.
    case 'sprite': return media.tracks.filter((t) => t.kind === STORYBOARD_KIND)
      .map((t) => storyboardFile(t.url, media.id, path)?.href)
      .filter((u): u is string => typeof u === 'string');
  }
}

/**
 * `host`: the delivery host (catalog/delivery-layout.ts). A grant opens only its media's own files there, whatever its
 * record names and whatever folder its master sits in: the platform keeps every media's manifests in one folder
 * (`/manifests/`), so a folder grant is narrowed, on every request, to the files the layout says are its media's.
 */
export async function resolvePlayback(grant: PlaybackGrant, path: string, media: MediaResponse | null,
  host: DeliveryHost | null): Promise<Resolved> {
  if (!media) throw playbackExpired();
  if (!isPublished(media, Date.now())) throw notFound();
  let found: string | null = null;
  for (const url of candidates(grant, media, path)) {
    if (deliverable(url) && sameBytes(await digest8(url), grant.digest)) {
      found = url;
      break;
    }
  }
  // The media no longer offers that file (a rendition removed or moved): fresh URLs come with the media again.
  if (!found) throw playbackExpired('This file is no longer offered; load the media again for fresh playback URLs.');
  const base = new URL(found);
  const claim: FileClaim = { site: grant.site, media: grant.media, track: grant.resource === 'track' };
  // A record kept from before its media was refused (or a token minted then) opens nothing that is not the media's.
  if (!isOwnFile(base, host, claim)) throw foreignDeliveryFile(claim, base, 'playback');
  if (grant.scope === 'file') {
    if (path !== fileName(found)) throw playbackInvalid('This playback URL does not open that file.');
    const storyboard = grant.resource === 'track' && media.tracks.some((t) => t.url === found && t.kind === STORYBOARD_KIND);
    return { upstream: base, folder: null, path, storyboard };
  }
  const folder = new URL('./', base);
  folder.search = '';
  try {
    const inside = folderPath(path, folder, folder);
    const upstream = new URL(inside, folder);
    if (!isOwnFile(upstream, host, claim)) throw playbackInvalid('This playback URL does not open that file.');
    return { upstream, folder, path: inside, storyboard: false };
  } catch (error) {
    if (error instanceof PlaylistOutsideFolder) throw playbackInvalid('This playback URL does not open that file.');
    throw error;
  }
}
