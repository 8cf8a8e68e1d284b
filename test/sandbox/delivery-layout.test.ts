// The delivery host's layout (demo/sandbox/delivery-paths.ts): every delivery_url the Management API answers is the
// platform's path for that file, on the caller's origin, and opens it.
import { env } from 'cloudflare:test';
import { beforeEach, expect, it } from 'vitest';
import type { DeliveryFeed } from '../../worker/contract/delivery-types.ts';
import { callJson, ORIGIN, reset, sites, type SiteCatalog } from './helpers.ts';

let site: SiteCatalog;
beforeEach(async () => {
  await reset({ rate_limit_per_minute: 10_000 });
  site = (await sites()).big;
});

const ID = '[A-Za-z0-9]{8}';
const open = async (url: string): Promise<Response> => {
  const response = await env.SANDBOX.fetch(url);
  expect(response.status, url).toBe(200);
  return response;
};

it('renditions: /videos/<media>-<rendition>.mp4 (.m4a for audio); a video\'s HLS (the Delivery API\'s first source): /manifests/<media>.m3u8; each opens its file', async () => {
  for (const id of [...site.media.published.slice(0, 3), site.media.audio[0]!]) {
    const { media_renditions: renditions } = (await callJson('GET', `/v2/sites/${site.id}/media/${id}/media_renditions/`)).body;
    expect(renditions.length).toBeGreaterThan(0);
    const audio = (await callJson('GET', `/v2/sites/${site.id}/media/${id}/`)).body.media_type === 'audio';
    for (const rendition of renditions as Array<{ id: string; format: string; delivery_url: string }>) {
      // The Management API lists the MP4 (M4A) files only: HLS is packaged on the delivery side.
      expect(rendition.format).toBe(audio ? 'm4a' : 'mp4');
      expect(rendition.delivery_url).toBe(`${ORIGIN}/videos/${id}-${rendition.id}.${rendition.format}`);
      const response = await open(rendition.delivery_url);
      expect(response.headers.get('content-type')).toBe(audio ? 'audio/mp4' : 'video/mp4');
      await response.body?.cancel();
    }
    const { sources } = (await callJson<DeliveryFeed>('GET', `/v2/media/${id}`, { anonymous: true })).body.playlist[0]!;
    const manifest = `${ORIGIN}/manifests/${id}.m3u8`;
    if (audio) {
      // An audio media has no manifest: its M4A is all the delivery side names.
      expect(sources.map((source) => source.type)).toEqual(['audio/mp4']);
      const missing = await env.SANDBOX.fetch(manifest);
      expect(missing.status, manifest).toBe(404);
      await missing.body?.cancel();
      continue;
    }
    expect(sources[0]).toMatchObject({ file: manifest, type: 'application/vnd.apple.mpegurl' });
    const response = await open(manifest);
    expect(response.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    await response.body?.cancel();
  }
  // A rendition's file is at its own name only: another media's id, or the other extension, is not it.
  const id = site.media.published[0]!;
  const mp4 = (await callJson('GET', `/v2/sites/${site.id}/media/${id}/media_renditions/`)).body.media_renditions
    .find((r: { format: string }) => r.format === 'mp4');
  for (const wrong of [mp4.delivery_url.replace(/\.mp4$/, '.m4a'), mp4.delivery_url.replace(id, site.media.published[1]!)]) {
    const response = await env.SANDBOX.fetch(wrong);
    expect(response.status, wrong).toBe(404);
    await response.body?.cancel();
  }
});

it('the HLS folder is /manifests/<media>/: variants, segments and subtitles, named relative to the master', async () => {
  const id = site.media.with_subtitles[0]!;
  const master = await (await open(`${ORIGIN}/manifests/${id}.m3u8`)).text();
  const uris = [...master.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!)
    .concat(master.split('\n').filter((line) => line && !line.startsWith('#')));
  expect(uris.length).toBeGreaterThan(2);
  for (const uri of uris) {
    expect(uri).toMatch(new RegExp(`^${id}/(360p|720p|subs)/[A-Za-z0-9-]+\\.m3u8$`));
    const url = new URL(uri, `${ORIGIN}/manifests/${id}.m3u8`);
    expect(url.pathname.startsWith(`/manifests/${id}/`)).toBe(true);
    const playlist = await (await open(url.href)).text();
    const first = playlist.split('\n').find((line) => line && !line.startsWith('#'))!;
    expect(first).toMatch(/^(seg-0\.ts|[A-Za-z0-9]+\.vtt)$/);
    const file = await open(new URL(first, url).href);
    expect(file.headers.get('content-type')).toMatch(first.endsWith('.ts') ? /^video\/mp2t$/ : /^text\/vtt/);
    await file.body?.cancel();
  }
});

it('text tracks are /tracks/<track>.vtt, thumbnails /v2/media/<media>/thumbnails/<id>.jpg (SVG, ?width=), and each opens', async () => {
  const id = site.media.with_subtitles[0]!;
  const { text_tracks: tracks } = (await callJson('GET', `/v2/sites/${site.id}/media/${id}/text_tracks/`)).body;
  for (const track of tracks as Array<{ id: string; delivery_url: string }>) {
    expect(track.delivery_url).toBe(`${ORIGIN}/tracks/${track.id}.vtt`);
    expect((await (await open(track.delivery_url)).text()).startsWith('WEBVTT\n')).toBe(true);
  }
  const created = await callJson('POST', `/v2/sites/${site.id}/thumbnails/`, {
    body: { relationships: { media: [{ id }] }, upload: { source_type: 'thumbstrip_image', source_media_id: id, video_position: 2 } },
  });
  expect(created.status).toBe(201);
  expect(created.body.delivery_url).toMatch(new RegExp(`^${ORIGIN}/v2/media/${id}/thumbnails/${ID}\\.jpg$`));
  const image = await open(`${created.body.delivery_url}?width=320`);
  expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  expect(await image.text()).toMatch(/^<svg [^>]*width="320" height="180"/);
  // Under another media's path, the thumbnail is not found.
  const elsewhere = await env.SANDBOX.fetch(created.body.delivery_url.replace(`/media/${id}/`, `/media/${site.media.published[1]}/`));
  expect(elsewhere.status).toBe(404);
  await elsewhere.body?.cancel();
});

it('the poster and the storyboard keep their paths: /v2/media/<media>/poster.jpg and /strips/<media>-120.vtt', async () => {
  const id = site.media.published[0]!;
  expect((await open(`${ORIGIN}/v2/media/${id}/poster.jpg`)).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  const storyboard = await (await open(`${ORIGIN}/strips/${id}-120.vtt`)).text();
  const sprite = storyboard.split('\n').find((line) => line.includes('#xywh='))!;
  expect(sprite).toMatch(new RegExp(`^${id}-120\\.svg#xywh=0,0,120,68$`));
  await (await open(new URL(sprite, `${ORIGIN}/strips/${id}-120.vtt`).href)).body?.cancel();
});

it('the old /cdn/ catalog paths are gone; the fixtures under /cdn/ stay', async () => {
  const id = site.media.published[0]!;
  for (const path of [`/cdn/hls/${id}/master.m3u8`, `/cdn/tracks/x.vtt`, `/cdn/thumbs/x.svg`]) {
    const response = await env.SANDBOX.fetch(`${ORIGIN}${path}`);
    expect(response.status, path).toBe(404);
    await response.body?.cancel();
  }
  for (const path of ['/cdn/hostile/master.m3u8', '/cdn/test-hls/generated/1/sized.m3u8', '/cdn/generated/1.bin']) {
    expect((await (await open(`${ORIGIN}${path}`)).arrayBuffer()).byteLength).toBeGreaterThan(0);
  }
});
