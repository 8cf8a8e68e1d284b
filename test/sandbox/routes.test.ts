// Every route of the spec's endpoint table answers with its method, status and the contract shape (v2-types.ts).
import { beforeEach, describe, expect, it } from 'vitest';
import { deliveryPath } from '../../demo/sandbox/delivery-paths.ts';
import { call, callJson, ORIGIN, reset, setProcessing, sites, type SiteCatalog } from './helpers.ts';

let site: SiteCatalog;
let base: string;
beforeEach(async () => {
  await reset();
  site = (await sites()).big;
  base = `/v2/sites/${site.id}`;
});

const timestamp = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
const SCHEMA = 'https://schema.jwplayer.com/types';
const mediaShape = {
  schema: `${SCHEMA}/media.json`,
  id: expect.any(String), type: 'media', created: timestamp, last_modified: timestamp, status: expect.any(String),
  media_type: expect.stringMatching(/^(audio|video)$/), hosting_type: expect.any(String),
  metadata: expect.objectContaining({ title: expect.any(String), tags: expect.any(Array), custom_params: expect.any(Object), drm: false }),
};

/**
 * What the platform's definition has a media answer carry, and nothing the sandbox keeps beside it: no poster link
 * (`relationships` is empty), no upload, the external id and trim points at the top level, the duration also under
 * metadata.
 */
function expectDocumentedMedia(media: Record<string, any>): void {
  expect(media).toMatchObject(mediaShape);
  expect(media.relationships).toEqual({});
  expect(media).not.toHaveProperty('upload');
  for (const member of ['external_id', 'trim_in_point', 'trim_out_point', 'error_message', 'mime_type', 'duration']) {
    expect(media).toHaveProperty(member);
  }
  expect(media.metadata).not.toHaveProperty('external_id');
  expect(media.metadata.duration).toBe(media.duration);
}

/** The delivery side's poster of a media (public: no credential). */
const posterImage = (mediaId: string, width = 720) => call('GET', `/v2/media/${mediaId}/poster.jpg?width=${width}`, { anonymous: true });
/** A thumbnail's own image, at a width. */
const thumbnailImage = (mediaId: string, thumbnailId: string, width = 720) =>
  call('GET', `/v2/media/${mediaId}/thumbnails/${thumbnailId}.jpg?width=${width}`, { anonymous: true });

