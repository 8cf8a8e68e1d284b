// Every route of the spec's endpoint table answers with its method, status and the contract shape (v2-types.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { call, callJson, ORIGIN, reset, setProcessing, sites, type SiteCatalog } from './helpers.ts';

let site: SiteCatalog;
let base: string;
beforeEach(async () => {
  await reset();
  site = (await sites()).big;
  base = `/v2/sites/${site.id}`;
});

const timestamp = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
const mediaShape = {
  id: expect.any(String), type: 'media', created: timestamp, last_modified: timestamp, status: expect.any(String),
  media_type: expect.any(String), hosting_type: expect.any(String),
  metadata: expect.objectContaining({ title: expect.any(String), tags: expect.any(Array), custom_params: expect.any(Object) }),
  relationships: expect.objectContaining({ poster: expect.anything() }),
};

async function firstPublished(): Promise<string> {
  return site.media.published[0]!;
}

describe('media', () => {
  it('POST media/ with a fetch is processing, then ready with renditions, originals and a poster (201)', async () => {
    await setProcessing({ seconds: 3600 });
    const answer = await callJson('POST', `${base}/media/`, {
      body: { metadata: { title: 'Harbour at dawn', tags: ['travel'] }, upload: { method: 'fetch', source_url: 'https://example.com/dawn.mp4', mime_type: 'video/mp4' } },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ ...mediaShape, status: 'processing', duration: null, relationships: { poster: null } });
    expect((await callJson('GET', `${base}/media/${answer.body.id}/media_renditions/`)).body.media_renditions).toEqual([]);
    await setProcessing({ finish: true });
    const created = await callJson('GET', `${base}/media/${answer.body.id}/`);
    expect(created.body).toMatchObject({ ...mediaShape, status: 'ready', media_type: 'video', metadata: expect.objectContaining({ title: 'Harbour at dawn' }) });
    expect(created.body.duration).toBeGreaterThan(0);
    expect(created.body.relationships.poster.delivery_url).toMatch(new RegExp(`^${ORIGIN}/cdn/thumbs/`));
    const renditions = await callJson('GET', `${base}/media/${created.body.id}/media_renditions/`);
    expect(renditions.body.media_renditions.map((r: { width: number | null }) => r.width)).toEqual(expect.arrayContaining([320, 640, 1280, 1920, null]));
    const originals = await callJson('GET', `${base}/media/${created.body.id}/originals/`);
    expect(originals.body.originals).toEqual([expect.objectContaining({ type: 'original', duration: created.body.duration })]);
  });

  it('POST media/ without an upload creates a media waiting for one', async () => {
    const created = await callJson('POST', `${base}/media/`, { body: { metadata: { title: 'Placeholder' } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'created', duration: null, upload: null, relationships: { poster: null } });
  });

  it('GET media/ lists with paging figures', async () => {
    const list = await callJson('GET', `${base}/media/`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, page_length: 10, total: site.media_total });
    expect(list.body.media).toHaveLength(10);
    expect(list.body.media[0]).toMatchObject(mediaShape);
  });

  it('GET media/<id>/ shows one (with and without the trailing slash)', async () => {
    const id = await firstPublished();
    const shown = await callJson('GET', `${base}/media/${id}/`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ ...mediaShape, id });
    const bare = await callJson('GET', `${base}/media/${id}`);
    expect(bare.body).toEqual(shown.body);
  });

  it('PATCH media/<id>/ updates metadata and answers the media (200)', async () => {
    const id = await firstPublished();
    const updated = await callJson('PATCH', `${base}/media/${id}/`, { body: { metadata: { title: 'Renamed' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata.title).toBe('Renamed');
    expect((await callJson('GET', `${base}/media/${id}/`)).body.metadata.title).toBe('Renamed');
  });

  it('DELETE media/<id>/ answers 204 and the media is gone', async () => {
    const id = await firstPublished();
    const response = await call('DELETE', `${base}/media/${id}/`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await call('GET', `${base}/media/${id}/`)).status).toBe(404);
  });
});

describe('renditions and originals', () => {
  it('POST, GET list, GET one and DELETE media_renditions', async () => {
    const id = await firstPublished();
    const path = `${base}/media/${id}/media_renditions/`;
    const before = await callJson('GET', path);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ page: 1, total: expect.any(Number), media_renditions: expect.any(Array) });
    const created = await callJson('POST', path, { body: { metadata: { width: 854, mime_type: 'video/mp4', name: '480p' } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'media_rendition', media_id: id, status: 'ready', width: 854, height: 480, mime_type: 'video/mp4',
      metadata: { name: '480p' }, delivery_url: expect.stringMatching(new RegExp(`^${ORIGIN}/cdn/videos/${id}/`)),
    });
    expect(Number.isInteger(created.body.filesize)).toBe(true);
    const shown = await callJson('GET', `${path}${created.body.id}/`);
    expect(shown.body).toEqual(created.body);
    expect((await call('DELETE', `${path}${created.body.id}/`)).status).toBe(204);
    expect((await call('GET', `${path}${created.body.id}/`)).status).toBe(404);
    expect((await callJson('GET', path)).body.total).toBe(before.body.total);
  });

  it('GET originals/ lists the originals with a duration', async () => {
    const id = await firstPublished();
    const list = await callJson('GET', `${base}/media/${id}/originals/`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.originals[0]).toMatchObject({ type: 'original', media_id: id, duration: expect.any(Number), filesize: expect.any(Number) });
  });
});

