// The platform's rules beyond shapes: custom_params replacement, tag actions, cascades, posters, usage figures.
import { beforeEach, describe, expect, it } from 'vitest';
import { call, callJson, errorShape, reset, sites, type SiteCatalog } from './helpers.ts';

let site: SiteCatalog;
let base: string;
beforeEach(async () => {
  await reset({ rate_limit_per_minute: 10_000 });
  site = (await sites()).big;
  base = `/v2/sites/${site.id}`;
});

describe('custom_params replacement (spec rule 3)', () => {
  it('the object sent replaces the stored one: omitted keys are deleted', async () => {
    const id = site.media.published[0]!;
    await callJson('PATCH', `${base}/media/${id}/`, { body: { metadata: { custom_params: { a: '1', b: '2', c: '3' } } } });
    const updated = await callJson('PATCH', `${base}/media/${id}/`, { body: { metadata: { custom_params: { a: '1', c: 'three' } } } });
    expect(updated.body.metadata.custom_params).toEqual({ a: '1', c: 'three' });
    expect((await callJson('GET', `${base}/media/${id}/`)).body.metadata.custom_params).toEqual({ a: '1', c: 'three' });
  });

  it('an empty object deletes every custom param', async () => {
    const id = site.media.published[0]!;
    const updated = await callJson('PATCH', `${base}/media/${id}/`, { body: { metadata: { custom_params: {} } } });
    expect(updated.body.metadata.custom_params).toEqual({});
  });

  it('a PATCH without custom_params leaves them, and other metadata fields merge', async () => {
    const id = site.media.published[0]!;
    const before = (await callJson('GET', `${base}/media/${id}/`)).body;
    const updated = await callJson('PATCH', `${base}/media/${id}/`, { body: { metadata: { description: 'New words' } } });
    expect(updated.body.metadata).toEqual({ ...before.metadata, description: 'New words' });
    expect(updated.body.last_modified >= before.last_modified).toBe(true);
  });

  it('playlists and players replace custom_params the same way', async () => {
    const playlist = site.playlists.manual![0]!;
    await callJson('PATCH', `${base}/playlists/${playlist}/manual_playlist/`, { body: { metadata: { custom_params: { x: '1', y: '2' } } } });
    const patched = await callJson('PATCH', `${base}/playlists/${playlist}/manual_playlist/`, { body: { metadata: { custom_params: { y: '2' } } } });
    expect(patched.body.metadata.custom_params).toEqual({ y: '2' });
    const player = await callJson('PATCH', `${base}/players/${site.players[0]}/`, { body: { metadata: { custom_params: {} } } });
    expect(player.body.metadata.custom_params).toEqual({});
  });
});

describe('tag actions act on every media of the site', () => {
  const countTagged = async (tag: string, siteId = site.id) =>
    (await callJson('GET', `/v2/sites/${siteId}/media/?q=tags:${tag}&page_length=1`)).body.total as number;

  it('remove_tag removes the tag everywhere and says how many media changed', async () => {
    const tagged = await countTagged('food');
    expect(tagged).toBeGreaterThan(5);
    const result = await callJson('PUT', `${base}/remove_tag/`, { body: { metadata: { tag: 'food' } } });
    expect(result.body).toEqual({ tag: 'food', media_affected: tagged });
    expect(await countTagged('food')).toBe(0);
  });

  it('remove_tag leaves other sites alone', async () => {
    const { small } = await sites();
    const before = await countTagged('music', small.id);
    await callJson('PUT', `${base}/remove_tag/`, { body: { metadata: { tag: 'music' } } });
    expect(await countTagged('music', small.id)).toBe(before);
  });

  it('rename_tag renames everywhere, merging where the new tag is already present', async () => {
    const live = await countTagged('live');
    const liveAndInterview = (await callJson('GET', `${base}/media/?q=tags:live AND tags:interview&page_length=1`)).body.total;
    const interview = await countTagged('interview');
    const result = await callJson('PUT', `${base}/rename_tag/`, { body: { metadata: { tag: 'live', new_tag: 'interview' } } });
    expect(result.body).toEqual({ tag: 'live', new_tag: 'interview', media_affected: live });
    expect(await countTagged('live')).toBe(0);
    expect(await countTagged('interview')).toBe(interview + live - liveAndInterview);
    const merged = (await callJson('GET', `${base}/media/?q=tags:interview&page_length=500`)).body.media as Array<{ metadata: { tags: string[] } }>;
    for (const media of merged) expect(media.metadata.tags.filter((tag) => tag === 'interview')).toHaveLength(1);
  });

  it('refuses a missing or identical tag', async () => {
    expect((await callJson('PUT', `${base}/remove_tag/`, { body: { metadata: {} } })).status).toBe(400);
    const same = await callJson('PUT', `${base}/rename_tag/`, { body: { metadata: { tag: 'a', new_tag: 'a' } } });
    expect(same.status).toBe(400);
    expect(same.body).toEqual(errorShape('invalid_parameter'));
  });
});

