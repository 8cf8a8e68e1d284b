/**
 * The platform URLs of an answer about content under no policy, signed as it is answered (never as it is cached: the
 * cache keeps what the platform said). Content under a policy is named by the worker's own playback URLs instead, and
 * its bytes are fetched signed (playback/deliver.ts).
 */
import type { FeedItem, MediaResponse } from '../contract/public-api.ts';
import type { FileClaim } from '../catalog/index.ts';
import type { DeliverySigner } from './site-signer.ts';

async function signedOrNull(signer: DeliverySigner, url: string | null, claim: FileClaim, now: number): Promise<string | null> {
  return url === null ? null : signer.forAnswer(url, claim, now);
}

/** A card's pictures signed: each the card's media's own file (the signer refuses any other). */
export async function signFeedItem<T extends FeedItem>(signer: DeliverySigner, item: T, now = Date.now()): Promise<T> {
  const claim: FileClaim = { site: signer.site, media: item.id, track: false };
  const [thumbnail, thumbnails] = await Promise.all([
    signedOrNull(signer, item.thumbnail, claim, now),
    Promise.all(item.thumbnails.map(async (t) => ({ ...t, url: await signer.forAnswer(t.url, claim, now) }))),
  ]);
  return { ...item, thumbnail, thumbnails };
}

/** A media answer's pictures, sources and tracks signed. */
export async function signMedia(signer: DeliverySigner, media: MediaResponse, now = Date.now()): Promise<MediaResponse> {
  const claim: FileClaim = { site: signer.site, media: media.id, track: false };
  const [card, poster, sources, tracks] = await Promise.all([
    signFeedItem(signer, media, now),
    signedOrNull(signer, media.poster, claim, now),
    Promise.all(media.sources.map(async (s) => ({ ...s, url: await signer.forAnswer(s.url, claim, now) }))),
    Promise.all(media.tracks.map(async (t) => ({ ...t, url: await signer.forAnswer(t.url, { ...claim, track: true }, now) }))),
  ]);
  return { ...card, poster, sources, tracks };
}
