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
  /** A tag action: accepted (202) with no body, as the platform's definition has it. */
  const accepted = async (path: string, body: unknown) => {
    const response = await call('PUT', `${base}/${path}`, { body });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  };

  it('remove_tag removes the tag everywhere, touching nothing else', async () => {
    const tagged = await countTagged('food');
    expect(tagged).toBeGreaterThan(5);
    const before = (await callJson('GET', `${base}/media/?q=tags:food&page_length=500`)).body.media as Array<{ id: string; metadata: { tags: string[] } }>;
    await accepted('remove_tag/', { tag: 'food' });
    expect(await countTagged('food')).toBe(0);
    for (const media of before) {
      const now = (await callJson('GET', `${base}/media/${media.id}/`)).body;
      expect(now.metadata.tags).toEqual(media.metadata.tags.filter((tag) => tag !== 'food'));
    }
    // Removing a tag nothing carries is accepted too.
    await accepted('remove_tag/', { tag: 'food' });
  });

  it('remove_tag leaves other sites alone', async () => {
    const { small } = await sites();
    const before = await countTagged('music', small.id);
    expect(before).toBeGreaterThan(0);
    expect(await countTagged('music')).toBeGreaterThan(0);
    await accepted('remove_tag/', { tag: 'music' });
    expect(await countTagged('music')).toBe(0);
    expect(await countTagged('music', small.id)).toBe(before);
  });

  it('rename_tag renames everywhere, merging where the new tag is already present', async () => {
    const live = await countTagged('live');
    const liveAndInterview = (await callJson('GET', `${base}/media/?q=tags:live AND tags:interview&page_length=1`)).body.total;
    const interview = await countTagged('interview');
    expect(live).toBeGreaterThan(0);
    await accepted('rename_tag/', { original_tag: 'live', new_tag: 'interview' });
    expect(await countTagged('live')).toBe(0);
    expect(await countTagged('interview')).toBe(interview + live - liveAndInterview);
    const merged = (await callJson('GET', `${base}/media/?q=tags:interview&page_length=500`)).body.media as Array<{ metadata: { tags: string[] } }>;
    for (const media of merged) expect(media.metadata.tags.filter((tag) => tag === 'interview')).toHaveLength(1);
  });

  it('refuses a missing, empty or identical tag, and the envelope body', async () => {
    const missing = await callJson('PUT', `${base}/remove_tag/`, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].description).toContain('tag');
    expect((await callJson('PUT', `${base}/remove_tag/`, { body: { tag: ' ' } })).status).toBe(400);
    expect((await callJson('PUT', `${base}/rename_tag/`, { body: { original_tag: 'live' } })).status).toBe(400);
    const same = await callJson('PUT', `${base}/rename_tag/`, { body: { original_tag: 'a', new_tag: 'a' } });
    expect(same.status).toBe(400);
    expect(same.body).toEqual(errorShape('invalid_parameter'));
    const envelope = await callJson('PUT', `${base}/remove_tag/`, { body: { metadata: { tag: 'food' } } });
    expect(envelope.status).toBe(400);
    expect(envelope.body).toEqual(errorShape('invalid_body'));
    expect(await countTagged('food')).toBeGreaterThan(0);
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
    const listed = manual.metadata.media_filter.include.values as string[];
    const id = listed[0]!;
    // Pinned in a dynamic playlist's first slot, beside another media in the second.
    const dynamicPath = `${base}/playlists/${site.playlists.dynamic![0]}/dynamic_playlist/`;
    const pinned = await callJson('PATCH', dynamicPath, { body: { metadata: { pinning: { slot1: id, slot2: listed[1]! } } } });
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(200);
    const renditions = (await callJson('GET', `${base}/media/${id}/media_renditions/`)).body.media_renditions;
    const track = (await callJson('POST', `${base}/media/${id}/text_tracks/`, { body: { metadata: { srclang: 'fr', label: 'Français' } } })).body;
    expect((await call('GET', `/tracks/${track.id}.vtt`, { anonymous: true })).status).toBe(200);
    const thumbnail = (await callJson('POST', `${base}/thumbnails/`, {
      body: { relationships: { media: [{ id }] }, upload: { source_type: 'thumbstrip_image', source_media_id: id, thumbstrip_index: 1 } },
    })).body;
    expect((await call('GET', `/v2/media/${id}/poster.jpg`, { anonymous: true })).status).toBe(200);
    expect((await call('DELETE', `${base}/media/${id}/`)).status).toBe(204);
    expect((await call('GET', `${base}/media/${id}/media_renditions/`)).status).toBe(404);
    expect((await call('GET', `${base}/media/${id}/media_renditions/${renditions[0].id}/`)).status).toBe(404);
    expect((await call('GET', `/tracks/${track.id}.vtt`, { anonymous: true })).status).toBe(404);
    expect((await call('GET', `${base}/thumbnails/${thumbnail.id}`)).status).toBe(404);
    expect((await call('GET', `/v2/media/${id}/thumbnails/${thumbnail.id}.jpg`, { anonymous: true })).status).toBe(404);
    expect((await call('GET', `/v2/media/${id}/poster.jpg`, { anonymous: true })).status).toBe(404);
    // Gone from the manual playlist's list (the others kept, in their order) and from the pinning slot it held.
    const after = (await callJson('GET', `${base}/playlists/${site.playlists.manual![0]}/manual_playlist/`)).body;
    expect(after.metadata.media_filter.include.values).toEqual(listed.slice(1));
    expect((await callJson('GET', dynamicPath)).body.metadata.pinning).toEqual({ slot1: null, slot2: listed[1] });
    expect((await callJson('GET', `${base}/media/?page_length=1`)).body.total).toBe(site.media_total - 1);
  });

  it('the thumbnail made the poster is the image the delivery side serves; un-choosing it goes back to the default', async () => {
    const id = site.media.published[0]!;
    const poster = async () => {
      const response = await call('GET', `/v2/media/${id}/poster.jpg?width=720`, { anonymous: true });
      expect(response.status).toBe(200);
      return response.text();
    };
    const image = async (thumbnailId: string) => (await call('GET', `/v2/media/${id}/thumbnails/${thumbnailId}.jpg?width=720`, { anonymous: true })).text();
    const choose = (thumbnailId: string, isPoster: boolean) =>
      callJson('PATCH', `${base}/thumbnails/${thumbnailId}`, { body: { relationships: { media: [{ is_poster: isPoster }] } } });
    const original = await poster();
    // A new thumbnail whose image can be told from the current poster's (the image's colours come from its id).
    let thumb: { id: string; relationships: unknown } | undefined;
    for (let attempt = 0; attempt < 5 && !thumb; attempt++) {
      const created = (await callJson('POST', `${base}/thumbnails/`, {
        body: { relationships: { media: [{ id }] }, upload: { source_type: 'custom_upload', method: 'fetch', download_url: 'https://example.com/p.jpg' } },
      })).body;
      if (await image(created.id) !== original) thumb = created;
    }
    expect(thumb).toBeDefined();
    // A new thumbnail is not the poster until it is made so.
    expect(await poster()).toBe(original);
    const chosen = await choose(thumb!.id, true);
    expect(chosen.status).toBe(200);
    expect(chosen.body.relationships).toEqual(thumb!.relationships);
    expect(await poster()).toBe(await image(thumb!.id));
    // Neither the media's answer nor the thumbnail's says so.
    expect((await callJson('GET', `${base}/media/${id}/`)).body.relationships).toEqual({});
    expect((await callJson('GET', `${base}/thumbnails/${thumb!.id}`)).body).not.toHaveProperty('is_poster');
    const unchosen = await choose(thumb!.id, false);
    expect(unchosen.status).toBe(200);
    expect(await poster()).toBe(original);
  });

  it('an external upload is ready at once and delivered from its source URL', async () => {
    const created = (await callJson('POST', `${base}/media/`, {
      body: { metadata: { title: 'Elsewhere' }, upload: { method: 'external', source_url: 'https://cdn.example.com/x.m3u8', mime_type: 'application/vnd.apple.mpegurl' } },
    })).body;
    expect(created).toMatchObject({ status: 'ready', hosting_type: 'external', mime_type: 'application/vnd.apple.mpegurl' });
    expect(created).not.toHaveProperty('upload');
    const renditions = (await callJson('GET', `${base}/media/${created.id}/media_renditions/`)).body.media_renditions;
    expect(renditions.map((r: { delivery_url: string; format: string }) => [r.delivery_url, r.format])).toEqual([['https://cdn.example.com/x.m3u8', 'm3u8']]);
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
