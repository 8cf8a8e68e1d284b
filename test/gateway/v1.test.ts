// The v1 compatibility layer: v1 read routes, tag delete/update and usage show answered through v2 with v1 names and
// fields, errors in the v1 shape, and a clear refusal for the routes it does not serve.
import { beforeEach, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import type { Media, MediaRenditionList, OriginalList, Playlist, TextTrackList, Thumbnail } from '../../worker/contract/v2-types.ts';
import {
  callsTo, catalog, createKey, direct, expectError, gateway, resetGateway, SITE, EUROPE_SITE, stats, type CreatedKey,
} from './helpers.ts';

beforeEach(() => resetGateway());

const V2 = `/v2/sites/${SITE}`;
/** Every v1 answer that succeeds carries v1's rate_limit object (the key's share of the budget). */
const RATE_LIMIT = { reset: expect.any(Number), limit: expect.any(Number), remaining: expect.any(Number) };

async function v1(path: string, key: CreatedKey, init: RequestInit = {}): Promise<{ status: number; body: any; response: Response }> {
  const response = await gateway(path, { ...init, headers: { ...key.auth, ...(init.headers as Record<string, string> ?? {}) } });
  return { status: response.status, body: await response.json(), response };
}

function expectV1Error(result: { status: number; body: any }, status: number, code: string): void {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body).toEqual({ status: 'error', code, title: expect.any(String), message: expect.any(String) });
}

