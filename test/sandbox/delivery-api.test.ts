// The Delivery API v2's JSON on the sandbox's delivery side (demo/sandbox/delivery-api.ts): `GET /v2/media/<id>` and
// `GET /v2/playlists/<id>` in the shape of worker/contract/delivery-types.ts, made from the records the Management API
// answers, each site's URL signing enforced, counted apart from the Management API. Every call goes through the
// conformance gate, which holds each 200 answer to test/platform/delivery-schema.json.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryFeed } from '../../worker/contract/delivery-types.ts';
import { checkAnswer, routeKey } from '../platform/conformance.ts';
import { callJson, catalog, control, errorShape, ORIGIN, reset, SIGNING_SECRET, sites, type SiteCatalog } from './helpers.ts';
import { DEFINITION_ITEM } from '../platform/delivery-example.ts';

const HLS = 'application/vnd.apple.mpegurl';
const SEALED_ID = 'nvsLN98U';
const encoder = new TextEncoder();

interface Answer<T> { status: number; body: T; response: Response }

/** A delivery-side call (no credential), its status and JSON body. */
async function deliver<T = DeliveryFeed>(path: string, init?: RequestInit): Promise<Answer<T>> {
  const response = await env.SANDBOX.fetch(path.startsWith('http') ? path : `${ORIGIN}${path}`, init);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, response };
}

async function feed(path: string): Promise<DeliveryFeed> {
  const answer = await deliver(path);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}

