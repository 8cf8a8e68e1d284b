// The preview-thumbnail storyboard. The media answer lists the platform's storyboard
// (`<delivery>/strips/<media_id>-120.vtt`) as a track of kind `thumbnails`, for video only, at no upstream call. Under a
// policy it is a playback URL like every other file, and its VTT is served rewritten: each image a cue names becomes a
// playback URL for that one image (an image type only), the `#xywh=` fragment kept; a reference outside the media's
// own storyboard files is never passed on. Against the real worker and the sandbox's delivery side (/strips/...).
import { describe, expect, it, beforeEach } from 'vitest';
import type { MediaResponse, MediaTrack } from '../../worker/contract/public-api.ts';
import { rewriteStoryboard, StoryboardRefused, MAX_STORYBOARD_BYTES } from '../../worker/playback/storyboard.ts';
import { storyboardFile } from '../../worker/catalog/storyboard.ts';
import { api, boundMediaIds, callsTo, EUROPE_SITE, expectError, resetWorld, sandbox, SITE, stats } from './helpers.ts';
import { allMedia, isPublic } from './upstream-direct.ts';

const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.21';
const PLAY = /^\/api\/play\/[A-Za-z0-9_-]+\/[A-Za-z0-9._~-]+$/;

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}
const storyboardOf = (m: MediaResponse) => m.tracks.filter((t) => t.kind === 'thumbnails');
const cueLines = (vtt: string) => vtt.split('\n').filter((line) => line && line !== 'WEBVTT' && !line.includes('-->'));

beforeEach(async () => {
  await resetWorld();
});

describe('the storyboard in the media answer', () => {
  it('a video lists its storyboard last, once, as a thumbnails track on the delivery host, at no extra upstream call', async () => {
    const bound = await boundMediaIds(SITE);
    const pick = (await allMedia(SITE)).find((m) => isPublic(m) && m.media_type === 'video' && !bound.has(m.id))!;
    const before = callsTo(await stats(), '/v2/sites/');
    const body = await json<MediaResponse>(await api(`/api/sites/${SITE}/media/${pick.id}`));
    // The storyboard comes with the Delivery API's answer: the Management API is asked at most for the text tracks'
    // languages, as it would be without a storyboard.
    expect(callsTo(await stats(), '/v2/sites/') - before).toBeLessThanOrEqual(1);
    expect(storyboardOf(body)).toEqual([{
      url: `http://sandbox.test/strips/${pick.id}-120.vtt`, kind: 'thumbnails', label: 'Thumbnails', srclang: '', default: false,
    } satisfies MediaTrack]);
    expect(body.tracks.at(-1)!.kind).toBe('thumbnails');
    // It is never the default, and the captions menu's default is what it was.
    expect(body.tracks.filter((t) => t.default).every((t) => t.kind === 'captions' || t.kind === 'subtitles')).toBe(true);
    // The platform's (here the sandbox's) storyboard is there, and its images too.
    const vtt = await sandbox(new URL(storyboardOf(body)[0]!.url).pathname);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const text = await vtt.text();
    expect(text.startsWith('WEBVTT\n')).toBe(true);
    const [first] = cueLines(text);
    expect(first).toMatch(new RegExp(`^${pick.id}-120\\.svg#xywh=0,0,120,68$`));
    const sheet = await sandbox(`/strips/${first!.split('#')[0]}`);
    expect([sheet.status, sheet.headers.get('content-type')]).toEqual([200, 'image/svg+xml; charset=utf-8']);
    await sheet.body?.cancel();
  });

  it('an audio media has no storyboard', async () => {
    const bound = await boundMediaIds(SITE);
    const audio = (await allMedia(SITE)).find((m) => isPublic(m) && m.media_type === 'audio' && !bound.has(m.id))!;
    const body = await json<MediaResponse>(await api(`/api/sites/${SITE}/media/${audio.id}`));
    expect(body.sources.length).toBeGreaterThan(0);
    expect(storyboardOf(body)).toEqual([]);
    await expectError(await sandbox(`/strips/${audio.id}-120.vtt`), 404, 'not_found');
  });
});