describe('v1 read routes', () => {
  let key: CreatedKey;
  let site: any;
  beforeEach(async () => {
    key = await createKey(['read'], [SITE]);
    site = (await catalog()).sites.find((s: { id: string }) => s.id === SITE);
  });

  it('videos/show: a v2 media with v1 field names', async () => {
    const id = site.media.published[0];
    const media = (await direct<Media>(`${V2}/media/${id}/`)).body;
    // The key is limited to one site, so site_id may be left out; the old signature parameters are ignored.
    const { status, body } = await v1(`/v1/videos/show?video_key=${id}&api_key=old&api_signature=old&api_nonce=1`, key);
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.video).toMatchObject({
      key: id, title: media.metadata.title, link: media.metadata.permalink, tags: media.metadata.tags.join(', '),
      date: Math.floor(Date.parse(media.metadata.publish_start_date!) / 1000), mediatype: media.media_type,
    });
    expect(body.video).not.toHaveProperty('publish_start_date');
    expect(body.video).not.toHaveProperty('metadata');
  });

  it('videos/list pages with result_limit/result_offset through v2 paging', async () => {
    const { status, body } = await v1(`/v1/videos/list?site_id=${SITE}&result_limit=5&result_offset=10`, key);
    expect(status).toBe(200);
    const v2 = (await direct<{ media: Media[]; total: number }>(`${V2}/media/?page=3&page_length=5`)).body;
    expect(body).toMatchObject({ status: 'ok', limit: 5, offset: 10, total: v2.total });
    expect(body.videos.map((v: { key: string }) => v.key)).toEqual(v2.media.map((m) => m.id));
    expectV1Error(await v1(`/v1/videos/list?result_limit=0`, key), 400, 'ParamInvalid');
    expectV1Error(await v1(`/v1/videos/list?result_offset=-1`, key), 400, 'ParamInvalid');
  });

  it('channels, players, conversions, tracks and thumbnails', async () => {
    const dynamic = site.playlists.dynamic[0];
    const playlist = (await direct<Playlist>(`${V2}/playlists/${dynamic}/`)).body;
    const { title, description, author, link, custom_params: custom } = playlist.metadata;
    const expected = { key: dynamic, title, description, author, link, type: 'dynamic', custom };
    // With the v1 type, the typed form is read (its answer names no type): the channel still says which it is. The
    // v2 rules (tag_filter, media_filter, ...) have no v1 field: the channel carries the playlist's own fields only.
    const channel = await v1(`/v1/channels/show?channel_key=${dynamic}&type=dynamic`, key);
    expect(channel.status).toBe(200);
    expect(channel.body.channel).toEqual(expected);
    expect((await v1(`/v1/channels/show?channel_key=${dynamic}`, key)).body.channel).toEqual(expected);
    expectV1Error(await v1(`/v1/channels/show?channel_key=${dynamic}&type=manual`, key), 404, 'NotFound');
    const channels = (await v1('/v1/channels/list?result_limit=2', key)).body.channels;
    expect(channels).toHaveLength(2);
    for (const listed of channels) expect(Object.keys(listed).sort()).toEqual(['author', 'custom', 'description', 'key', 'link', 'title', 'type']);

    const player = await v1(`/v1/players/show?player_key=${site.players[0]}`, key);
    expect(player.body.player).toMatchObject({ key: site.players[0], name: expect.any(String), release_channel: expect.any(String) });
    expect(player.body.player).not.toHaveProperty('setup_config');

    const id = site.media.with_subtitles[0] ?? site.media.published[0];
    const before = await stats();
    const conversions = await v1(`/v1/videos/conversions/list?video_key=${id}`, key);
    const after = await stats();
    expect(callsTo(after, 'media_renditions/') - callsTo(before, 'media_renditions/')).toBe(1);
    expect(callsTo(after, 'originals/') - callsTo(before, 'originals/')).toBe(1);
    const renditions = (await direct<MediaRenditionList>(`${V2}/media/${id}/media_renditions/`)).body.media_renditions;
    const originals = (await direct<OriginalList>(`${V2}/media/${id}/originals/`)).body.originals;
    // v1 listed every conversion: two v2 lists make one.
    expect(conversions.body.conversions).toHaveLength(renditions.length + originals.length);
    expect(conversions.body.conversions.find((c: { key: string }) => c.key === renditions[0]!.id))
      .toMatchObject({ link: renditions[0]!.delivery_url, filesize: String(renditions[0]!.filesize) });

    // v1's conversions: an original has no link and its size as text; renditions keep theirs.
    expect(conversions.body.conversions.find((c: { key: string }) => c.key === originals[0]!.id))
      .toEqual({ key: originals[0]!.id, status: 'ready', link: null, filesize: originals[0]!.size, width: null, height: null, mediatype: 'original' });
    // A video rendition is a conversion of mediatype video with its picture's size (the platform lists no HLS one).
    const video = renditions.find((r) => r.format === 'mp4')!;
    expect(conversions.body.conversions.find((c: { key: string }) => c.key === video.id))
      .toMatchObject({ mediatype: 'video', width: video.width, height: video.height });

    const tracks = (await direct<TextTrackList>(`${V2}/media/${id}/text_tracks/`)).body.text_tracks;
    const track = await v1(`/v1/videos/tracks/show?video_key=${id}&track_key=${tracks[0]!.id}`, key);
    expect(track.body.track).toMatchObject({ key: tracks[0]!.id, language: tracks[0]!.metadata.srclang, kind: tracks[0]!.track_kind, status: 'ready' });
    expect(track.body.track.link).toEqual(expect.objectContaining({ protocol: expect.any(String), address: expect.any(String) }));
    // v1's default track is the first captions or subtitles track of the menu (the v2 track has no flag): one of them.
    const listed = await v1(`/v1/videos/tracks/list?video_key=${id}`, key);
    expect(listed.body.tracks).toHaveLength(tracks.length);
    expect(listed.body.tracks.filter((t: { default: boolean }) => t.default)).toHaveLength(1);

    // No route lists a media's thumbnails: show one made for the test.
    const made = await env.SANDBOX.fetch(`http://sandbox.test${V2}/thumbnails/`, {
      method: 'POST', headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ relationships: { media: [{ id }] }, upload: { source_type: 'thumbstrip_image', source_media_id: id, thumbstrip_index: 2 } }),
    });
    const created = await made.json() as Thumbnail;
    const thumbnail = await v1(`/v1/videos/thumbnails/show?thumbnail_key=${created.id}`, key);
    expect(thumbnail.body.thumbnail).toEqual({
      key: created.id, status: 'ready', link: created.delivery_url, source_type: 'thumbstrip_image', videos: [{ key: id }],
    });
  });

  it('errors come back in the v1 shape with the v2 status', async () => {
    expectV1Error(await v1('/v1/videos/show?video_key=zzzzzzzz', key), 404, 'NotFound');
    expectV1Error(await v1('/v1/videos/show', key), 400, 'ParamMissing');
    expectV1Error(await v1('/v1/videos/show?video_key=../x', key), 400, 'ParamInvalid');
    expectV1Error(await v1('/v1/videos/list?colour=red', key), 400, 'ParamInvalid');
    expectV1Error(await v1(`/v1/videos/list?site_id=${EUROPE_SITE}`, key), 403, 'PermissionDenied');
    const anonymous = await gateway('/v1/videos/list');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ status: 'error', code: 'ApiKeyMissing' });
    const unknown = await gateway('/v1/videos/list', { headers: { authorization: `Bearer rg_${'x'.repeat(43)}` } });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ status: 'error', code: 'ApiKeyInvalid' });
    const everywhere = await createKey(['read'], ['*']);
    expectV1Error(await v1('/v1/videos/list', everywhere), 400, 'ParamMissing');
  });
});

