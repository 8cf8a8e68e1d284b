// Every route of the spec's endpoint table, called through the typed client against the sandbox upstream.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  PLAYLIST_SORTS, PLAYLIST_TYPES, updateCustomParams, V2ApiError, type Media, type PlaylistType, type TypedPlaylist,
} from '../../worker/upstream/index.ts';
import { recordingFetch, resetSandbox, sandboxCatalog, setProcessing, v2Client, type CatalogSite } from './sandbox-support.ts';

let site: CatalogSite;
const client = v2Client();

beforeAll(async () => {
  await resetSandbox();
  const catalog = await sandboxCatalog();
  site = catalog.sites[0]!;
});
beforeEach(async () => {
  await resetSandbox();
});

async function notFound(call: Promise<unknown>): Promise<V2ApiError> {
  const error = await call.then(() => null, (reason: unknown) => reason);
  expect(error).toBeInstanceOf(V2ApiError);
  const apiError = error as V2ApiError;
  expect(apiError.status).toBe(404);
  expect(apiError.errors[0]?.code).toBe('not_found');
  return apiError;
}

const readyMedia = async (): Promise<Media> => client.getMedia(site.id, site.media.published[0]!);

describe('media', () => {
  it('lists, shows, creates, updates and deletes media', async () => {
    const list = await client.listMedia(site.id);
    expect(list.total).toBeGreaterThanOrEqual(120);
    expect(list.page).toBe(1);
    expect(list.media.length).toBe(list.page_length);

    const first = list.media[0]!;
    const shown = await client.getMedia(site.id, first.id);
    expect(shown).toEqual(first);
    expect(shown.metadata.custom_params).toBeTypeOf('object');

    await setProcessing({ seconds: 3600 });
    const created = await client.createMedia(site.id, {
      metadata: { title: 'Client test', tags: ['client-test'], custom_params: { origin: 'test' } },
      upload: { method: 'fetch', source_url: 'https://example.com/video.mp4', mime_type: 'video/mp4' },
    });
    // A fetch is processing until the platform has the file; held there so the answers compare.
    expect(created).toMatchObject({ type: 'media', status: 'processing', metadata: { title: 'Client test', tags: ['client-test'] } });
    expect(await client.getMedia(site.id, created.id)).toEqual(created);
    await setProcessing({ finish: true });
    expect(await client.getMedia(site.id, created.id)).toMatchObject({ status: 'ready', duration: expect.any(Number) });

    const updated = await client.updateMedia(site.id, created.id, { metadata: { title: 'Renamed' } });
    expect(updated.metadata.title).toBe('Renamed');
    expect(updated.metadata.custom_params).toEqual({ origin: 'test' });

    await expect(client.deleteMedia(site.id, created.id)).resolves.toBeUndefined();
    await notFound(client.getMedia(site.id, created.id));
    await notFound(client.deleteMedia(site.id, created.id));
  });

  it('an unknown site or media is a 404 with the v2 error body', async () => {
    const error = await notFound(client.getMedia(site.id, 'no-such-media'));
    expect(error.errors[0]!.description.length).toBeGreaterThan(0);
    expect(error.rateLimit.limit).toBe(10_000);
    await notFound(client.listMedia('no-such-site'));
  });

  it('a refused body is a 400 naming the field, and nothing is written', async () => {
    const media = await readyMedia();
    const error = await client.updateMedia(site.id, media.id, { metadata: { title: '' } }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(V2ApiError);
    expect((error as V2ApiError).status).toBe(400);
    expect((error as V2ApiError).errors[0]!.description).toMatch(/title/);
    expect((await client.getMedia(site.id, media.id)).metadata.title).toBe(media.metadata.title);
  });
});

describe('conflicts', () => {
  it('a frame of media that is not ready is a 409 with the platform\'s code', async () => {
    const notReady = site.media.not_ready[0]!;
    const error = await client.createThumbnail(site.id, {
      relationships: { media: [{ id: notReady }] }, upload: { source_type: 'thumbstrip_image', source_media_id: notReady },
    }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(V2ApiError);
    expect(error).toMatchObject({ status: 409, errors: [{ code: 'media_not_ready' }] });
    expect((error as V2ApiError).hasCode('media_not_ready')).toBe(true);
  });
});

describe('custom_params replacement semantics', () => {
  it('a PATCH with custom_params replaces the stored object (omitted keys are deleted)', async () => {
    const media = await readyMedia();
    await client.updateMedia(site.id, media.id, { metadata: { custom_params: { a: '1', b: '2' } } });
    const replaced = await client.updateMedia(site.id, media.id, { metadata: { custom_params: { b: '3' } } });
    expect(replaced.metadata.custom_params).toEqual({ b: '3' });
  });

  it('updateCustomParams changes only what it is told and keeps every other key', async () => {
    const media = await readyMedia();
    await client.updateMedia(site.id, media.id, { metadata: { custom_params: { keep: 'yes', change: 'old', drop: 'x' } } });
    const recorder = recordingFetch();
    const updated = await updateCustomParams(v2Client({ fetch: recorder.fetch }), site.id, media.id, { change: 'new', drop: null, add: '1' });
    expect(updated.metadata.custom_params).toEqual({ keep: 'yes', change: 'new', add: '1' });
    expect((await client.getMedia(site.id, media.id)).metadata.custom_params).toEqual({ keep: 'yes', change: 'new', add: '1' });
    // One read, then one PATCH carrying only metadata.custom_params.
    expect(recorder.calls.map((call) => call.method)).toEqual(['GET', 'PATCH']);
    expect(JSON.parse(recorder.calls[1]!.body!)).toEqual({ metadata: { custom_params: { keep: 'yes', change: 'new', add: '1' } } });
    expect(updated.metadata.title).toBe(media.metadata.title);
  });
});

describe('pagination, q and the iterator', () => {
  it('pages follow page and page_length, and total stays the same', async () => {
    const one = await client.listMedia(site.id, { page: 1, page_length: 7 });
    const two = await client.listMedia(site.id, { page: 2, page_length: 7 });
    expect(one).toMatchObject({ page: 1, page_length: 7 });
    expect(two).toMatchObject({ page: 2, page_length: 7, total: one.total });
    expect(one.media).toHaveLength(7);
    const ids = new Set([...one.media, ...two.media].map((media) => media.id));
    expect(ids.size).toBe(14);
    const last = Math.ceil(one.total / 7);
    expect((await client.listMedia(site.id, { page: last, page_length: 7 })).media.length).toBe(one.total - (last - 1) * 7);
    expect((await client.listMedia(site.id, { page: last + 1, page_length: 7 })).media).toEqual([]);
  });

  it('iterateMedia walks every page once and stops at the total', async () => {
    const recorder = recordingFetch();
    const paging = v2Client({ fetch: recorder.fetch });
    const ids: string[] = [];
    for await (const media of paging.iterateMedia(site.id, { page_length: 25 })) ids.push(media.id);
    const { total } = await client.listMedia(site.id, { page_length: 1 });
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(recorder.calls).toHaveLength(Math.ceil(total / 25));
    expect(recorder.calls.map((call) => new URL(call.url).searchParams.get('page'))).toEqual(
      Array.from({ length: Math.ceil(total / 25) }, (_, index) => String(index + 1)));
  });

  it('the iterator carries q and sort to every page, and can be left early', async () => {
    const tagged: Media[] = [];
    for await (const media of client.iterateMedia(site.id, { q: 'tags:food', sort: 'title:asc', page_length: 5 })) tagged.push(media);
    expect(tagged.length).toBeGreaterThan(5);
    expect(tagged.every((media) => media.metadata.tags.includes('food'))).toBe(true);
    const titles = tagged.map((media) => media.metadata.title.toLowerCase());
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

    const recorder = recordingFetch();
    let taken = 0;
    for await (const _ of v2Client({ fetch: recorder.fetch }).iterateMedia(site.id, { page_length: 5 })) {
      if (++taken === 6) break;
    }
    expect(recorder.calls).toHaveLength(2);
  });

  it('q filters with field:value terms joined by AND', async () => {
    const food = await client.listMedia(site.id, { q: 'tags:food', page_length: 500 });
    const foodAudio = await client.listMedia(site.id, { q: 'tags:food AND media_type:audio', page_length: 500 });
    expect(food.total).toBeGreaterThan(0);
    expect(food.media.every((media) => media.metadata.tags.includes('food'))).toBe(true);
    expect(foodAudio.total).toBeLessThanOrEqual(food.total);
    expect(foodAudio.media.every((media) => media.metadata.tags.includes('food') && media.media_type === 'audio')).toBe(true);
    const error = await client.listMedia(site.id, { q: 'nosuchfield:x' }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ status: 400, errors: [{ code: 'invalid_query' }] });
  });

  it('every list route takes the list parameters and has an iterator', async () => {
    const media = site.media.with_subtitles[0]!;
    expect((await client.listPlaylists(site.id, { page_length: 2 })).playlists.length).toBeLessThanOrEqual(2);
    expect((await client.listPlayers(site.id, { q: 'release_channel:latest' })).players
      .every((player) => player.metadata.release_channel === 'latest')).toBe(true);
    const playlists = [];
    for await (const playlist of client.iteratePlaylists(site.id, { page_length: 2 })) playlists.push(playlist);
    expect(playlists.length).toBe((await client.listPlaylists(site.id)).total);
    const players = [];
    for await (const player of client.iteratePlayers(site.id)) players.push(player);
    expect(players.map((player) => player.id).sort()).toEqual([...site.players].sort());
    const tracks = [];
    for await (const track of client.iterateTextTracks(site.id, media, { page_length: 1 })) tracks.push(track);
    expect(tracks.length).toBe((await client.listTextTracks(site.id, media)).total);
    const renditions = [];
    for await (const rendition of client.iterateMediaRenditions(site.id, media, { page_length: 1 })) renditions.push(rendition);
    expect(renditions.length).toBe((await client.listMediaRenditions(site.id, media)).total);
    const originals = [];
    for await (const original of client.iterateOriginals(site.id, media)) originals.push(original);
    expect(originals.length).toBe(1);
  });
});

describe('renditions and originals', () => {
  it('lists, shows, creates and deletes renditions; the original says its size and kind', async () => {
    const media = await readyMedia();
    const list = await client.listMediaRenditions(site.id, media.id);
    expect(list.total).toBeGreaterThan(0);
    const first = list.media_renditions[0]!;
    expect(first).toMatchObject({ type: 'media_rendition', status: 'ready', error_message: null, format: expect.stringMatching(/^(mp4|m3u8)$/), metadata: {} });
    expect(first).not.toHaveProperty('media_id');
    expect(first).not.toHaveProperty('mime_type');
    expect(Number.isInteger(first.filesize)).toBe(true);
    expect(first.delivery_url).toMatch(/^http/);
    expect(await client.getMediaRendition(site.id, media.id, first.id)).toEqual(first);

    const created = await client.createMediaRendition(site.id, media.id, { metadata: { name: 'Test 480p', width: 854, mime_type: 'video/mp4' } });
    expect(created).toMatchObject({ type: 'media_rendition', width: 854, height: 480, format: 'mp4', metadata: {}, relationships: {} });
    await expect(client.deleteMediaRendition(site.id, media.id, created.id)).resolves.toBeUndefined();
    await notFound(client.getMediaRendition(site.id, media.id, created.id));

    const originals = await client.listOriginals(site.id, media.id);
    expect(originals.originals).toHaveLength(1);
    const original = originals.originals[0]!;
    expect(original).toMatchObject({ type: 'original', status: 'ready', original_type: 'primary', md5: null, metadata: { type: 'other' } });
    expect(Number(original.size)).toBeGreaterThan(0);
    expect(original).not.toHaveProperty('duration');
  });
});

describe('text tracks', () => {
  it('creates, lists, shows, updates and deletes a text track', async () => {
    const media = await readyMedia();
    const before = await client.listTextTracks(site.id, media.id);
    const created = await client.createTextTrack(site.id, media.id, {
      metadata: { label: 'Klingon', srclang: 'tlh', kind: 'subtitles', default: false },
      upload: { method: 'fetch', source_url: 'https://example.com/tlh.vtt', mime_type: 'text/vtt' },
    });
    expect(created).toMatchObject({ type: 'text_track', track_kind: 'subtitles', error_message: null, relationships: {} });
    // Label, language and menu place only: no default flag, no media id; its status (published at once) beside them.
    expect(created.metadata).toEqual({ label: 'Klingon', srclang: 'tlh', position: before.total });
    expect(created.status).toBe('ready');
    for (const member of ['media_id', 'default']) expect(created).not.toHaveProperty(member);
    expect(created.delivery_url).toMatch(/^http/);
    expect((await client.listTextTracks(site.id, media.id)).total).toBe(before.total + 1);
    expect(await client.getTextTrack(site.id, media.id, created.id)).toEqual(created);
    const updated = await client.updateTextTrack(site.id, media.id, created.id, { metadata: { label: 'tlhIngan Hol' } });
    expect(updated.metadata.label).toBe('tlhIngan Hol');
    await client.deleteTextTrack(site.id, media.id, created.id);
    await notFound(client.getTextTrack(site.id, media.id, created.id));
  });
});

describe('thumbnails', () => {
  it('creates a frame thumbnail, shows it, and makes it the poster', async () => {
    const media = await readyMedia();
    const recorder = recordingFetch();
    const recording = v2Client({ fetch: recorder.fetch });
    const created = await recording.createThumbnail(site.id, {
      relationships: { media: [{ id: media.id }] },
      upload: { source_type: 'thumbstrip_image', source_media_id: media.id, video_position: 1 },
    });
    expect(created).toMatchObject({ type: 'thumbnail', source_type: 'thumbstrip_image', file_type: 'jpeg', metadata: {} });
    expect(await recording.getThumbnail(site.id, created.id)).toEqual(created);
    const poster = await recording.updateThumbnail(site.id, created.id, { relationships: { media: [{ is_poster: true }] } });
    // The answer names the media, never the poster flag (the definition has none).
    expect(poster.relationships.media).toEqual([{ id: { id: media.id, type: 'media' } }]);
    // The choice shows on the delivery side: the media's poster image is now this thumbnail's.
    const image = async (url: string) => (await fetch(url)).text();
    expect(await image(`http://sandbox.test/v2/media/${media.id}/poster.jpg?width=720`)).toBe(await image(`${created.delivery_url}?width=720`));
    // The spec writes thumbnails/<thumbnail_id> without a trailing slash; the client sends exactly that.
    expect(new URL(recorder.calls[1]!.url).pathname).toBe(`/v2/sites/${site.id}/thumbnails/${created.id}`);
    await notFound(client.getThumbnail(site.id, 'no-such-thumbnail'));
  });
});

/** The seed holds five of the six types; the platform's watchlist type is created by the tests that need one. */
const SEEDED_TYPES = PLAYLIST_TYPES.filter((type) => type !== 'watchlist');
/** A playlist's own fields, under `metadata` in every answer. */
const OWN_FIELDS = ['author', 'custom_params', 'description', 'link', 'title'];
/** What each type's rules add under `metadata` in the typed answers (and only there). */
const FILTER_RULES = ['custom_param_filter', 'media_filter', 'pinning', 'recency', 'tag_filter'];
const RULE_MEMBERS: Record<PlaylistType, string[]> = {
  manual: ['media_filter'], dynamic: FILTER_RULES, search: FILTER_RULES, recommendations: FILTER_RULES,
  article_matching: FILTER_RULES, watchlist: [],
};

describe('playlists', () => {
  it('shows each of the five seeded types in both forms', async () => {
    expect(SEEDED_TYPES).toHaveLength(5);
    for (const type of SEEDED_TYPES) {
      const id = site.playlists[type]![0]!;
      // The untyped form: the own fields only, the type by its short name, and the default flag.
      const plain = await client.getPlaylist(site.id, id);
      expect(plain).toMatchObject({ id, type: 'playlist', playlist_type: type, default: expect.any(Boolean), relationships: {} });
      expect(Object.keys(plain.metadata).sort()).toEqual(OWN_FIELDS);
      // The typed form: the same fields and the type's rules, all under metadata, and no type or default flag.
      const typed = await client.getTypedPlaylist(site.id, id, type);
      expect(typed).toMatchObject({ id, type: 'playlist', created: plain.created, last_modified: plain.last_modified, metadata: plain.metadata });
      expect(typed).not.toHaveProperty('playlist_type');
      expect(typed).not.toHaveProperty('default');
      expect(Object.keys(typed.metadata).sort()).toEqual([...OWN_FIELDS, ...RULE_MEMBERS[type]].sort());
      const rules = typed.metadata as unknown as Record<string, any>;
      if (type === 'manual') {
        expect(rules.media_filter.include.match).toBe('any');
        expect(rules.media_filter.include.values.length).toBeGreaterThan(0);
      } else {
        expect(rules.media_filter.limit).toBeGreaterThan(0);
        expect(rules.pinning).toEqual({ slot1: expect.toBeOneOf([null, expect.any(String)]), slot2: expect.toBeOneOf([null, expect.any(String)]) });
        expect(Object.keys(rules.tag_filter).sort()).toEqual(['exclude', 'include']);
        if (type === 'dynamic') expect(PLAYLIST_SORTS).toContain(rules.media_filter.sort);
        else expect(rules.media_filter).not.toHaveProperty('sort');
      }
    }
    // The site's default recommendations playlist is the seeded one.
    expect((await client.getPlaylist(site.id, site.playlists.recommendations![0]!)).default).toBe(true);
    // No trending type: the seed's trending playlist is a dynamic one sorted by trending.
    const dynamics = await Promise.all(site.playlists.dynamic!.map((id) => client.getTypedPlaylist(site.id, id, 'dynamic')));
    expect(dynamics.find((p) => p.metadata.title === 'Trending This Week')?.metadata.media_filter.sort).toBe('trending:dsc');
  });

  it('the typed form of another type is a 404', async () => {
    await notFound(client.getTypedPlaylist(site.id, site.playlists.manual![0]!, 'dynamic'));
  });

  it('creates a manual playlist, edits its media through PATCH, and deletes it (both forms)', async () => {
    const ids = site.media.published.slice(0, 3);
    const created = await client.createPlaylist(site.id, 'manual', {
      metadata: { title: 'Editor picks', custom_params: { shelf: 'home' }, media_filter: { include: { match: 'any', values: ids.slice(0, 2) } } },
    });
    expect(created).not.toHaveProperty('playlist_type');
    expect(created.metadata).toEqual({
      title: 'Editor picks', description: null, author: null, link: null, custom_params: { shelf: 'home' },
      media_filter: { include: { match: 'any', values: ids.slice(0, 2) } },
    });
    const updated: TypedPlaylist<'manual'> = await client.updatePlaylist(site.id, created.id, 'manual', {
      metadata: { media_filter: { include: { values: [ids[2]!, ids[0]!] } } },
    });
    expect(updated.metadata.media_filter.include).toEqual({ match: 'any', values: [ids[2], ids[0]] });
    expect(updated.metadata).toMatchObject({ title: 'Editor picks', custom_params: { shelf: 'home' } });
    expect((await client.getTypedPlaylist(site.id, created.id, 'manual')).metadata.media_filter.include.values).toEqual([ids[2], ids[0]]);
    expect((await client.getPlaylist(site.id, created.id)).playlist_type).toBe('manual');
    await client.deleteTypedPlaylist(site.id, created.id, 'manual');
    await notFound(client.getPlaylist(site.id, created.id));

    // Partial rules merge over the type's defaults.
    const dynamic = await client.createPlaylist(site.id, 'dynamic', {
      metadata: { title: 'Food', tag_filter: { include: { values: ['food'] } }, media_filter: { sort: 'trending:dsc' } },
    });
    expect(dynamic.metadata.tag_filter).toEqual({ include: { values: ['food'], match: 'any' }, exclude: { values: [], match: 'any' } });
    expect(dynamic.metadata.media_filter).toEqual({ sort: 'trending:dsc', limit: 25 });
    expect(dynamic.metadata).toMatchObject({ pinning: { slot1: null, slot2: null }, recency: null });
    await client.deletePlaylist(site.id, dynamic.id);
    await notFound(client.getTypedPlaylist(site.id, dynamic.id, 'dynamic'));
  });

  it('builds typed paths with the platform spelling, and handles the watchlist type beyond the seed', async () => {
    const recorder = recordingFetch();
    const recording = v2Client({ fetch: recorder.fetch });
    const watchlist = await recording.createPlaylist(site.id, 'watchlist', { metadata: { title: 'Saved for later' } });
    // A watchlist has no rules: its typed answer is the own fields alone.
    expect(watchlist).not.toHaveProperty('playlist_type');
    expect(watchlist.metadata).toEqual({ title: 'Saved for later', description: null, author: null, link: null, custom_params: {} });
    expect(await recording.getTypedPlaylist(site.id, watchlist.id, 'watchlist')).toEqual(watchlist);
    await recording.deleteTypedPlaylist(site.id, watchlist.id, 'watchlist');
    expect(recorder.calls.map((call) => `${call.method} ${new URL(call.url).pathname}`)).toEqual([
      `POST /v2/sites/${site.id}/playlists/watchlist_playlist/`,
      `GET /v2/sites/${site.id}/playlists/${watchlist.id}/watchlist_playlist/`,
      `DELETE /v2/sites/${site.id}/playlists/${watchlist.id}/watchlist_playlist/`,
    ]);
    expect(JSON.parse(recorder.calls[0]!.body!)).toEqual({ metadata: { title: 'Saved for later' } });
  });

  it('lists playlists of every type', async () => {
    const all = await client.listPlaylists(site.id, { page_length: 500 });
    expect(new Set(all.playlists.map((playlist) => playlist.playlist_type))).toEqual(new Set(SEEDED_TYPES));
    // What a v1 `channels/list?type=dynamic` maps to (mapV1Route gives q: 'playlist_type:dynamic').
    const dynamic = await client.listPlaylists(site.id, { q: 'playlist_type:dynamic' });
    expect(dynamic.playlists.map((playlist) => playlist.id).sort()).toEqual([...site.playlists.dynamic!].sort());
  });
});

describe('players', () => {
  it('creates, lists, shows, updates and deletes a player; setup_config is left open', async () => {
    const list = await client.listPlayers(site.id);
    expect(list.players.map((player) => player.id).sort()).toEqual([...site.players].sort());
    const created = await client.createPlayer(site.id, {
      metadata: { name: 'Test player', release_channel: 'latest', setup_config: { autostart: false, aspectratio: '16:9', anything: { nested: 1 } } },
    });
    expect(created.metadata.setup_config).toEqual({ autostart: false, aspectratio: '16:9', anything: { nested: 1 } });
    expect(await client.getPlayer(site.id, created.id)).toEqual(created);
    const updated = await client.updatePlayer(site.id, created.id, { metadata: { name: 'Renamed player' } });
    expect(updated.metadata.name).toBe('Renamed player');
    await client.deletePlayer(site.id, created.id);
    await notFound(client.getPlayer(site.id, created.id));
  });
});

describe('actions', () => {
  const countTagged = async (tag: string) => (await client.listMedia(site.id, { q: `tags:${tag}`, page_length: 1 })).total;

  it('rename_tag renames the tag on every media of the site', async () => {
    const before = await countTagged('travel');
    expect(before).toBeGreaterThan(0);
    expect(await client.renameTag(site.id, { original_tag: 'travel', new_tag: 'journeys' })).toBeUndefined();
    expect(await countTagged('travel')).toBe(0);
    expect(await countTagged('journeys')).toBe(before);
  });

  it('remove_tag removes the tag from every media of the site', async () => {
    const before = await countTagged('food');
    expect(before).toBeGreaterThan(0);
    expect(await client.removeTag(site.id, { tag: 'food' })).toBeUndefined();
    expect(await countTagged('food')).toBe(0);
    // Removing a tag nothing carries is accepted too.
    expect(await client.removeTag(site.id, { tag: 'food' })).toBeUndefined();
  });

  it('query_usage answers figures, in total and per day', async () => {
    const total = await client.queryUsage(site.id, { metadata: { start_date: '2026-01-01', end_date: '2026-01-07' } });
    expect(total).toMatchObject({ site_id: site.id, start_date: '2026-01-01', end_date: '2026-01-07' });
    expect(total.total.plays).toBeGreaterThan(0);
    expect(total.days).toBeUndefined();
    const daily = await client.queryUsage(site.id, { metadata: { start_date: '2026-01-01', end_date: '2026-01-07', group_by: 'day' } });
    expect(daily.days).toHaveLength(7);
    expect(daily.days!.reduce((sum, day) => sum + day.plays, 0)).toBe(daily.total.plays);
    const error = await client.queryUsage(site.id, { metadata: { start_date: '2026-02-30', end_date: '2026-03-01' } }).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ status: 400, errors: [{ code: 'invalid_date' }] });
  });
});

describe('raw()', () => {
  it('returns the upstream answer whatever its status, built like every other call', async () => {
    const recorder = recordingFetch();
    const raw = v2Client({ fetch: recorder.fetch });
    const ok = await raw.raw('GET', `/v2/sites/${site.id}/media/`, { query: new URLSearchParams({ page_length: '2' }) });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { media: unknown[] }).media).toHaveLength(2);
    const missing = await raw.raw('GET', `/v2/sites/${site.id}/media/nope/`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ errors: [{ code: 'not_found', description: expect.any(String) }] });
    const wrongMethod = await raw.raw('PUT', `/v2/sites/${site.id}/media/`, { body: { metadata: {} } });
    expect(wrongMethod.status).toBe(405);
    expect(recorder.calls[2]!.headers['content-type']).toBe('application/json');
    expect(recorder.calls.every((call) => call.headers.authorization === 'Bearer sandbox-api-secret-not-for-production')).toBe(true);
  });
});