describe('a gated storyboard', () => {
  /** A published video of the europe site, as Berlin sees it. */
  async function gatedVideo(): Promise<MediaResponse> {
    const pick = (await allMedia(EUROPE_SITE)).find((m) => isPublic(m) && m.media_type === 'video')!;
    return json<MediaResponse>(await api(`/api/sites/${EUROPE_SITE}/media/${pick.id}`, { ip: BERLIN }));
  }

  it('is a playback URL whose VTT names each sprite image by a playback URL that opens it, the frame kept', async () => {
    const media = await gatedVideo();
    const [track] = storyboardOf(media);
    expect(track).toMatchObject({ kind: 'thumbnails', label: 'Thumbnails', srclang: '', default: false });
    expect(track!.url).toMatch(PLAY);
    expect(track!.url).toMatch(new RegExp(`/${media.id}-120\\.vtt$`));

    const vtt = await api(track!.url, { ip: BERLIN });
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    const text = await vtt.text();
    expect(text).not.toContain('sandbox.test');
    expect(text).not.toContain('/strips/');
    const upstream = await (await sandbox(`/strips/${media.id}-120.vtt`)).text();
    const references = cueLines(text);
    // Every cue is kept, in order, with its timing and frame.
    expect(references.length).toBe(cueLines(upstream).length);
    expect(text.split('\n').filter((l) => l.includes('-->'))).toEqual(upstream.split('\n').filter((l) => l.includes('-->')));
    for (const [i, reference] of references.entries()) {
      const [url, fragment] = reference.split('#');
      expect(url).toMatch(PLAY);
      expect(url).toMatch(new RegExp(`/${media.id}-120\\.svg$`));
      expect(fragment).toBe(cueLines(upstream)[i]!.split('#')[1]);
    }
    // One image: one URL for all its frames.
    const sprite = references[0]!.split('#')[0]!;
    expect(new Set(references.map((r) => r.split('#')[0]))).toEqual(new Set([sprite]));
    const image = await api(sprite, { ip: BERLIN });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    expect(await image.text()).toBe(await (await sandbox(`/strips/${media.id}-120.svg`)).text());

    // The sprite URL obeys the policy like every playback URL.
    await expectError(await api(sprite, { ip: NEW_YORK }), 451, 'playback_denied');
    // It opens that one image: not the VTT, nor another media's sprite, under its token.
    const token = sprite.slice(0, sprite.lastIndexOf('/') + 1);
    const other = (await allMedia(SITE)).find((m) => isPublic(m) && m.media_type === 'video')!;
    const refused = [`${token}${media.id}-120.vtt`, `${token}${other.id}-120.svg`, `${token}${media.id}-240.svg`];
    for (const path of refused) {
      const response = await api(path, { ip: BERLIN });
      expect([403], path).toContain(response.status);
      await response.body?.cancel();
    }
  });

  it('a track token does not open a sprite, nor a sprite token the storyboard', async () => {
    const media = await gatedVideo();
    const [track] = storyboardOf(media);
    const trackToken = track!.url.slice(0, track!.url.lastIndexOf('/') + 1);
    const response = await api(`${trackToken}${media.id}-120.svg`, { ip: BERLIN });
    expect(response.status).toBe(403);
    await response.body?.cancel();
  });
});