describe('query_usage', () => {
  it('answers the same figures for the same range, and per day when asked', async () => {
    const body = { metadata: { start_date: '2026-03-01', end_date: '2026-03-07', group_by: 'day' } };
    const first = await callJson('PUT', `${base}/query_usage/`, { body });
    const second = await callJson('PUT', `${base}/query_usage/`, { body });
    expect(first.body).toEqual(second.body);
    expect(first.body.days.map((day: { date: string }) => day.date)).toEqual(
      ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07']);
    const plays = first.body.days.reduce((sum: number, day: { plays: number }) => sum + day.plays, 0);
    expect(first.body.total.plays).toBe(plays);
  });

  it.each([
    ['a date that is not YYYY-MM-DD', { start_date: '01/03/2026', end_date: '2026-03-07' }],
    ['a date that is not in the calendar', { start_date: '2026-02-30', end_date: '2026-03-07' }],
    ['an end before the start', { start_date: '2026-03-07', end_date: '2026-03-01' }],
    ['more than 366 days', { start_date: '2024-01-01', end_date: '2026-01-01' }],
  ])('refuses %s with invalid_date', async (_, metadata) => {
    const answer = await callJson('PUT', `${base}/query_usage/`, { body: { metadata } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(errorShape('invalid_date'));
  });

  it('refuses an unknown group_by', async () => {
    const answer = await callJson('PUT', `${base}/query_usage/`, { body: { metadata: { start_date: '2026-03-01', end_date: '2026-03-01', group_by: 'hour' } } });
    expect(answer.status).toBe(400);
  });
});

describe('media lifecycle', () => {
  it('deleting a media deletes its renditions, originals, text tracks and thumbnails, and unlists it', async () => {
    const manual = (await callJson('GET', `${base}/playlists/${site.playlists.manual![0]}/manual_playlist/`)).body;
    const id = manual.manual.media_ids[0] as string;
    const renditions = (await callJson('GET', `${base}/media/${id}/media_renditions/`)).body.media_renditions;
    const poster = (await callJson('GET', `${base}/media/${id}/`)).body.relationships.poster.id;
    expect((await call('DELETE', `${base}/media/${id}/`)).status).toBe(204);
    expect((await call('GET', `${base}/media/${id}/media_renditions/`)).status).toBe(404);
    expect((await call('GET', `${base}/media/${id}/media_renditions/${renditions[0].id}/`)).status).toBe(404);
    expect((await call('GET', `${base}/thumbnails/${poster}`)).status).toBe(404);
    expect((await call('GET', `http://sandbox.test/cdn/thumbs/${poster}.svg`)).status).toBe(404);
    const after = (await callJson('GET', `${base}/playlists/${site.playlists.manual![0]}/manual_playlist/`)).body;
    expect(after.manual.media_ids).not.toContain(id);
    expect((await callJson('GET', `${base}/media/?page_length=1`)).body.total).toBe(site.media_total - 1);
  });

  it('a new thumbnail made the poster updates the media, and the old poster stops being it', async () => {
    const id = site.media.published[0]!;
    const oldPoster = (await callJson('GET', `${base}/media/${id}/`)).body.relationships.poster.id;
    const thumb = (await callJson('POST', `${base}/thumbnails/`, {
      body: { relationships: { media: [{ id }] }, upload: { source_type: 'custom_upload', method: 'fetch', source_url: 'https://example.com/p.jpg' } },
    })).body;
    expect((await callJson('GET', `${base}/media/${id}/`)).body.relationships.poster.id).toBe(oldPoster);
    await callJson('PATCH', `${base}/thumbnails/${thumb.id}`, { body: { relationships: { media: [{ is_poster: true }] } } });
    const media = (await callJson('GET', `${base}/media/${id}/`)).body;
    expect(media.relationships.poster).toEqual({ id: thumb.id, delivery_url: thumb.delivery_url });
    expect((await callJson('GET', `${base}/thumbnails/${oldPoster}`)).body.relationships.media).toEqual([{ id, is_poster: false }]);
  });

  it('an external upload is ready at once and delivered from its source URL', async () => {
    const created = (await callJson('POST', `${base}/media/`, {
      body: { metadata: { title: 'Elsewhere' }, upload: { method: 'external', source_url: 'https://cdn.example.com/x.m3u8', mime_type: 'application/vnd.apple.mpegurl' } },
    })).body;
    expect(created).toMatchObject({ status: 'ready', hosting_type: 'external' });
    const renditions = (await callJson('GET', `${base}/media/${created.id}/media_renditions/`)).body.media_renditions;
    expect(renditions.map((r: { delivery_url: string }) => r.delivery_url)).toEqual(['https://cdn.example.com/x.m3u8']);
  });

  it('the seeded catalog holds media in every state a widget must handle', async () => {
    expect(site.media_total).toBeGreaterThanOrEqual(120);
    for (const state of ['published', 'scheduled', 'expired', 'unscheduled', 'not_ready', 'with_subtitles'] as const) {
      expect(site.media[state].length, state).toBeGreaterThan(0);
    }
    const failed = await callJson('GET', `${base}/media/?q=status:failed`);
    expect(failed.body.media[0].error_message).toEqual(expect.any(String));
    const scheduled = (await callJson('GET', `${base}/media/${site.media.scheduled[0]}/`)).body;
    expect(Date.parse(scheduled.metadata.publish_start_date)).toBeGreaterThan(Date.now());
  });

  it('reseeding gives the same catalog every time', async () => {
    const first = (await callJson('GET', `${base}/media/?page_length=500`)).body;
    await reset({ rate_limit_per_minute: 10_000 });
    expect((await callJson('GET', `${base}/media/?page_length=500`)).body).toEqual(first);
  });
});