/** The HLS master the delivery side packages for a media (public here: no credential). */
const hlsMaster = (mediaId: string) => call('GET', deliveryPath.manifest(mediaId), { anonymous: true });
const HLS = 'application/vnd.apple.mpegurl';

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
    expectDocumentedMedia(answer.body);
    expect(answer.body).toMatchObject({ status: 'processing', duration: null, mime_type: 'video/mp4', hosting_type: 'hosted' });
    expect((await callJson('GET', `${base}/media/${answer.body.id}/media_renditions/`)).body.media_renditions).toEqual([]);
    // No frame yet, so no poster on the delivery side either, and no MP4 file to package HLS from.
    expect((await posterImage(answer.body.id)).status).toBe(404);
    expect((await hlsMaster(answer.body.id)).status).toBe(404);
    await setProcessing({ finish: true });
    const created = await callJson('GET', `${base}/media/${answer.body.id}/`);
    expectDocumentedMedia(created.body);
    expect(created.body).toMatchObject({ status: 'ready', media_type: 'video', metadata: expect.objectContaining({ title: 'Harbour at dawn' }) });
    expect(created.body.duration).toBeGreaterThan(0);
    const poster = await posterImage(created.body.id, 320);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await poster.text()).toMatch(/^<svg [^>]*width="320" height="180"/);
    const renditions = await callJson('GET', `${base}/media/${created.body.id}/media_renditions/`);
    // The MP4 ladder; HLS is no rendition: the delivery side packages it from these files.
    expect(renditions.body.media_renditions.map((r: { width: number | null }) => r.width).sort((a: number, b: number) => a - b))
      .toEqual([320, 640, 1280, 1920]);
    expect(new Set(renditions.body.media_renditions.map((r: { format: string }) => r.format))).toEqual(new Set(['mp4']));
    const master = await hlsMaster(created.body.id);
    expect([master.status, master.headers.get('content-type')]).toEqual([200, HLS]);
    expect(await master.text()).toMatch(/^#EXTM3U\n/);
    const originals = await callJson('GET', `${base}/media/${created.body.id}/originals/`);
    expect(originals.body.originals).toEqual([expect.objectContaining({ type: 'original', status: 'ready', size: expect.stringMatching(/^\d+$/) })]);
  });

  it('POST media/ without an upload creates a media waiting for one', async () => {
    const created = await callJson('POST', `${base}/media/`, { body: { metadata: { title: 'Placeholder' } } });
    expect(created.status).toBe(201);
    expectDocumentedMedia(created.body);
    expect(created.body).toMatchObject({ status: 'created', duration: null, mime_type: null, external_id: null, trim_in_point: null, trim_out_point: null });
    expect(created.body).not.toHaveProperty('upload_link');
  });

  it('GET media/ lists with paging figures', async () => {
    const list = await callJson('GET', `${base}/media/`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ page: 1, page_length: 10, total: site.media_total });
    expect(list.body.media).toHaveLength(10);
    for (const media of list.body.media) expectDocumentedMedia(media);
  });

  it('GET media/<id>/ shows one (with and without the trailing slash)', async () => {
    const id = await firstPublished();
    const shown = await callJson('GET', `${base}/media/${id}/`);
    expect(shown.status).toBe(200);
    expectDocumentedMedia(shown.body);
    expect(shown.body.id).toBe(id);
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

  it('PATCH media/<id>/ takes external_id under metadata and answers it at the top level', async () => {
    const id = await firstPublished();
    const updated = await callJson('PATCH', `${base}/media/${id}/`, { body: { metadata: { external_id: 'cms-4711' } } });
    expect(updated.status).toBe(200);
    expectDocumentedMedia(updated.body);
    expect(updated.body.external_id).toBe('cms-4711');
    expect((await callJson('GET', `${base}/media/${id}/`)).body.external_id).toBe('cms-4711');
  });

  it('a category is one of the IAB list and a language an ISO 639-1 code; anything else is refused', async () => {
    const id = await firstPublished();
    const updated = await callJson('PATCH', `${base}/media/${id}/`, { body: { metadata: { category: 'Technology & Computing', language: 'de' } } });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata).toMatchObject({ category: 'Technology & Computing', language: 'de' });
    for (const metadata of [{ category: 'Gadgets' }, { language: 'german' }, { language: 'DE' }]) {
      const refused = await callJson('PATCH', `${base}/media/${id}/`, { body: { metadata } });
      expect(refused.status, JSON.stringify(metadata)).toBe(400);
      expect(refused.body.errors[0].description).toContain(`metadata.${Object.keys(metadata)[0]}`);
    }
    expect((await callJson('GET', `${base}/media/${id}/`)).body.metadata).toMatchObject({ category: 'Technology & Computing', language: 'de' });
    const cleared = await callJson('PATCH', `${base}/media/${id}/`, { body: { metadata: { category: null, language: null } } });
    expect(cleared.body.metadata).toMatchObject({ category: null, language: null });
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
    // The sandbox's own request shape (the platform makes renditions from templates): width, MIME type and a name.
    const created = await callJson('POST', path, { body: { metadata: { width: 854, mime_type: 'video/mp4', name: '480p' } } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      schema: `${SCHEMA}/media_rendition.json`, id: expect.any(String), type: 'media_rendition', created: timestamp, last_modified: timestamp,
      relationships: {}, status: 'ready', error_message: null, format: 'mp4', width: 854, height: 480, filesize: expect.any(Number),
      metadata: {}, delivery_url: expect.stringMatching(new RegExp(`^${ORIGIN}/videos/${id}-`)),
    });
    expect(Number.isInteger(created.body.filesize)).toBe(true);
    const shown = await callJson('GET', `${path}${created.body.id}/`);
    expect(shown.body).toEqual(created.body);
    expect((await call('DELETE', `${path}${created.body.id}/`)).status).toBe(204);
    expect((await call('GET', `${path}${created.body.id}/`)).status).toBe(404);
    expect((await callJson('GET', path)).body.total).toBe(before.body.total);
  });

  it('renditions say their format, MP4 or M4A (no rendition is HLS: the Delivery API names the manifest), and audio has no size', async () => {
    const videoId = await firstPublished();
    const video = (await callJson('GET', `${base}/media/${videoId}/media_renditions/`)).body.media_renditions;
    expect(video.length).toBeGreaterThan(0);
    for (const mp4 of video) {
      expect(mp4.format).toBe('mp4');
      expect(mp4.delivery_url).toMatch(/\/videos\/[A-Za-z0-9]+-[A-Za-z0-9]+\.mp4$/);
      expect(mp4.height).toBe(Math.round((mp4.width * 9) / 16));
    }
    // The video's HLS is on the delivery side: its Delivery API answer lists the manifest first, with the top variant's size.
    const feed = await callJson('GET', `/v2/media/${videoId}`, { anonymous: true });
    expect(feed.status).toBe(200);
    expect(feed.body.playlist[0].sources[0]).toEqual({ file: `${ORIGIN}/manifests/${videoId}.m3u8`, type: HLS, width: 1280, height: 720 });
    // Audio has no single picture (no size), and no manifest: its M4A is all there is.
    const audioId = site.media.audio[0]!;
    const audio = (await callJson('GET', `${base}/media/${audioId}/media_renditions/`)).body.media_renditions;
    expect(audio).toEqual([expect.objectContaining({ format: 'm4a', width: null, height: null })]);
    const audioFeed = await callJson('GET', `/v2/media/${audioId}`, { anonymous: true });
    expect(audioFeed.body.playlist[0].sources.map((s: { type: string }) => s.type)).toEqual(['audio/mp4']);
    expect((await hlsMaster(audioId)).status).toBe(404);
    for (const rendition of [...video, ...audio]) {
      for (const member of ['media_id', 'mime_type', 'media_type']) expect(rendition).not.toHaveProperty(member);
      expect(rendition.metadata).toEqual({});
    }
  });

  it('GET originals/ lists the original: its size as a string of bytes, and no duration', async () => {
    const id = await firstPublished();
    const list = await callJson('GET', `${base}/media/${id}/originals/`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.originals[0]).toEqual({
      schema: `${SCHEMA}/original.json`, id: expect.any(String), type: 'original', created: timestamp, last_modified: timestamp,
      relationships: {}, status: 'ready', error_message: null, size: expect.stringMatching(/^[1-9]\d*$/),
      container_format: expect.any(String), md5: null, original_type: 'primary',
      metadata: { name: expect.any(String), type: 'other', language: null, language_code: null },
    });
  });
});

