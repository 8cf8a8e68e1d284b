// The worker's answers the packed-package suite serves and hands the elements as `data`, shaped as
// worker/contract/public-api.ts types them. Their images and the video are on the test server (`origin`), which
// answers them: Chromium reaches nothing else (test/support/find-browser.mjs, --host-resolver-rules).

export const SITE = 'vbQmzoYd';
export const PLAYLIST = 'DGRTLuft';
export const MEDIA = 'AAAAAAA1';
export const PLAYER = 'RkWDvjNV';

/** @returns {import('../../worker/contract/public-api.ts').FeedItem} */
function item(origin, n) {
  const id = `AAAAAAA${n}`;
  return {
    id,
    title: `Recipe ${n}: a long enough title to wrap onto a second line of its card`,
    description: `How to cook recipe ${n}.`,
    duration: 60 * n + 5,
    tags: ['food'],
    publish_start_date: `2024-03-0${n}T10:00:00.000Z`,
    publish_end_date: null,
    thumbnail: `${origin}/img/${id}-640.svg`,
    thumbnails: [{ url: `${origin}/img/${id}-320.svg`, width: 320 }, { url: `${origin}/img/${id}-640.svg`, width: 640 }],
    permalink: `https://publisher.example/videos/${id}`,
    media_type: 'video',
    custom_params: {},
  };
}

/** @returns {import('../../worker/contract/public-api.ts').FeedResponse} */
export function feed(origin, pageLength = 4) {
  return {
    site: SITE,
    playlist: { id: PLAYLIST, type: 'manual', title: 'Food & Recipes', description: 'Cooking at home.', author: null, link: null },
    items: Array.from({ length: pageLength }, (_, i) => item(origin, i + 1)),
    page: 1,
    page_length: pageLength,
    total: 6,
    next_page: 2,
  };
}

/** @returns {import('../../worker/contract/public-api.ts').MediaResponse} */
export function media(origin) {
  return {
    ...item(origin, 1),
    site: SITE,
    poster: `${origin}/img/${MEDIA}-poster.svg`,
    sources: [{ url: `${origin}/video/sample.mp4`, type: 'video/mp4', width: 640, height: 360, filesize: 1000, label: '360p' }],
    tracks: [],
  };
}

/** @returns {import('../../worker/contract/public-api.ts').PlayerResponse} */
export function player() {
  return {
    id: PLAYER, name: 'Front page player', release_channel: 'stable',
    setup_config: { aspectratio: '16:9', autostart: false, playbackRateControls: true, displaydescription: true, skin: { name: 'seven' } },
  };
}

/** @returns {import('../../worker/contract/public-api.ts').GateResponse} */
export function gate(policy, allowed) {
  return allowed
    ? { policy, allowed: true, reason: 'allowed', complete: true, country: 'DE', proxy: { identification: null, type: null } }
    : { policy, allowed: false, reason: 'continent_not_allowed', complete: true, country: 'US', proxy: { identification: null, type: null } };
}
