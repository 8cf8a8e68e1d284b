// How often each media has been played: what the Delivery API's `trending` and `plays` sorts order a dynamic playlist
// by (delivery-api.ts). The platform counts plays from its players' analytics; the sandbox counts what a player
// fetches to start one: the HLS master (`/manifests/<id>.m3u8`), or an MP4/M4A file from its first byte (a whole-file
// GET, or a range from byte 0; later ranges are the same play going on). The seed gives each seeded media a count made
// from its id, so a fresh sandbox's trending order is stable and is not its newest-first order; media made later start
// at 0. Kept as one control value, which a reset clears and reseeds; `GET /_sandbox/plays` reads the counts.
import type { Media } from './records.ts';
import { hashString } from './prng.ts';
import type { Store } from './store.ts';

const KEY = 'plays';
/** Seeded counts lie in [0, SEEDED_PLAYS): close enough together that a few plays reorder a trending playlist. */
const SEEDED_PLAYS = 1000;

export type PlayCounts = Record<string, number>;

/** Gives every media in the store its seeded count (sandbox-state.ts calls it right after seeding the catalog). */
export function seedPlays(store: Store): PlayCounts {
  const counts: PlayCounts = {};
  for (const site of store.sites()) {
    for (const media of store.list<Media>('media', site)) counts[media.id] = hashString(`plays:${media.id}`) % SEEDED_PLAYS;
  }
  store.setMeta(KEY, counts);
  return counts;
}

/** Every media's count (absent: 0). A state seeded before plays were counted gets its seeded counts now. */
export function playCounts(store: Store): PlayCounts {
  return store.getMeta<PlayCounts>(KEY) ?? seedPlays(store);
}

/** The counts of every media of a site, or of every site, as `GET /_sandbox/plays` answers them. */
export function playsListing(store: Store, site: string | null): { plays: PlayCounts } {
  const counts = playCounts(store);
  const plays: PlayCounts = {};
  for (const siteId of site === null ? store.sites() : [site]) {
    const media = store.list<Media>('media', siteId).sort((a, b) => (a.id < b.id ? -1 : 1));
    for (const m of media) plays[m.id] = counts[m.id] ?? 0;
  }
  return { plays };
}

/**
 * Counts a play when a delivery response starts one: a GET of a media's HLS master answered 200, or of one of its
 * `/videos/` files answered whole or from byte 0. Answers the response unchanged.
 */
export function countPlay(store: Store, request: Request, path: string, response: Response): Response {
  if (request.method !== 'GET') return response;
  const master = /^\/manifests\/([A-Za-z0-9]+)\.m3u8$/.exec(path);
  const file = /^\/videos\/([A-Za-z0-9]+)-[A-Za-z0-9]+\.(?:mp4|m4a)$/.exec(path);
  const range = request.headers.get('range');
  const fromStart = response.status === 200 || (response.status === 206 && range !== null && /^bytes=0-\d*$/.test(range.trim()));
  const mediaId = master && response.status === 200 ? master[1]! : file && fromStart ? file[1]! : null;
  if (mediaId !== null) {
    const counts = playCounts(store);
    counts[mediaId] = (counts[mediaId] ?? 0) + 1;
    store.setMeta(KEY, counts);
  }
  return response;
}