describe('v1 actions', () => {
  let key: CreatedKey;
  beforeEach(async () => {
    key = await createKey(['read', 'write'], [SITE]);
  });

  it('accounts/tags/delete removes the tag through remove_tag', async () => {
    const tagged = (await direct<{ total: number }>(`${V2}/media/?q=tags:news`)).body.total;
    expect(tagged).toBeGreaterThan(0);
    const { status, body } = await v1('/v1/accounts/tags/delete', key, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'tag=news',
    });
    // The platform accepts a tag action (202) and reports nothing about it; v1 says ok, with its rate_limit.
    expect(status).toBe(202);
    expect(body).toEqual({ status: 'ok', rate_limit: RATE_LIMIT });
    expect((await direct<{ total: number }>(`${V2}/media/?q=tags:news`)).body.total).toBe(0);
    expect(callsTo(await stats(), 'PUT', 'remove_tag/')).toBe(1);
  });

  it('accounts/tags/update renames through rename_tag (tag_new is v1\'s new_tag)', async () => {
    const tagged = (await direct<{ total: number }>(`${V2}/media/?q=tags:football`)).body.total;
    const either = (await direct<{ total: number }>(`${V2}/media/?q=tags:football OR tags:soccer`)).body.total;
    expect(tagged).toBeGreaterThan(0);
    const { status, body } = await v1('/v1/accounts/tags/update?tag=football&tag_new=soccer', key);
    expect(status).toBe(202);
    expect(body).toEqual({ status: 'ok', rate_limit: RATE_LIMIT });
    expect((await direct<{ total: number }>(`${V2}/media/?q=tags:football`)).body.total).toBe(0);
    expect((await direct<{ total: number }>(`${V2}/media/?q=tags:soccer`)).body.total).toBe(either);
    expect(callsTo(await stats(), 'PUT', 'rename_tag/')).toBe(1);
    expectV1Error(await v1('/v1/accounts/tags/update?tag=football', key), 400, 'ParamMissing');
  });

  it('accounts/usage/show asks query_usage and answers v1 names; dates may be Unix seconds', async () => {
    const start = Date.UTC(2026, 0, 1) / 1000;
    const { status, body } = await v1(`/v1/accounts/usage/show?start_date=${start}&end_date=2026-01-31`, key);
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', usage: {
      account_key: SITE, start_date: '2026-01-01', end_date: '2026-01-31',
      plays: expect.any(Number), traffic: expect.any(Number), storage: expect.any(Number), api_calls: expect.any(Number),
    }, rate_limit: RATE_LIMIT });
    expect(callsTo(await stats(), 'PUT', 'query_usage/')).toBe(1);
  });

  it('a read-only key cannot use the tag actions', async () => {
    const reader = await createKey(['read'], [SITE]);
    expectV1Error(await v1('/v1/accounts/tags/delete?tag=news', reader), 403, 'PermissionDenied');
    expect((await stats()).total).toBe(0);
  });
});

describe('routes the layer does not serve', () => {
  let key: CreatedKey;
  beforeEach(async () => {
    key = await createKey(['read', 'write'], [SITE]);
  });

  it('routes v2 dropped answer 410 saying so', async () => {
    for (const route of ['accounts/tags/create', 'accounts/tags/list', 'accounts/tags/show', 'videos/tags/list', 'status']) {
      const result = await v1(`/v1/${route}`, key);
      expectV1Error(result, 410, 'NotSupported');
      expect(result.body.message).toContain('not supported');
    }
  });

  it('v1 writes with a v2 equivalent answer 501 NotImplemented naming the v2 route', async () => {
    const result = await v1('/v1/videos/update?video_key=abc', key);
    expectV1Error(result, 501, 'NotImplemented');
    expect(result.body.message).toContain('PATCH /v2/sites/<site_id>/media/<media_id>/');
    expectV1Error(await v1('/v1/nothing/here', key), 404, 'NotFound');
    expect((await stats()).total).toBe(0);
  });

  it('what is not a v1 call gets the v2 body: a bare /v1 (the fuzz\'s DELETE /v1) and a refused path under /v1/', async () => {
    for (const method of ['DELETE', 'GET', 'POST']) {
      await expectError(await gateway('/v1', { method, headers: key.auth }), 404, 'not_found');
    }
    await expectError(await gateway('/v1', { method: 'DELETE' }), 404, 'not_found');
    await expectError(await gateway('/v1/videos%2flist', { headers: key.auth }), 400, 'invalid_request');
    await expectError(await gateway('/v1//videos/list', { method: 'DELETE', headers: key.auth }), 400, 'invalid_request');
    expect((await stats()).total).toBe(0);
  });

  it('v1 calls are GET or POST', async () => {
    const result = await v1('/v1/videos/list', key, { method: 'DELETE' });
    expectV1Error(result, 405, 'NotSupported');
    expect(result.response.headers.get('allow')).toBe('GET, POST');
  });
});
