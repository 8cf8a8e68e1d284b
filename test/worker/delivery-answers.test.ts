// The Delivery API as the worker reads it, without the sandbox: an answer of the definition's shape is read, one out
// of shape is refused whole; a media answer is made from an item (the HLS manifest first, published text tracks with
// their languages, the storyboard last); and the worker's own bound on delivery calls holds its rate and concurrency.
import { describe, expect, it } from 'vitest';
import type { DeliveryConfig } from '../../worker/config.ts';
import type { DeliveryItem } from '../../worker/contract/delivery-types.ts';
import { DeliveryMeter, mediaFromDelivery, readDeliveryFeed } from '../../worker/delivery/index.ts';
import { ApiError } from '../../worker/http/errors.ts';
import { DEFINITION_ITEM } from '../platform/delivery-example.ts';

/** A media answer as the definition's example gives its item. */
const DEFINITION_EXAMPLE = { playlist: [DEFINITION_ITEM] };

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ApiError ? `${error.status} ${error.code}` : String(error);
  }
  return 'read';
};

describe('a Delivery API answer', () => {
  it('of the definition\'s example is read, tags and custom params with it', () => {
    const feed = readDeliveryFeed(DEFINITION_EXAMPLE, 'media');
    expect(feed.playlist).toHaveLength(1);
    expect(feed.playlist[0]!.sources).toHaveLength(6);
    expect(feed.playlist[0]!.custom).toEqual({});
  });

  it('out of shape is refused whole with 502 delivery_answer_invalid, naming what is wrong', () => {
    const item = DEFINITION_EXAMPLE.playlist[0]!;
    expect(refusal(() => readDeliveryFeed({ playlist: [{ ...item, mediaid: undefined }] }, 'media'))).toBe('502 delivery_answer_invalid');
    expect(refusal(() => readDeliveryFeed({ playlist: [{ ...item, pubdate: '2015' }] }, 'media'))).toBe('502 delivery_answer_invalid');
    expect(refusal(() => readDeliveryFeed({ playlist: [{ ...item, sources: [{ type: 'video/mp4' }] }] }, 'media'))).toBe('502 delivery_answer_invalid');
    expect(refusal(() => readDeliveryFeed({ playlist: 'none' }, 'media'))).toBe('502 delivery_answer_invalid');
    expect(refusal(() => readDeliveryFeed([], 'media'))).toBe('502 delivery_answer_invalid');
  });

  it('keeps only string custom params (the cache keeps them all; answers show the allowlist)', () => {
    const item = { ...DEFINITION_EXAMPLE.playlist[0]!, custom: { series: 'Tide', count: 3, nested: { a: 1 } } };
    expect(readDeliveryFeed({ playlist: [item] }, 'media').playlist[0]!.custom).toEqual({ series: 'Tide' });
  });
});

const DELIVERY = 'https://cdn.example';
function item(overrides: Partial<DeliveryItem> = {}): DeliveryItem {
  return {
    mediaid: 'AbCd1234', title: 'Tide', description: '', pubdate: 1_700_000_000, tags: 'sea, tide', image: `${DELIVERY}/v2/media/AbCd1234/poster.jpg?width=720`,
    images: [720, 320, 1280].map((width) => ({ src: `${DELIVERY}/v2/media/AbCd1234/poster.jpg?width=${width}`, width, type: 'image/jpeg' })),
    duration: 61, link: `${DELIVERY}/previews/AbCd1234`, custom: { series: 'Coast' },
    sources: [
      { file: `${DELIVERY}/videos/AbCd1234-aaaaaaaa.mp4`, type: 'video/mp4', width: 640, height: 360, filesize: 10 },
      { file: `${DELIVERY}/videos/AbCd1234-cccccccc.m4a`, type: 'audio/mp4', label: 'AAC Audio', filesize: 5 },
      { file: `${DELIVERY}/manifests/AbCd1234.m3u8`, type: 'application/vnd.apple.mpegurl' },
      { file: `${DELIVERY}/videos/AbCd1234-bbbbbbbb.mp4`, type: 'video/mp4', width: 1280, height: 720, filesize: 20 },
      { file: 'javascript:alert(1)', type: 'video/mp4', width: 1920, height: 1080 },
    ],
    tracks: [
      { file: `${DELIVERY}/strips/AbCd1234-120.vtt`, kind: 'thumbnails' },
      { file: `${DELIVERY}/tracks/TrAcK001.vtt`, kind: 'captions', label: 'English' },
      { file: `${DELIVERY}/tracks/TrAcK002.vtt`, kind: 'subtitles', label: 'Français', default: true },
    ],
    ...overrides,
  };
}

