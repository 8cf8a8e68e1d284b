/**
 * The platform URLs of an answer about content under no policy, signed as it is answered (never as it is cached: the
 * cache keeps what the platform said). Content under a policy is named by the worker's own playback URLs instead, and
 * its bytes are fetched signed (playback/deliver.ts).
 */
import type { FeedItem, MediaResponse } from '../contract/public-api.ts';
import type { DeliverySigner } from './site-signer.ts';

async function signedOrNull(signer: DeliverySigner, url: string | null, now: number): Promise<string | null> {
  return url === null ? null : signer.forAnswer(url, now);
}

/** A card's pictures signed. */
export async function signFeedItem<T extends FeedItem>(signer: DeliverySigner, item: T, now = Date.now()): Promise<T> {
  const [thumbnail, thumbnails] = await Promise.all([
    signedOrNull(signer, item.thumbnail, now),
    Promise.all(item.thumbnails.map(async (t) => ({ ...t, url: await signer.forAnswer(t.url, now) }))),
  ]);
  return { ...item, thumbnail, thumbnails };
}

/** A media answer's pictures, sources and tracks signed. */
export async function signMedia(signer: DeliverySigner, media: MediaResponse, now = Date.now()): Promise<MediaResponse> {
  const [card, poster, sources, tracks] = await Promise.all([
    signFeedItem(signer, media, now),
    signedOrNull(signer, media.poster, now),
    Promise.all(media.sources.map(async (s) => ({ ...s, url: await signer.forAnswer(s.url, now) }))),
    Promise.all(media.tracks.map(async (t) => ({ ...t, url: await signer.forAnswer(t.url, now) }))),
  ]);
  return { ...card, poster, sources, tracks };
}
