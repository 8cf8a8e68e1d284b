// Which thumbnail is a media's poster. The platform's answers never say (a thumbnail's answer has no poster flag, a
// media's has no poster link); it is chosen with PATCH thumbnails/<id> `is_poster` and shows on the delivery side,
// as the image at /v2/media/<media_id>/poster.jpg. Kept beside the resources, so answers stay the documented shape.
import type { Thumbnail } from '../../worker/contract/v2-types.ts';
import type { Store } from './store.ts';

const key = (site: string, mediaId: string): string => `poster:${site}:${mediaId}`;

/** The media a thumbnail belongs to (the definition writes it as `relationships.media[0].id.id`). */
export function thumbnailMediaId(thumbnail: Thumbnail): string {
  return thumbnail.relationships.media[0]?.id.id ?? '';
}

/** The chosen poster if it is still there and ready, else the media's first ready thumbnail; null when it has none. */
export function posterOf(store: Store, site: string, mediaId: string): Thumbnail | null {
  const ready = store.list<Thumbnail>('thumbnail', site, mediaId).filter((thumbnail) => thumbnail.status === 'ready')
    .sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1));
  const chosen = store.getMeta<string>(key(site, mediaId));
  return ready.find((thumbnail) => thumbnail.id === chosen) ?? ready[0] ?? null;
}

/** Makes a thumbnail the poster, or (null) goes back to the default one. */
export function choosePoster(store: Store, site: string, mediaId: string, thumbnailId: string | null): void {
  store.setMeta(key(site, mediaId), thumbnailId);
}

export function isPoster(store: Store, site: string, thumbnail: Thumbnail): boolean {
  return posterOf(store, site, thumbnailMediaId(thumbnail))?.id === thumbnail.id;
}