describe('a media answer made from delivery', () => {
  it('lists the HLS manifest first, then files widest first, audio last; a link that is no http(s) URL is left out', () => {
    const answer = mediaFromDelivery('SiTe1234', item(), new Map(), DELIVERY);
    expect(answer.sources.map((s) => [s.type, s.width, s.label])).toEqual([
      ['application/vnd.apple.mpegurl', null, 'Auto'], ['video/mp4', 1280, '720p'], ['video/mp4', 640, '360p'], ['audio/mp4', null, 'Audio'],
    ]);
    expect(answer.media_type).toBe('video');
  });

  it('gives each text track its language from the Management API, keeps delivery\'s default, and the storyboard last', () => {
    const answer = mediaFromDelivery('SiTe1234', item(), new Map([['TrAcK001', 'en'], ['TrAcK002', 'fr']]), DELIVERY);
    expect(answer.tracks.map((t) => [t.kind, t.label, t.srclang, t.default])).toEqual([
      ['captions', 'English', 'en', false], ['subtitles', 'Français', 'fr', true], ['thumbnails', 'Thumbnails', '', false],
    ]);
  });

  it('without a default flag, the first captions track is the default, as the platform\'s menu shows it', () => {
    const tracks = item().tracks.map(({ default: _, ...t }) => t);
    const answer = mediaFromDelivery('SiTe1234', item({ tracks }), new Map(), DELIVERY);
    expect(answer.tracks.filter((t) => t.default).map((t) => t.label)).toEqual(['English']);
  });

  it('states the publish start, tags, posters narrowest first; the preview page is no permalink', () => {
    const answer = mediaFromDelivery('SiTe1234', item(), new Map(), DELIVERY);
    expect(answer.publish_start_date).toBe('2023-11-14T22:13:20Z');
    expect(answer.publish_end_date).toBeNull();
    expect(answer.tags).toEqual(['sea', 'tide']);
    expect(answer.thumbnails.map((t) => t.width)).toEqual([320, 720, 1280]);
    expect(answer.poster).toBe(`${DELIVERY}/v2/media/AbCd1234/poster.jpg?width=720`);
    expect(answer.permalink).toBeNull();
    expect(mediaFromDelivery('SiTe1234', item({ link: 'https://publisher.example/tide' }), new Map(), DELIVERY).permalink)
      .toBe('https://publisher.example/tide');
    expect(answer.description).toBeNull();
    expect(answer.custom_params).toEqual({ series: 'Coast' });
  });

  it('an audio media has no storyboard', () => {
    const answer = mediaFromDelivery('SiTe1234', item({
      sources: [{ file: `${DELIVERY}/videos/AbCd1234-cccccccc.m4a`, type: 'audio/mp4' }],
    }), new Map(), DELIVERY);
    expect(answer.media_type).toBe('audio');
    expect(answer.tracks.some((t) => t.kind === 'thumbnails')).toBe(false);
  });
});

describe('the worker\'s bound on delivery calls', () => {
  const config = (over: Partial<DeliveryConfig> = {}): DeliveryConfig =>
    ({ ratePerSecond: 1000, burst: 3, concurrency: 2, maxWaitMs: 1000, timeoutMs: 1000, ...over });

  it('runs at most `concurrency` calls at once; the next starts when one ends', async () => {
    const meter = new DeliveryMeter(config({ burst: 10 }));
    let running = 0;
    let most = 0;
    const call = () => meter.run(async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
    });
    await Promise.all([call(), call(), call(), call(), call()]);
    expect(most).toBe(2);
  });

  it('refuses a call that cannot start within max_wait_ms with 503 delivery_busy and a Retry-After', async () => {
    let now = 0;
    const meter = new DeliveryMeter(config({ ratePerSecond: 1, burst: 1, maxWaitMs: 0 }), () => now);
    await meter.run(async () => undefined);
    const refused = await meter.run(async () => undefined).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('delivery_busy');
    expect((refused as ApiError).retryAfterSeconds).toBe(1);
    now += 1000;
    await expect(meter.run(async () => 'again')).resolves.toBe('again');
  });
});
