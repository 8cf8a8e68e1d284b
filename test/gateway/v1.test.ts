// The v1 compatibility layer: v1 read routes, tag delete/update and usage show answered through v2 with v1 names and
// fields, errors in the v1 shape, and a clear refusal for the routes it does not serve.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Media, MediaRenditionList, OriginalList, TextTrackList } from '../../worker/contract/v2-types.ts';
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
    const channel = await v1(`/v1/channels/show?channel_key=${dynamic}&type=dynamic`, key);
    expect(channel.status).toBe(200);
    expect(channel.body.channel).toMatchObject({ key: dynamic, type: 'dynamic', tags: expect.any(String) });
    expect((await v1('/v1/channels/list?result_limit=2', key)).body.channels).toHaveLength(2);

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

    const tracks = (await direct<TextTrackList>(`${V2}/media/${id}/text_tracks/`)).body.text_tracks;
    const track = await v1(`/v1/videos/tracks/show?video_key=${id}&track_key=${tracks[0]!.id}`, key);
    expect(track.body.track).toMatchObject({ key: tracks[0]!.id, language: tracks[0]!.metadata.srclang });
    expect(track.body.track.link).toEqual(expect.objectContaining({ protocol: expect.any(String), address: expect.any(String) }));

    const poster = (await direct<Media>(`${V2}/media/${id}/`)).body.relationships.poster!;
    const thumbnail = await v1(`/v1/videos/thumbnails/show?thumbnail_key=${poster.id}`, key);
    expect(thumbnail.body.thumbnail).toMatchObject({ key: poster.id, link: poster.delivery_url });
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
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', tag: { name: 'news', videos_affected: tagged }, rate_limit: RATE_LIMIT });
    expect((await direct<{ total: number }>(`${V2}/media/?q=tags:news`)).body.total).toBe(0);
    expect(callsTo(await stats(), 'PUT', 'remove_tag/')).toBe(1);
  });

  it('accounts/tags/update renames through rename_tag (tag_new is v1\'s new_tag)', async () => {
    const tagged = (await direct<{ total: number }>(`${V2}/media/?q=tags:sport`)).body.total;
    const { status, body } = await v1('/v1/accounts/tags/update?tag=sport&tag_new=sports', key);
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ok', tag: { name: 'sports', previous_name: 'sport', videos_affected: tagged }, rate_limit: RATE_LIMIT });
    expect((await direct<{ total: number }>(`${V2}/media/?q=tags:sport`)).body.total).toBe(0);
    expectV1Error(await v1('/v1/accounts/tags/update?tag=sport', key), 400, 'ParamMissing');
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