describe('text tracks', () => {
  it('POST, GET list, GET one, PATCH and DELETE text_tracks', async () => {
    const id = await firstPublished();
    const path = `${base}/media/${id}/text_tracks/`;
    const created = await callJson('POST', path, { body: { metadata: { label: 'Italiano', srclang: 'it', kind: 'subtitles' } } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      schema: `${SCHEMA}/text_track.json`, id: expect.any(String), type: 'text_track', created: timestamp, last_modified: timestamp,
      relationships: {}, status: 'ready', error_message: null, track_kind: 'subtitles',
      metadata: { label: 'Italiano', srclang: 'it', position: expect.any(Number) },
      delivery_url: `${ORIGIN}/tracks/${created.body.id}.vtt`,
    });
    const list = await callJson('GET', path);
    expect(list.body.text_tracks.map((t: { id: string }) => t.id)).toContain(created.body.id);
    expect((await callJson('GET', `${path}${created.body.id}/`)).body).toEqual(created.body);
    const patched = await callJson('PATCH', `${path}${created.body.id}/`, { body: { metadata: { label: 'Italian' } } });
    expect(patched.status).toBe(200);
    expect(patched.body.metadata).toEqual({ label: 'Italian', srclang: 'it', position: created.body.metadata.position });
    expect(patched.body.track_kind).toBe('subtitles');
    expect((await call('DELETE', `${path}${created.body.id}/`)).status).toBe(204);
    expect((await call('GET', `${path}${created.body.id}/`)).status).toBe(404);
  });

  it('metadata.default is taken on create and update, but no answer says which track is the default', async () => {
    const id = site.media.with_subtitles[0]!;
    const path = `${base}/media/${id}/text_tracks/`;
    const created = await callJson('POST', path, { body: { metadata: { srclang: 'nl', label: 'Nederlands', default: true } } });
    expect(created.status).toBe(201);
    const tracks = (await callJson('GET', path)).body.text_tracks as Array<{ id: string; metadata: Record<string, unknown> }>;
    const patched = await callJson('PATCH', `${path}${tracks[0]!.id}/`, { body: { metadata: { default: true } } });
    expect(patched.status).toBe(200);
    for (const track of [created.body, patched.body, ...(await callJson('GET', path)).body.text_tracks]) {
      expect(track).not.toHaveProperty('default');
      expect(track).toHaveProperty('status', 'ready');
      expect(Object.keys(track.metadata).sort()).toEqual(['label', 'position', 'srclang']);
    }
    expect((await callJson('PATCH', `${path}${tracks[0]!.id}/`, { body: { metadata: { default: 'yes' } } })).status).toBe(400);
  });
});