describe('the storyboard rewriter', () => {
  const VTT = 'https://cdn.example/strips/Zz9Yy8Xx-120.vtt';
  const play = async (file: URL) => `/api/play/T/${file.pathname.split('/').pop()}`;
  const cue = (ref: string, i = 0) => `00:00:0${i}.000 --> 00:00:0${i + 1}.000\n${ref}\n`;

  it('keeps the media\'s own images (relative or absolute), each as its playback URL with its frame', async () => {
    const text = ['WEBVTT', '', cue('Zz9Yy8Xx-120.jpg#xywh=0,0,120,68'), cue('https://cdn.example/strips/Zz9Yy8Xx-120-2.jpg#xywh=120,0,120,68', 1),
      'id-3', cue('Zz9Yy8Xx-120.jpg', 2)].join('\n');
    const out = await rewriteStoryboard(text, VTT, 'Zz9Yy8Xx', play);
    expect(out).toEqual({
      dropped: 0,
      text: ['WEBVTT', '', '00:00:00.000 --> 00:00:01.000', '/api/play/T/Zz9Yy8Xx-120.jpg#xywh=0,0,120,68', '',
        '00:00:01.000 --> 00:00:02.000', '/api/play/T/Zz9Yy8Xx-120-2.jpg#xywh=120,0,120,68', '',
        '00:00:02.000 --> 00:00:03.000', '/api/play/T/Zz9Yy8Xx-120.jpg', ''].join('\n'),
    });
  });

  it('drops every cue naming anything else: another media, host, folder or scheme, a query, a strange frame', async () => {
    const foreign = [
      'Aa1Bb2Cc-120.jpg#xywh=0,0,120,68', // another media's strip
      'https://evil.example/strips/Zz9Yy8Xx-120.jpg#xywh=0,0,120,68', // another host
      '//evil.example/strips/Zz9Yy8Xx-120.jpg',
      'http://cdn.example/strips/Zz9Yy8Xx-120.jpg', // another scheme is another origin
      '../Zz9Yy8Xx-120.jpg', '/Zz9Yy8Xx-120.jpg', 'sub/Zz9Yy8Xx-120.jpg', '%2e%2e/v2/Zz9Yy8Xx-120.jpg',
      'Zz9Yy8Xx-120.jpg?x=1', 'Zz9Yy8Xx-120.jpg#xywh=0,0,120,68"onerror', 'Zz9Yy8Xx-120.jpg#t=1',
      'javascript:alert(1)', 'data:image/svg+xml,<svg/>', 'https://user:pw@cdn.example/strips/Zz9Yy8Xx-120.jpg',
      'Zz9Yy8Xx-120.vtt', '#xywh=0,0,1,1', 'Zz9Yy8Xx-120.jpg Zz9Yy8Xx-120.jpg',
    ];
    const text = ['WEBVTT', '', ...foreign.map((ref) => cue(ref)), 'NOTE https://evil.example/x.jpg', '',
      '00:00:00.000 --> 00:00:01.000 align:start\nZz9Yy8Xx-120.jpg\nsecond line\n'].join('\n');
    const out = await rewriteStoryboard(text, VTT, 'Zz9Yy8Xx', play);
    expect(out).toEqual({ dropped: foreign.length + 1, text: 'WEBVTT\n' });
    expect(out.text).not.toContain('evil');
  });

  it('refuses what is no WebVTT, and more than its bounds', async () => {
    await expect(rewriteStoryboard('<html>', VTT, 'Zz9Yy8Xx', play)).rejects.toBeInstanceOf(StoryboardRefused);
    await expect(rewriteStoryboard('WEBVTTX\n', VTT, 'Zz9Yy8Xx', play)).rejects.toBeInstanceOf(StoryboardRefused);
    await expect(rewriteStoryboard(`WEBVTT\n${' '.repeat(MAX_STORYBOARD_BYTES)}`, VTT, 'Zz9Yy8Xx', play))
      .rejects.toBeInstanceOf(StoryboardRefused);
  });

  it('the media\'s own storyboard files are those beside its VTT, named for it', () => {
    expect(storyboardFile(VTT, 'Zz9Yy8Xx', 'Zz9Yy8Xx-120.jpg')?.href).toBe('https://cdn.example/strips/Zz9Yy8Xx-120.jpg');
    expect(storyboardFile(VTT, 'Zz9Yy8Xx', 'Zz9Yy8Xx-120.jpg#xywh=1,2,3,4')?.href).toBe('https://cdn.example/strips/Zz9Yy8Xx-120.jpg');
    for (const name of ['Aa1Bb2Cc-120.jpg', 'Zz9Yy8Xx', 'Zz9Yy8Xx-120.vtt', '../Zz9Yy8Xx-120.jpg', 'x/Zz9Yy8Xx-1.jpg']) {
      expect(storyboardFile(VTT, 'Zz9Yy8Xx', name), name).toBeNull();
    }
  });
});
