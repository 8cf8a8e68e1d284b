// The Delivery API definition's own example (jwplayer/jwplatform-docs, docs/api-definitions/Delivery-API-v2.yaml,
// `GET /v2/playlists/{playlist_id}`): its first item, as given. Suites hold the schema and the worker's reader to it.
import type { DeliveryItem } from '../../worker/contract/delivery-types.ts';

/** One item of the definition's own example, as given. */
export const DEFINITION_ITEM: DeliveryItem = {
  mediaid: 'ghZEPsKo',
  description: 'Jack (Henry Rollins) is in a rut. His existence has been whittled down to sleeping and watching TV, and he sees the human race as little more than meat with a pulse.',
  pubdate: 1449848295,
  tags: 'drama, thriller, trailer',
  image: 'https://cdn.jwplayer.com/thumbs/ghZEPsKo-320.jpg',
  title: 'He Never Died',
  feedid: 'Xw0oaD4q',
  custom: {},
  sources: [
    { width: 1280, type: 'application/vnd.apple.mpegurl', file: 'https://cdn.jwplayer.com/manifests/ghZEPsKo.m3u8', height: 720 },
    { width: 320, type: 'video/mp4', file: 'https://cdn.jwplayer.com/videos/ghZEPsKo-AgylS15n.mp4', height: 180 },
    { width: 480, type: 'video/mp4', file: 'https://cdn.jwplayer.com/videos/ghZEPsKo-8LSW5F2t.mp4', height: 270 },
    { width: 720, type: 'video/mp4', file: 'https://cdn.jwplayer.com/videos/ghZEPsKo-PA9rXzRh.mp4', height: 406 },
    { width: 1280, type: 'video/mp4', file: 'https://cdn.jwplayer.com/videos/ghZEPsKo-p3ZNjGCa.mp4', height: 720 },
    { type: 'audio/mp4', file: 'https://cdn.jwplayer.com/videos/ghZEPsKo-pSu3VlhO.m4a' },
  ],
  tracks: [{ kind: 'thumbnail', file: 'https://cdn.jwplayer.com/strips/ghZEPsKo-120.vtt' }],
  link: 'https://cdn.jwplayer.com/previews/ghZEPsKo',
  recommendations: '//cdn.jwplayer.com/feed.json?feed_id=Xw0oaD4q&related_media_id=ghZEPsKo',
  duration: 134,
};