describe('text tracks', () => {
  it('POST, GET list, GET one, PATCH and DELETE text_tracks', async () => {
    const id = await firstPublished();
    const path = `${base}/media/${id}/text_tracks/`;
    const created = await callJson('POST', path, { body: { metadata: { label: 'Italiano', srclang: 'it', kind: 'subtitles' } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'text_track', media_id: id, status: 'ready', metadata: { label: 'Italiano', srclang: 'it', kind: 'subtitles', default: false },
      delivery_url: `${ORIGIN}/cdn/tracks/${created.body.id}.vtt`,
    });
    const list = await callJson('GET', path);
    expect(list.body.text_tracks.map((t: { id: string }) => t.id)).toContain(created.body.id);
    expect((await callJson('GET', `${path}${created.body.id}/`)).body).toEqual(created.body);
    const patched = await callJson('PATCH', `${path}${created.body.id}/`, { body: { metadata: { label: 'Italian' } } });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).toEqual({ label: 'Italian', srclang: 'it', kind: 'subtitles', default: false, position: expect.any(Number) });
    expect(patched.body.track_kind).toBe('subtitles');
    expect((await call('DELETE', `${path}${created.body.id}/`)).status).toBe(204);
    expect((await call('GET', `${path}${created.body.id}/`)).status).toBe(404);
  });

  it('making a track the default clears the previous default', async () => {
    const id = site.media.with_subtitles[0]!;
    const path = `${base}/media/${id}/text_tracks/`;
    const created = await callJson('POST', path, { body: { metadata: { srclang: 'nl', label: 'Nederlands', default: true } } });
    const tracks = (await callJson('GET', path)).body.text_tracks as Array<{ id: string; metadata: { default: boolean } }>;
    expect(tracks.filter((t) => t.metadata.default).map((t) => t.id)).toEqual([created.body.id]);
  });
});