describe('thumbnails', () => {
  it('POST thumbnails/ (201), GET and PATCH thumbnails/<id> (no trailing slash, as the spec spells it)', async () => {
    const id = await firstPublished();
    const created = await callJson('POST', `${base}/thumbnails/`, {
      body: { relationships: { media: [{ id }] }, upload: { source_type: 'thumbstrip_image', source_media_id: id, video_position: 1 } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      schema: `${SCHEMA}/thumbnail.json`, id: expect.any(String), type: 'thumbnail', created: timestamp, last_modified: timestamp,
      relationships: { media: [{ id: { id, type: 'media' } }] }, status: 'ready', source_type: 'thumbstrip_image',
      thumbnail_type: 'static', file_type: 'jpeg', metadata: {}, delivery_url: `${ORIGIN}/v2/media/${id}/thumbnails/${created.body.id}.jpg`,
    });
    expect((await callJson('GET', `${base}/thumbnails/${created.body.id}`)).body).toEqual(created.body);
    expect((await callJson('GET', `${base}/thumbnails/${created.body.id}/`)).body).toEqual(created.body);
    const patched = await callJson('PATCH', `${base}/thumbnails/${created.body.id}`, { body: { relationships: { media: [{ is_poster: true }] } } });
    expect(patched.status).toBe(200);
    // The answer names the media and never the poster flag; the choice shows on the delivery side.
    expect(patched.body.relationships).toEqual({ media: [{ id: { id, type: 'media' } }] });
    const poster = await posterImage(id);
    expect(poster.status).toBe(200);
    expect(await poster.text()).toBe(await (await thumbnailImage(id, created.body.id)).text());
    expect((await callJson('GET', `${base}/media/${id}/`)).body.relationships).toEqual({});
  });

  it('a frame by its thumbstrip index, and an image fetched from a URL (custom_upload)', async () => {
    const id = await firstPublished();
    const frame = await callJson('POST', `${base}/thumbnails/`, {
      body: { relationships: { media: [{ id }] }, upload: { source_type: 'thumbstrip_image', source_media_id: id, thumbstrip_index: 3 } },
    });
    expect(frame).toMatchObject({ status: 201, body: { source_type: 'thumbstrip_image', status: 'ready' } });
    const fetched = await callJson('POST', `${base}/thumbnails/`, {
      body: { relationships: { media: [{ id }] }, upload: { source_type: 'custom_upload', method: 'fetch', download_url: 'https://example.com/p.jpg' } },
    });
    expect(fetched).toMatchObject({ status: 201, body: { source_type: 'custom_upload', status: 'ready', file_type: 'jpeg' } });
    expect(fetched.body.relationships.media).toEqual([{ id: { id, type: 'media' } }]);
  });

  it.each<[string, (id: string) => Record<string, unknown>]>([
    ['a frame without source_media_id', () => ({ source_type: 'thumbstrip_image', video_position: 1 })],
    ['a frame at a position and an index at once', (id) => ({ source_type: 'thumbstrip_image', source_media_id: id, video_position: 1, thumbstrip_index: 2 })],
    ['a frame at a negative position', (id) => ({ source_type: 'thumbstrip_image', source_media_id: id, video_position: -1 })],
    ['a source type the definition does not have', () => ({ source_type: 'static_frame', time: 1 })],
    ['a custom upload without download_url', () => ({ source_type: 'custom_upload', method: 'fetch', source_url: 'https://example.com/p.jpg' })],
  ])('refuses %s (400)', async (_, upload) => {
    const id = await firstPublished();
    const refused = await callJson('POST', `${base}/thumbnails/`, { body: { relationships: { media: [{ id }] }, upload: upload(id) } });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.errors[0].description).toMatch(/upload\./);
  });
});

