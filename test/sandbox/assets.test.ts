// What delivery URLs serve: SVG thumbnails honouring ?width=, WebVTT with real cues, and a clear 404 for video bytes.
import { env } from 'cloudflare:test';
import { beforeEach, expect, it } from 'vitest';
import { callJson, reset, sites, type SiteCatalog } from './helpers.ts';

let site: SiteCatalog;
beforeEach(async () => {
  await reset({ rate_limit_per_minute: 10_000 });
  site = (await sites()).big;
});

it('a thumbnail delivery URL serves an SVG image, sized by ?width=', async () => {
  const media = (await callJson('GET', `/v2/sites/${site.id}/media/${site.media.published[0]}/`)).body;
  const url = media.relationships.poster.delivery_url as string;
  const image = await env.SANDBOX.fetch(url);
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  const svg = await image.text();
  expect(svg).toMatch(/^<svg [^>]*width="1920" height="1080"/);
  const small = await (await env.SANDBOX.fetch(`${url}?width=320`)).text();
  expect(small).toMatch(/^<svg [^>]*width="320" height="180"/);
  expect((await env.SANDBOX.fetch(`${url}?width=huge`)).status).toBe(400);
});

it('a text track delivery URL serves WebVTT with cues', async () => {
  const id = site.media.with_subtitles[0]!;
  const tracks = (await callJson('GET', `/v2/sites/${site.id}/media/${id}/text_tracks/`)).body.text_tracks;
  for (const track of tracks) {
    const response = await env.SANDBOX.fetch(track.delivery_url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/vtt/);
    const text = await response.text();
    expect(text.startsWith('WEBVTT\n')).toBe(true);
    expect(text).toMatch(/\n\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}\n.+/);
  }
});

it('rendition delivery URLs say plainly that the sandbox holds no video bytes', async () => {
  const renditions = (await callJson('GET', `/v2/sites/${site.id}/media/${site.media.published[1]}/media_renditions/`)).body.media_renditions;
  const response = await env.SANDBOX.fetch(renditions[0].delivery_url);
  expect(response.status).toBe(404);
  const body = await response.json<{ errors: Array<{ code: string; description: string }> }>();
  expect(body.errors[0]!.code).toBe('not_found');
  expect(body.errors[0]!.description).toMatch(/no audio or video bytes/);
});