describe('thumbnails', () => {
  it('POST thumbnails/ (201), GET and PATCH thumbnails/<id> (no trailing slash, as the spec spells it)', async () => {
    const id = await firstPublished();
    const created = await callJson('POST', `${base}/thumbnails/`, {
      body: { relationships: { media: [{ id }] }, upload: { source_type: 'static_frame', time: 1 } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'thumbnail', status: 'ready', source_type: 'static_frame', thumbnail_type: 'static',
      width: 1920, height: 1080, relationships: { media: [{ id, is_poster: false }] },
    });
    expect((await callJson('GET', `${base}/thumbnails/${created.body.id}`)).body).toEqual(created.body);
    expect((await callJson('GET', `${base}/thumbnails/${created.body.id}/`)).body).toEqual(created.body);
    const patched = await callJson('PATCH', `${base}/thumbnails/${created.body.id}`, { body: { relationships: { media: [{ is_poster: true }] } } });
    expect(patched.status).toBe(200);
    expect(patched.body.relationships.media).toEqual([{ id, is_poster: true }]);
  });
});

describe('playlists', () => {
  it('POST playlists/<type>/ (201), GET playlists/, both show forms, PATCH, both delete forms', async () => {
    const created = await callJson('POST', `${base}/playlists/manual_playlist/`, {
      body: { metadata: { title: 'Weekend', manual: { media_ids: site.media.published.slice(0, 2) } } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'playlist', playlist_type: 'manual',
      metadata: { title: 'Weekend', description: null, author: null, link: null, custom_params: {} },
      manual: { media_ids: site.media.published.slice(0, 2), max_items: 50 },
    });
    const id = created.body.id as string;
    const list = await callJson('GET', `${base}/playlists/`);
    expect(list.status).toBe(200);
    expect(list.body.playlists.map((p: { id: string }) => p.id)).toContain(id);
    const plain = await callJson('GET', `${base}/playlists/${id}/`);
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('manual');
    expect(plain.body).toMatchObject({ id, playlist_type: 'manual' });
    expect((await callJson('GET', `${base}/playlists/${id}/manual_playlist/`)).body).toEqual(created.body);
    const patched = await callJson('PATCH', `${base}/playlists/${id}/manual_playlist/`, { body: { metadata: { manual: { media_ids: [site.media.published[3]!] } } } });
    expect(patched.status).toBe(200);
    expect(patched.body.manual.media_ids).toEqual([site.media.published[3]]);
    expect((await call('DELETE', `${base}/playlists/${id}/manual_playlist/`)).status).toBe(204);
    expect((await call('GET', `${base}/playlists/${id}/`)).status).toBe(404);

    const other = (await callJson('POST', `${base}/playlists/dynamic_playlist/`, { body: { metadata: { title: 'Food', dynamic: { tags: ['food'] } } } })).body;
    expect((await call('DELETE', `${base}/playlists/${other.id}/`)).status).toBe(204);
    expect((await call('GET', `${base}/playlists/${other.id}/dynamic_playlist/`)).status).toBe(404);
  });
});

describe('players', () => {
  it('POST (201), GET list, GET one, PATCH and DELETE players', async () => {
    const created = await callJson('POST', `${base}/players/`, {
      body: { metadata: { name: 'Vertical', setup_config: { aspectratio: '9:16', autostart: false, customOption: { x: 1 } } } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'player', metadata: { name: 'Vertical', release_channel: 'latest', custom_params: {}, setup_config: { aspectratio: '9:16', autostart: false, customOption: { x: 1 } } },
    });
    const list = await callJson('GET', `${base}/players/`);
    expect(list.body.total).toBe(site.players.length + 1);
    expect((await callJson('GET', `${base}/players/${created.body.id}/`)).body).toEqual(created.body);
    const patched = await callJson('PATCH', `${base}/players/${created.body.id}/`, { body: { metadata: { release_channel: 'preview' } } });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).toMatchObject({ name: 'Vertical', release_channel: 'preview', setup_config: { aspectratio: '9:16' } });
    expect((await call('DELETE', `${base}/players/${created.body.id}/`)).status).toBe(204);
    expect((await call('GET', `${base}/players/${created.body.id}/`)).status).toBe(404);
  });

  it('the seeded players carry realistic setup_configs, unknown options included', async () => {
    const player = await callJson('GET', `${base}/players/${site.players[0]}/`);
    expect(Object.keys(player.body.metadata.setup_config)).toEqual(expect.arrayContaining([
      'aspectratio', 'autostart', 'repeat', 'preload', 'stretching', 'playbackRateControls', 'displaytitle', 'displaydescription',
    ]));
    expect(site.players).toHaveLength(2);
  });
});

describe('actions', () => {
  it('PUT remove_tag/, rename_tag/ and query_usage/ answer 200 with their results', async () => {
    const removed = await callJson('PUT', `${base}/remove_tag/`, { body: { metadata: { tag: 'nothing-has-this' } } });
    expect(removed).toMatchObject({ status: 200, body: { tag: 'nothing-has-this', media_affected: 0 } });
    const renamed = await callJson('PUT', `${base}/rename_tag/`, { body: { metadata: { tag: 'nothing-has-this', new_tag: 'x' } } });
    expect(renamed).toMatchObject({ status: 200, body: { tag: 'nothing-has-this', new_tag: 'x', media_affected: 0 } });
    const usage = await callJson('PUT', `${base}/query_usage/`, { body: { metadata: { start_date: '2026-01-01', end_date: '2026-01-31' } } });
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({
      site_id: site.id, start_date: '2026-01-01', end_date: '2026-01-31',
      total: { plays: expect.any(Number), delivered_bytes: expect.any(Number), stored_bytes: expect.any(Number), api_calls: expect.any(Number) },
    });
    expect(usage.body).not.toHaveProperty('days');
  });
});