describe('playlists', () => {
  it('POST playlists/<type>/ (201), GET playlists/, both show forms, PATCH, both delete forms', async () => {
    const picks = site.media.published.slice(0, 2);
    const created = await callJson('POST', `${base}/playlists/manual_playlist/`, {
      body: { metadata: { title: 'Weekend', media_filter: { include: { match: 'any', values: picks } } } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The typed answer: the own fields and the rules, all under metadata, and neither the type nor the default flag.
    expect(created.body).toEqual({
      schema: `${SCHEMA}/playlist.json`, id: expect.any(String), type: 'playlist', created: timestamp, last_modified: timestamp,
      relationships: {},
      metadata: {
        title: 'Weekend', description: null, author: null, link: null, custom_params: {},
        media_filter: { include: { match: 'any', values: picks } },
      },
    });
    const id = created.body.id as string;
    const list = await callJson('GET', `${base}/playlists/`);
    expect(list.status).toBe(200);
    const untyped = {
      schema: `${SCHEMA}/playlist.json`, id, type: 'playlist', created: created.body.created, last_modified: created.body.last_modified,
      relationships: {}, metadata: { title: 'Weekend', description: null, author: null, link: null, custom_params: {} },
      playlist_type: 'manual', default: false,
    };
    // The untyped answers (list and show): the own fields only, the type by its short name, the default flag.
    expect(list.body.playlists.find((p: { id: string }) => p.id === id)).toEqual(untyped);
    const plain = await callJson('GET', `${base}/playlists/${id}/`);
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual(untyped);
    expect((await callJson('GET', `${base}/playlists/${id}/manual_playlist/`)).body).toEqual(created.body);
    const patched = await callJson('PATCH', `${base}/playlists/${id}/manual_playlist/`, {
      body: { metadata: { description: 'Two days', media_filter: { include: { values: [site.media.published[3]!, picks[0]!] } } } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).not.toHaveProperty('playlist_type');
    expect(patched.body.metadata).toEqual({
      title: 'Weekend', description: 'Two days', author: null, link: null, custom_params: {},
      media_filter: { include: { match: 'any', values: [site.media.published[3], picks[0]] } },
    });
    expect((await callJson('GET', `${base}/playlists/${id}/manual_playlist/`)).body).toEqual(patched.body);
    expect((await call('DELETE', `${base}/playlists/${id}/manual_playlist/`)).status).toBe(204);
    expect((await call('GET', `${base}/playlists/${id}/`)).status).toBe(404);

    const other = await callJson('POST', `${base}/playlists/dynamic_playlist/`, {
      body: { metadata: { title: 'Food', tag_filter: { include: { values: ['food'] } } } },
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    // Partial rules merge over the type's defaults.
    expect(other.body.metadata).toEqual({
      title: 'Food', description: null, author: null, link: null, custom_params: {},
      tag_filter: { include: { values: ['food'], match: 'any' }, exclude: { values: [], match: 'any' } },
      custom_param_filter: { include: { values: {}, match: 'any' }, exclude: { values: {}, match: 'any' } },
      media_filter: { sort: 'publish_start_date:dsc', limit: 25 },
      pinning: { slot1: null, slot2: null },
      recency: null,
    });
    expect((await call('DELETE', `${base}/playlists/${other.body.id}/`)).status).toBe(204);
    expect((await call('GET', `${base}/playlists/${other.body.id}/dynamic_playlist/`)).status).toBe(404);
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
  it('PUT remove_tag/ and rename_tag/ take their members at the top level and answer 202 with no body; query_usage/ answers 200 with figures', async () => {
    const removed = await call('PUT', `${base}/remove_tag/`, { body: { tag: 'nothing-has-this' } });
    expect(removed.status).toBe(202);
    expect(await removed.text()).toBe('');
    const renamed = await call('PUT', `${base}/rename_tag/`, { body: { original_tag: 'nothing-has-this', new_tag: 'x' } });
    expect(renamed.status).toBe(202);
    expect(await renamed.text()).toBe('');
    const usage = await callJson('PUT', `${base}/query_usage/`, { body: { metadata: { start_date: '2026-01-01', end_date: '2026-01-31' } } });
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({
      site_id: site.id, start_date: '2026-01-01', end_date: '2026-01-31',
      total: { plays: expect.any(Number), delivered_bytes: expect.any(Number), stored_bytes: expect.any(Number), api_calls: expect.any(Number) },
    });
    expect(usage.body).not.toHaveProperty('days');
  });

  it('a tag action refuses the envelope body and unknown members (400 invalid_body)', async () => {
    for (const [path, body] of [
      ['remove_tag/', { metadata: { tag: 'food' } }],
      ['rename_tag/', { metadata: { tag: 'food', new_tag: 'cuisine' } }],
      ['remove_tag/', { tag: 'food', media_id: 'x' }],
    ] as const) {
      const refused = await callJson('PUT', `${base}/${path}`, { body });
      expect(refused.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(refused.body.errors[0].code).toBe('invalid_body');
    }
    expect((await callJson('GET', `${base}/media/?q=tags:food&page_length=1`)).body.total).toBeGreaterThan(0);
  });
});
