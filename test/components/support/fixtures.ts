/** Worker answers shaped exactly like worker/public-api.ts says (the compiler checks them against it). */
import type {
  FeedItem, FeedResponse, GateReason, GateResponse, MediaResponse, PlayerResponse,
} from '../../../worker/contract/public-api.ts';

export const SITE = 'vbQmzoYd';
export const PLAYLIST = 'JwMCDvZA';

export function feedItem(n: number): FeedItem {
  return {
    id: `media${String(n).padStart(3, '0')}`,
    title: `Video number ${n}`,
    description: `About video ${n}.`,
    duration: 245 + n,
    tags: ['food'],
    publish_start_date: '2025-03-04T10:00:00Z',
    publish_end_date: null,
    thumbnail: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 9"/>')}`,
    thumbnails: [],
    permalink: `https://www.example.com/videos/${n}`,
    media_type: 'video',
    custom_params: {},
  };
}

/** Page `page` of a feed of `total` items, `pageLength` per page. */
export function feed(page: number, pageLength: number, total: number, title = "Editors' Picks",
  playlist = PLAYLIST): FeedResponse {
  const start = (page - 1) * pageLength;
  const items = Array.from({ length: Math.max(0, Math.min(pageLength, total - start)) }, (_, i) => feedItem(start + i + 1));
  return {
    site: SITE,
    playlist: { id: playlist, type: 'manual', title, description: 'Hand-picked.', author: 'Amara Okafor', link: null },
    items,
    page,
    page_length: pageLength,
    total,
    next_page: start + pageLength < total ? page + 1 : null,
  };
}

export function media(id: string, overrides: Partial<MediaResponse> = {}): MediaResponse {
  const n = Number(id.replace(/\D/g, '')) || 1;
  return {
    ...feedItem(n),
    id,
    site: SITE,
    poster: `https://cdn.example.test/thumbs/${id}.jpg`,
    sources: [1920, 1280, 640, 320].map((width) => ({
      url: `https://cdn.example.test/videos/${id}/${width}.mp4`,
      type: 'video/mp4',
      width,
      height: Math.round((width * 9) / 16),
      filesize: width * 10_000,
      label: `${width}p`,
    })),
    tracks: [
      { url: `https://cdn.example.test/tracks/${id}-en.vtt`, kind: 'captions', label: 'English', srclang: 'en', default: true },
      { url: `https://cdn.example.test/tracks/${id}-fr.vtt`, kind: 'subtitles', label: 'Français', srclang: 'fr', default: false },
    ],
    ...overrides,
  };
}

export function player(setupConfig: Record<string, unknown>, name = 'Article player'): PlayerResponse {
  return { id: 'RkWDvjNV', name, release_channel: 'latest', setup_config: setupConfig };
}

export function gate(allowed: boolean, reason: GateReason, country: string | null = 'DE', policy = 'europe')
  : GateResponse {
  return { policy, allowed, reason, complete: true, country, proxy: { identification: null, type: null } };
}