async function expectRefused(path: string, status: number, code: string): Promise<string> {
  const answer = await deliver<{ errors: Array<{ code: string; description: string }> }>(path);
  expect(answer.status, path).toBe(status);
  expect(answer.body).toEqual(errorShape(code));
  expect(answer.response.headers.get('access-control-allow-origin')).toBe('*');
  expect(answer.response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return answer.body.errors[0]!.description;
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const now = () => Math.floor(Date.now() / 1000);

async function jwt(claims: Record<string, unknown>, secret = SIGNING_SECRET): Promise<string> {
  const head = base64url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
  const body = base64url(encoder.encode(JSON.stringify(claims)));
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${head}.${body}`)));
  return `${head}.${body}.${base64url(signature)}`;
}

/** `path` with `?token=`: resource the path, exp, and the path's query as claims (`claims` override or add). */
async function signedPath(path: string, claims: Record<string, unknown> = {}, secret = SIGNING_SECRET): Promise<string> {
  const url = new URL(path, ORIGIN);
  const token = await jwt({ resource: url.pathname, exp: now() + 3600, ...Object.fromEntries(url.searchParams), ...claims }, secret);
  url.searchParams.set('token', token);
  return url.pathname + url.search;
}

interface ManagedMedia {
  id: string;
  status: string;
  media_type: string;
  duration: number | null;
  metadata: { title: string; tags: string[]; publish_start_date: string | null; publish_end_date: string | null; custom_params: Record<string, string> };
}

const isPublished = (m: ManagedMedia, at = Date.now()) => m.status === 'ready' && m.metadata.publish_start_date !== null
  && Date.parse(m.metadata.publish_start_date) <= at && (m.metadata.publish_end_date === null || Date.parse(m.metadata.publish_end_date) > at);

async function allMedia(site: string): Promise<ManagedMedia[]> {
  return (await callJson('GET', `/v2/sites/${site}/media/?page_length=1000`)).body.media;
}

async function typedPlaylists(site: SiteCatalog, type: string): Promise<Array<{ id: string; metadata: Record<string, any> }>> {
  const out = [];
  for (const id of site.playlists[type] ?? []) {
    out.push((await callJson('GET', `/v2/sites/${site.id}/playlists/${id}/${type}_playlist/`)).body);
  }
  return out;
}

const plays = async (site: string): Promise<Record<string, number>> =>
  ((await (await control('GET', `plays?site=${site}`)).json()) as { plays: Record<string, number> }).plays;
const stats = async () => (await control('GET', 'stats')).json<Record<string, any>>();
const ids = (answer: DeliveryFeed) => answer.playlist.map((item) => item.mediaid);
const pubdate = (m: ManagedMedia) => Math.floor(Date.parse(m.metadata.publish_start_date!) / 1000);

let big: SiteCatalog;
let media: ManagedMedia[];
beforeEach(async () => {
  await reset({ rate_limit_per_minute: 10_000 });
  big = (await sites()).big;
  media = await allMedia(big.id);
});

describe('GET /v2/media/<id>', () => {
  it('a ready video: the HLS manifest first at /manifests/<id>.m3u8, then its MP4 files widest first, posters, storyboard', async () => {
    const video = media.find((m) => isPublished(m) && m.media_type === 'video')!;
    const answer = await deliver(`/v2/media/${video.id}`);
    expect(answer.status).toBe(200);
    expect(answer.response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.response.headers.get('access-control-allow-origin')).toBe('*');
    const { body } = answer;
    expect(body).toMatchObject({ title: video.metadata.title, kind: 'Single Item' });
    expect(body).not.toHaveProperty('feedid');
    expect(body).not.toHaveProperty('links');
    expect(body.playlist).toHaveLength(1);
    const item = body.playlist[0]!;
    expect(item).not.toHaveProperty('feedid');
    expect(item).toMatchObject({
      mediaid: video.id, title: video.metadata.title, pubdate: pubdate(video), tags: video.metadata.tags.join(', '),
      // The media's own link where it has one (its permalink), else the delivery host's preview page.
      duration: Math.round(video.duration!), link: (video.metadata as { permalink?: string | null }).permalink || `${ORIGIN}/previews/${video.id}`,
      custom: video.metadata.custom_params,
      image: `${ORIGIN}/v2/media/${video.id}/poster.jpg?width=720`,
    });
    expect(item.images).toEqual([320, 480, 640, 720, 1280, 1920].map((width) =>
      ({ src: `${ORIGIN}/v2/media/${video.id}/poster.jpg?width=${width}`, width, type: 'image/jpeg' })));

    expect(item.sources[0]).toEqual({ file: `${ORIGIN}/manifests/${video.id}.m3u8`, type: HLS, width: 1280, height: 720 });
    const renditions = (await callJson('GET', `/v2/sites/${big.id}/media/${video.id}/media_renditions/`)).body.media_renditions as
      Array<{ delivery_url: string; format: string; width: number; height: number; filesize: number }>;
    const mp4 = renditions.filter((r) => r.format === 'mp4').sort((a, b) => b.width - a.width);
    expect(item.sources.slice(1)).toEqual(mp4.map((r) => ({
      file: r.delivery_url, type: 'video/mp4', width: r.width, height: r.height, label: `${r.height}p`, filesize: r.filesize,
    })));
    expect(item.tracks[0]).toEqual({ file: `${ORIGIN}/strips/${video.id}-120.vtt`, kind: 'thumbnails' });
    // Every file it names is served.
    for (const url of [item.image, item.sources[0]!.file, item.sources[1]!.file, item.tracks[0]!.file]) {
      const file = await env.SANDBOX.fetch(url);
      expect(file.status, url).toBe(200);
      await file.body?.cancel();
    }
    // The site's default recommendations playlist, related to this media.
    const recommended = (await typedPlaylists(big, 'recommendations'))[0]!;
    expect(item.recommendations).toBe(`${ORIGIN}/v2/playlists/${recommended.id}?related_media_id=${video.id}`);
    expect((await feed(`/v2/media/${video.id}?poster_width=320`)).playlist[0]!.image).toBe(`${ORIGIN}/v2/media/${video.id}/poster.jpg?width=320`);
  });

  it('serves the manifest without an HLS rendition record: it is packaged from the MP4 renditions', async () => {
    const video = media.find((m) => isPublished(m) && m.media_type === 'video')!;
    const renditions = (await callJson('GET', `/v2/sites/${big.id}/media/${video.id}/media_renditions/`)).body.media_renditions as
      Array<{ id: string; format: string }>;
    for (const r of renditions.filter((r) => r.format === 'm3u8')) {
      expect((await callJson('DELETE', `/v2/sites/${big.id}/media/${video.id}/media_renditions/${r.id}/`)).status).toBe(204);
    }
    const master = await env.SANDBOX.fetch(`${ORIGIN}/manifests/${video.id}.m3u8`);
    expect(master.status).toBe(200);
    expect((await master.text()).match(/#EXT-X-STREAM-INF:/g)).toHaveLength(2);
    expect((await feed(`/v2/media/${video.id}`)).playlist[0]!.sources[0]).toMatchObject({ type: HLS, file: `${ORIGIN}/manifests/${video.id}.m3u8` });
  });

  it('an audio media: its M4A only, no manifest and no storyboard', async () => {
    const item = (await feed(`/v2/media/${big.media.audio[0]}`)).playlist[0]!;
    expect(item.sources).toHaveLength(1);
    expect(item.sources[0]).toMatchObject({ type: 'audio/mp4', label: 'AAC Audio', file: expect.stringMatching(/\/videos\/[A-Za-z0-9]+-[A-Za-z0-9]+\.m4a$/) });
    expect(item.sources[0]).not.toHaveProperty('width');
    expect(item.tracks.filter((t) => t.kind === 'thumbnails')).toEqual([]);
  });

  it('an external media: its own URL, with its type, as its one source', async () => {
    const created = await callJson('POST', `/v2/sites/${big.id}/media/`, { body: {
      metadata: { title: 'Elsewhere', publish_start_date: '2024-01-01T00:00:00Z' },
      upload: { method: 'external', source_url: 'https://media.example.com/clip.m3u8', mime_type: HLS },
    } });
    expect(created.status).toBe(201);
    const item = (await feed(`/v2/media/${created.body.id}`)).playlist[0]!;
    expect(item.sources).toEqual([{ file: 'https://media.example.com/clip.m3u8', type: HLS }]);
    expect(item).toMatchObject({ duration: 0, tracks: [] });
  });

  it('lists published text tracks in menu order, one default; a draft, processing or failed track never', async () => {
    const id = big.media.with_subtitles[0]!;
    const tracks = (await callJson('GET', `/v2/sites/${big.id}/media/${id}/text_tracks/`)).body.text_tracks as
      Array<{ id: string; status: string; track_kind: string; metadata: { label: string; position: number } }>;
    expect(tracks.length).toBeGreaterThan(1);
    const listed = async () => (await feed(`/v2/media/${id}`)).playlist[0]!.tracks.filter((t) => t.kind !== 'thumbnails');
    const inOrder = [...tracks].sort((a, b) => a.metadata.position - b.metadata.position);
    const before = await listed();
    expect(before.map((t) => t.file)).toEqual(inOrder.map((t) => `${ORIGIN}/tracks/${t.id}.vtt`));
    expect(before.map((t) => [t.kind, t.label])).toEqual(inOrder.map((t) => [t.track_kind, t.metadata.label]));
    expect(before.filter((t) => t.default === true)).toHaveLength(1);
    expect(before.every((t) => t.default === undefined || t.default === true)).toBe(true);

    const [drafted] = inOrder;
    expect((await callJson('PUT', `/v2/sites/${big.id}/media/${id}/text_tracks/${drafted!.id}/unpublish/`)).status).toBe(204);
    expect((await callJson('GET', `/v2/sites/${big.id}/media/${id}/text_tracks/${drafted!.id}/`)).body.status).toBe('draft');
    expect((await listed()).map((t) => t.file)).not.toContain(`${ORIGIN}/tracks/${drafted!.id}.vtt`);
    expect(await listed()).toHaveLength(before.length - 1);
    // A new track uploaded without auto-publishing is a draft too; published, it shows.
    const draft = await callJson('POST', `/v2/sites/${big.id}/media/${id}/text_tracks/`, { body: {
      metadata: { label: 'Draft', srclang: 'it', track_kind: 'subtitles' },
      upload: { method: 'fetch', file_format: 'vtt', auto_publish: false, download_url: 'https://captions.example.com/it.vtt' },
    } });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect((await listed()).map((t) => t.label)).not.toContain('Draft');
    expect((await callJson('PUT', `/v2/sites/${big.id}/media/${id}/text_tracks/${draft.body.id}/publish/`)).status).toBe(204);
    expect((await listed()).map((t) => t.label)).toContain('Draft');
  });

  it('a media that is not published is 404: scheduled, expired, never scheduled, not ready; and an unknown one', async () => {
    for (const id of [big.media.scheduled[0], big.media.expired[0], big.media.unscheduled[0], big.media.not_ready[0], 'Nope1234']) {
      await expectRefused(`/v2/media/${id}`, 404, 'not_found');
    }
    // The Management API still answers them.
    expect((await callJson('GET', `/v2/sites/${big.id}/media/${big.media.scheduled[0]}/`)).status).toBe(200);
    // Only the exact path is JSON: the poster stays an image.
    const poster = await env.SANDBOX.fetch(`${ORIGIN}/v2/media/${big.media.published[0]}/poster.jpg`);
    expect(poster.headers.get('content-type')).toMatch(/^image\//);
    await poster.body?.cancel();
  });

  it('refuses a poster_width outside the definition\'s enum and a format it does not serve', async () => {
    const id = big.media.published[0]!;
    expect(await expectRefused(`/v2/media/${id}?poster_width=100`, 400, 'invalid_parameter')).toContain('poster_width');
    expect(await expectRefused(`/v2/media/${id}?format=mrss`, 400, 'invalid_parameter')).toContain('json');
    expect((await deliver(`/v2/media/${id}?format=json&poster_width=1920`)).status).toBe(200);
  });
});

describe('GET /v2/playlists/<id>', () => {
  it('a manual playlist: its published media, in its order', async () => {
    const mixed = (await typedPlaylists(big, 'manual')).find((p) => p.metadata.title === 'Coming Soon and Archive')!;
    const byId = new Map(media.map((m) => [m.id, m]));
    const listed = mixed.metadata.media_filter.include.values as string[];
    const expected = listed.filter((id) => isPublished(byId.get(id)!));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(listed.length);
    const answer = await feed(`/v2/playlists/${mixed.id}`);
    expect(answer).toMatchObject({ title: 'Coming Soon and Archive', kind: 'MANUAL', feedid: mixed.id });
    expect(ids(answer)).toEqual(expected);
    expect(answer.playlist.every((item) => item.feedid === mixed.id)).toBe(true);
    await expectRefused('/v2/playlists/Nope1234', 404, 'not_found');
  });

  it('a dynamic playlist: its tag filter, sorted by its sort, within its limit', async () => {
    const food = (await typedPlaylists(big, 'dynamic')).find((p) => p.metadata.media_filter.sort === 'publish_start_date:dsc')!;
    const tag = food.metadata.tag_filter.include.values[0] as string;
    const expected = media.filter((m) => isPublished(m) && m.metadata.tags.includes(tag))
      .sort((a, b) => pubdate(b) - pubdate(a) || (a.id < b.id ? -1 : 1)).slice(0, food.metadata.media_filter.limit);
    const answer = await feed(`/v2/playlists/${food.id}`);
    expect(answer.kind).toBe('DYNAMIC');
    expect(ids(answer)).toEqual(expected.map((m) => m.id));
  });

  it('a trending playlist is ordered by plays; playing a media (its manifest, or a video file from its start) moves it up', async () => {
    const trending = (await typedPlaylists(big, 'dynamic')).find((p) => p.metadata.media_filter.sort === 'trending:dsc')!;
    const first = await feed(`/v2/playlists/${trending.id}`);
    expect(first.playlist).toHaveLength(trending.metadata.media_filter.limit);
    let counts = await plays(big.id);
    const order = ids(first);
    for (let i = 1; i < order.length; i++) expect(counts[order[i - 1]!]).toBeGreaterThanOrEqual(counts[order[i]!]!);
    // Seeded counts, not the newest-first order; the same after a reset.
    const newest = [...media].filter(isPublished).sort((a, b) => pubdate(b) - pubdate(a)).slice(0, order.length).map((m) => m.id);
    expect(order).not.toEqual(newest);
    await reset({ rate_limit_per_minute: 10_000 });
    expect(ids(await feed(`/v2/playlists/${trending.id}`))).toEqual(order);

    const [leader, second] = order as [string, string];
    const needed = counts[leader]! - counts[second]! + 1;
    for (let i = 0; i < needed; i++) {
      const master = await env.SANDBOX.fetch(`${ORIGIN}/manifests/${second}.m3u8`);
      expect(master.status).toBe(200);
      await master.body?.cancel();
    }
    counts = await plays(big.id);
    expect(counts[second]).toBe(counts[leader]! + 1);
    expect(ids(await feed(`/v2/playlists/${trending.id}`)).slice(0, 2)).toEqual([second, leader]);

    // A whole MP4, or one from byte 0, is a play; a later range is the same play going on; a HEAD is none.
    const mp4 = (await feed(`/v2/media/${leader}`)).playlist[0]!.sources.find((s) => s.type === 'video/mp4')!.file;
    const before = (await plays(big.id))[leader]!;
    for (const init of [{}, { headers: { range: 'bytes=0-99' } }, { headers: { range: 'bytes=100-199' } }, { method: 'HEAD' }]) {
      await (await env.SANDBOX.fetch(mp4, init)).body?.cancel();
    }
    expect((await plays(big.id))[leader]).toBe(before + 2);
  });

  it('a recommendations playlist: media sharing tags with related_media_id, most shared first, never the media itself', async () => {
    const similar = (await typedPlaylists(big, 'recommendations'))[0]!;
    const related = media.find((m) => isPublished(m) && m.metadata.tags.length >= 3)!;
    const answer = await feed(`/v2/playlists/${similar.id}?related_media_id=${related.id}`);
    expect(answer.kind).toBe('SIMILAR');
    const shared = (id: string) => media.find((m) => m.id === id)!.metadata.tags.filter((t) => related.metadata.tags.includes(t)).length;
    const expected = media.filter((m) => isPublished(m) && m.id !== related.id && shared(m.id) > 0)
      .sort((a, b) => shared(b.id) - shared(a.id) || pubdate(b) - pubdate(a) || (a.id < b.id ? -1 : 1))
      .slice(0, similar.metadata.media_filter.limit).map((m) => m.id);
    expect(expected.length).toBeGreaterThan(1);
    expect(ids(answer)).toEqual(expected);
    expect(await expectRefused(`/v2/playlists/${similar.id}`, 400, 'invalid_parameter')).toContain('related_media_id');
    await expectRefused(`/v2/playlists/${similar.id}?related_media_id=Nope1234`, 404, 'not_found');
    await expectRefused(`/v2/playlists/${similar.id}?related_media_id=${big.media.scheduled[0]}`, 404, 'not_found');
  });

  it('an article-matching playlist: media matching the words of the article\'s title in search, within its own filters', async () => {
    // The platform's embed asks `search=__CONTEXTUAL__` and its player fills in the page's title: a phrase, not a media.
    const article = (await typedPlaylists(big, 'article_matching'))[0]!;
    expect(await expectRefused(`/v2/playlists/${article.id}`, 400, 'invalid_parameter')).toContain('search');
    const title = media.find((m) => isPublished(m) && !m.metadata.tags.includes('fitness'))!.metadata.title;
    const matched = await feed(`/v2/playlists/${article.id}?search=${encodeURIComponent(title)}`);
    expect(matched.kind).toBe('ARTICLE_MATCHING');
    expect(matched.playlist.length).toBeGreaterThan(0);
    expect(matched.playlist.length).toBeLessThanOrEqual(article.metadata.media_filter.limit);
    // The seed's article-matching playlist excludes `fitness`: no such media, however well its words match.
    expect(matched.playlist.every((item) => !(item.tags ?? '').split(', ').includes('fitness'))).toBe(true);
  });

  it('a search playlist: media matching the words of search, most words first, within its filters', async () => {
    const search = (await typedPlaylists(big, 'search'))[0]!;
    const travel = media.filter((m) => isPublished(m) && m.metadata.tags.includes('travel'));
    const [one, other] = [travel[0]!.metadata.title.split(' ')[0]!, travel.find((m) => !m.metadata.title.startsWith(travel[0]!.metadata.title.split(' ')[0]!))!.metadata.title.split(' ')[0]!];
    const answer = await feed(`/v2/playlists/${search.id}?search=${encodeURIComponent(`${one} ${other}`)}`);
    expect(answer.kind).toBe('SEARCH');
    const matched = (m: ManagedMedia) => [one, other].filter((w) => [m.metadata.title, ...m.metadata.tags].some((t) => t.toLowerCase().includes(w.toLowerCase()))
      || ((m as unknown as { metadata: { description: string | null } }).metadata.description ?? '').toLowerCase().includes(w.toLowerCase())).length;
    const expected = travel.filter((m) => matched(m) > 0)
      .sort((a, b) => matched(b) - matched(a) || pubdate(b) - pubdate(a) || (a.id < b.id ? -1 : 1)).slice(0, search.metadata.media_filter.limit);
    expect(ids(answer)).toEqual(expected.map((m) => m.id));
    expect(answer.playlist.length).toBeGreaterThan(1);
    expect(answer.playlist.every((item) => (item.tags ?? '').split(', ').includes('travel'))).toBe(true);
    expect(await expectRefused(`/v2/playlists/${search.id}`, 400, 'invalid_parameter')).toContain('search');
    await expectRefused(`/v2/playlists/${search.id}?search=%20%20`, 400, 'invalid_parameter');
  });

  it('pages by page_offset (the first item\'s position) and page_limit, with absolute links to the others', async () => {
    const food = (await typedPlaylists(big, 'dynamic')).find((p) => p.metadata.media_filter.sort === 'publish_start_date:dsc')!;
    const whole = ids(await feed(`/v2/playlists/${food.id}`));
    expect(whole.length).toBeGreaterThan(12);
    // Pages of 6 line up on the first item: the last starts at 1 + 6k.
    const last = Math.floor((whole.length - 1) / 6) * 6 + 1;
    const path = `/v2/playlists/${food.id}`;
    const first = await feed(`${path}?page_limit=6&poster_width=320`);
    expect(ids(first)).toEqual(whole.slice(0, 6));
    expect(first.links).toEqual({
      first: `${ORIGIN}${path}?poster_width=320&page_offset=1&page_limit=6`,
      next: `${ORIGIN}${path}?poster_width=320&page_offset=7&page_limit=6`,
      last: `${ORIGIN}${path}?poster_width=320&page_offset=${last}&page_limit=6`,
    });
    // Following `next` walks the whole playlist once.
    const walked: string[] = [];
    let next: string | undefined = first.links!.first;
    while (next) {
      const page = await feed(next);
      walked.push(...ids(page));
      expect(page.playlist.every((item) => item.image.endsWith('width=320'))).toBe(true);
      next = page.links!.next;
    }
    expect(walked).toEqual(whole);
    const middle = await feed(`${path}?page_offset=7&page_limit=6`);
    expect(ids(middle)).toEqual(whole.slice(6, 12));
    expect(middle.links).toMatchObject({ prev: `${ORIGIN}${path}?page_offset=1&page_limit=6`, next: `${ORIGIN}${path}?page_offset=13&page_limit=6` });
    const end = await feed(`${path}?page_offset=${last}&page_limit=6`);
    expect(ids(end)).toEqual(whole.slice(last - 1));
    expect(end.links).not.toHaveProperty('next');
    expect((await feed(`${path}?page_offset=${whole.length + 1}`)).playlist).toEqual([]);

    for (const bad of ['page_limit=0', 'page_limit=101', 'page_limit=abc', 'page_limit=1.5', 'page_limit=-1', 'page_offset=0',
      'page_offset=x', 'poster_width=100', 'page_limit=5&page_limit=6']) {
      expect(await expectRefused(`${path}?${bad}`, 400, 'invalid_parameter'), bad).toMatch(/page_limit|page_offset|poster_width/);
    }
    expect(ids(await feed(`${path}?page_limit=100`))).toEqual(whole);
  });

  it('a watchlist is refused as a feed: it has no viewer here', async () => {
    const created = await callJson('POST', `/v2/sites/${big.id}/playlists/watchlist_playlist/`, { body: { metadata: { title: 'Saved' } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(await expectRefused(`/v2/playlists/${created.body.id}`, 400, 'invalid_parameter')).toContain('watchlist');
  });
});

describe('URL signing of the Delivery API', () => {
  it('a site that signs refuses an unsigned or wrongly signed call with 403, and answers a signed one with signed URLs that play', async () => {
    const sealed = (await catalog()).sites.find((s) => s.id === SEALED_ID)!;
    const playlist = sealed.playlists.manual![0]!;
    const path = `/v2/playlists/${playlist}`;
    const forbidden = async (url: string) => {
      await expectRefused(url, 403, 'access_forbidden');
    };
    await forbidden(path);
    await forbidden(await signedPath(path, {}, 'another-secret'));
    await forbidden(await signedPath(path, { resource: `/v2/playlists/${playlist}x` }));
    await forbidden(await signedPath(path, { resource: `/v2/media/${sealed.media.published[0]}` }));
    await forbidden(await signedPath(path, { exp: now() - 5 }));
    // A parameter in the URL the token does not claim, or claims with another value.
    const plain = new URL(await signedPath(path), ORIGIN);
    await forbidden(`${plain.pathname}?page_limit=2&${plain.searchParams}`);
    const claimed = new URL(await signedPath(`${path}?page_limit=2`), ORIGIN);
    claimed.searchParams.set('page_limit', '3');
    await forbidden(claimed.pathname + claimed.search);
    await forbidden(`/v2/media/${sealed.media.published[0]}`);

    const signed = await feed(await signedPath(`${path}?page_limit=2`));
    expect(signed.playlist).toHaveLength(2);
    const files = signed.playlist.flatMap((item) => [
      ...item.sources.map((s) => s.file), ...item.tracks.map((t) => t.file),
    ]);
    for (const file of files) expect(new URL(file).searchParams.get('sig'), file).toMatch(/^[0-9a-f]{32}$/);
    const images = signed.playlist.flatMap((item) => [item.image, ...item.images!.map((i) => i.src)]);
    for (const image of images) expect(new URL(image).searchParams.get('token'), image).not.toBeNull();
    // The delivery host serves each of them: manifest, MP4s, storyboard, text tracks, posters; and the next page.
    for (const url of [...files, ...images.slice(0, 3)]) {
      const response = await env.SANDBOX.fetch(url);
      expect(response.status, url).toBe(200);
      await response.body?.cancel();
    }
    expect(signed.links!.next).toContain('token=');
    const second = await feed(signed.links!.next!);
    expect(second.playlist.length).toBeGreaterThan(0);
    expect(ids(second)).not.toContain(signed.playlist[0]!.mediaid);

    // The same for a media of the site; the files it names are the signed ones.
    const id = signed.playlist[0]!.mediaid;
    const item = (await feed(await signedPath(`/v2/media/${id}?poster_width=480`))).playlist[0]!;
    expect(new URL(item.image).searchParams.get('width')).toBe('480');
    const poster = await env.SANDBOX.fetch(item.image);
    expect(poster.status).toBe(200);
    expect(await poster.text()).toContain('width="480"');
    const unsigned = await env.SANDBOX.fetch(item.sources[0]!.file.split('?')[0]!);
    expect(unsigned.status).toBe(403);
    await unsigned.body?.cancel();
  });

  it('a site that does not sign answers unsigned calls with unsigned URLs', async () => {
    const item = (await feed(`/v2/media/${big.media.with_subtitles[0]}`)).playlist[0]!;
    const urls = [item.image, ...item.sources.map((s) => s.file), ...item.tracks.map((t) => t.file)];
    for (const url of urls) expect(new URL(url).search.replace(/^\?width=\d+$/, ''), url).toBe('');
  });
});

describe('counting', () => {
  it('delivery calls are counted as delivery_calls (and delivery_signed_calls), never as Management calls', async () => {
    await callJson('GET', `/v2/sites/${big.id}/media/`);
    const before = await stats();
    expect(before).toMatchObject({ total_calls: 2, delivery_calls: 0, delivery_signed_calls: 0 });
    await deliver(`/v2/media/${big.media.published[0]}`);
    await deliver('/v2/playlists/Nope1234');
    await deliver(await signedPath(`/v2/media/${big.media.published[1]}`, {}, 'wrong'));
    const after = await stats();
    expect(after).toMatchObject({ total_calls: 2, routes: before.routes, peak_calls_per_minute: before.peak_calls_per_minute,
      delivery_calls: 3, delivery_signed_calls: 1 });
    // Nor do they use up the Management API's rate window.
    expect((await callJson('GET', `/v2/sites/${big.id}/media/`)).response.headers.get('svc-request-remaining')).toBe('9997');
    await reset();
    expect(await stats()).toMatchObject({ delivery_calls: 0, delivery_signed_calls: 0 });
  });
});

describe('scripted delivery answers', () => {
  it('a test scripts GET /v2/media/:media; the gate holds the script to the schema', async () => {
    const [first, second] = big.media.published as [string, string];
    const real = await feed(`/v2/media/${first}`);
    const body = { ...real, title: 'Scripted' };
    expect((await control('POST', 'scripted', { route: 'GET /v2/media/:media', params: { media: first }, body, times: 1 })).status).toBe(200);
    const answer = await deliver(`/v2/media/${first}`);
    expect(answer.body).toEqual(body);
    expect(answer.response.headers.get('access-control-allow-origin')).toBe('*');
    expect((await feed(`/v2/media/${first}`)).title).toBe(real.title);
    // A 200 the schema rules out (an item without mediaid) reaches the caller as the gate's 500.
    const { mediaid: _dropped, ...withoutId } = real.playlist[0]!;
    await control('POST', 'scripted', { route: 'GET /v2/playlists/:playlist', body: { playlist: [withoutId] } });
    const refused = await deliver<{ errors: Array<{ code: string; description: string }> }>(`/v2/playlists/Anything`);
    expect(refused.status).toBe(500);
    expect(refused.body.errors[0]).toMatchObject({ code: 'nonconformant_answer', description: expect.stringContaining('mediaid') });
    expect((await control('POST', 'scripted', { route: 'GET /v2/media/:nope' })).status).toBe(400);
    expect((await feed(`/v2/media/${second}`)).playlist[0]!.mediaid).toBe(second);
  });
});

describe('test/platform/delivery-schema.json', () => {
  it('knows the two routes, and not the delivery host\'s images', () => {
    expect(routeKey('GET', '/v2/media/ghZEPsKo')).toBe('GET /v2/media/{media_id}');
    expect(routeKey('GET', '/v2/playlists/Xw0oaD4q')).toBe('GET /v2/playlists/{playlist_id}');
    expect(routeKey('GET', '/v2/media/ghZEPsKo/poster.jpg')).toBeNull();
  });

  it('accepts the definition\'s own examples', () => {
    const playlist = { title: 'Recommended Videos', kind: 'FEED', description: 'Feed ID used in recommended feeds widget demo.', playlist: [DEFINITION_ITEM], feedid: 'Xw0oaD4q' };
    expect(checkAnswer('GET', '/v2/playlists/Xw0oaD4q', 200, JSON.stringify(playlist)).violations).toEqual([]);
    expect(checkAnswer('GET', '/v2/media/ghZEPsKo', 200, JSON.stringify({ playlist: [DEFINITION_ITEM] })).violations).toEqual([]);
  });

  it('rejects an item without mediaid, a member it does not name, and a wrong type', () => {
    const { mediaid: _dropped, ...withoutId } = DEFINITION_ITEM;
    const violations = checkAnswer('GET', '/v2/media/ghZEPsKo', 200, JSON.stringify({ playlist: [withoutId] })).violations;
    expect(violations.join('\n')).toContain('mediaid');
    expect(checkAnswer('GET', '/v2/media/ghZEPsKo', 200, JSON.stringify({ playlist: [{ ...DEFINITION_ITEM, poster: 'x' }] })).violations).not.toEqual([]);
    expect(checkAnswer('GET', '/v2/media/ghZEPsKo', 200, JSON.stringify({ playlist: [{ ...DEFINITION_ITEM, duration: '134' }] })).violations).not.toEqual([]);
    expect(checkAnswer('GET', '/v2/media/ghZEPsKo', 404, '{"errors":[{"code":"not_found","description":"Not Found"}]}').violations).toEqual([]);
  });
});
