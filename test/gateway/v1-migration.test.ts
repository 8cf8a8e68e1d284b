import { describe, expect, it } from 'vitest';
import {
  mapV1Conversion, mapV1Error, mapV1MediaCreateFields, mapV1MediaFields, mapV1PlayerOptions,
  mapV1Route, mapV1TrackLink, mapV2ErrorToV1, renameV1MediaField, toV1Channel, toV1Conversion, toV1Player, toV1Track,
  toV1Video, V1_RESOURCE_RENAMES,
} from '../../worker/gateway/v1/v1-migration.ts';
import {
  InvalidArgumentError, type Media, type MediaRendition, type Original, type Player, type Playlist, type TextTrack,
} from '../../worker/upstream/index.ts';

describe('mapV1Route: the spec\'s replacement table, row by row', () => {
  it.each([
    ['/v1/accounts/tags/delete', 'PUT', '/v2/sites/<site_id>/remove_tag/'],
    ['/v1/accounts/tags/update', 'PUT', '/v2/sites/<site_id>/rename_tag/'],
    ['/v1/accounts/usage/show', 'PUT', '/v2/sites/<site_id>/query_usage/'],
    ['/v1/channels/list', 'GET', '/v2/sites/<site_id>/playlists/'],
    ['/v1/channels/show', 'GET', '/v2/sites/<site_id>/playlists/<playlist_id>/'],
    ['/v1/channels/update', 'PATCH', '/v2/sites/<site_id>/playlists/<playlist_id>/<playlist_type>/'],
    ['/v1/channels/delete', 'DELETE', '/v2/sites/<site_id>/playlists/<playlist_id>/'],
    ['/v1/players/create', 'POST', '/v2/sites/<site_id>/players/'],
    ['/v1/players/list', 'GET', '/v2/sites/<site_id>/players/'],
    ['/v1/players/show', 'GET', '/v2/sites/<site_id>/players/<player_id>/'],
    ['/v1/players/update', 'PATCH', '/v2/sites/<site_id>/players/<player_id>/'],
    ['/v1/players/delete', 'DELETE', '/v2/sites/<site_id>/players/<player_id>/'],
    ['/v1/videos/create', 'POST', '/v2/sites/<site_id>/media/'],
    ['/v1/videos/list', 'GET', '/v2/sites/<site_id>/media/'],
    ['/v1/videos/show', 'GET', '/v2/sites/<site_id>/media/<media_id>/'],
    ['/v1/videos/update', 'PATCH', '/v2/sites/<site_id>/media/<media_id>/'],
    ['/v1/videos/delete', 'DELETE', '/v2/sites/<site_id>/media/<media_id>/'],
    ['/v1/videos/conversions/create', 'POST', '/v2/sites/<site_id>/media/<media_id>/media_renditions/'],
    ['/v1/videos/conversions/show', 'GET', '/v2/sites/<site_id>/media/<media_id>/media_renditions/<rendition_id>/'],
    ['/v1/videos/conversions/delete', 'DELETE', '/v2/sites/<site_id>/media/<media_id>/media_renditions/<rendition_id>/'],
    ['/v1/videos/thumbnails/show', 'GET', '/v2/sites/<site_id>/thumbnails/<thumbnail_id>'],
    ['/v1/videos/tracks/create', 'POST', '/v2/sites/<site_id>/media/<media_id>/text_tracks/'],
    ['/v1/videos/tracks/list', 'GET', '/v2/sites/<site_id>/media/<media_id>/text_tracks/'],
    ['/v1/videos/tracks/show', 'GET', '/v2/sites/<site_id>/media/<media_id>/text_tracks/<track_id>/'],
    ['/v1/videos/tracks/update', 'PATCH', '/v2/sites/<site_id>/media/<media_id>/text_tracks/<track_id>/'],
    ['/v1/videos/tracks/delete', 'DELETE', '/v2/sites/<site_id>/media/<media_id>/text_tracks/<track_id>/'],
  ])('%s → %s %s', (v1, method, path) => {
    expect(mapV1Route(v1)).toMatchObject({ method, path });
  });

  it('/v1/videos/conversions/list covers renditions and originals', () => {
    expect(mapV1Route('/v1/videos/conversions/list?video_key=m1', { siteId: 's1' })).toMatchObject({
      method: 'GET', path: '/v2/sites/s1/media/m1/media_renditions/',
      also: [{ method: 'GET', path: '/v2/sites/s1/media/m1/originals/' }],
    });
  });

  it('/v1/videos/thumbnails/update → POST thumbnails/ and PATCH thumbnails/<thumbnail_id>', () => {
    expect(mapV1Route('/v1/videos/thumbnails/update')).toMatchObject({
      method: 'POST', path: '/v2/sites/<site_id>/thumbnails/',
      also: [{ method: 'PATCH', path: '/v2/sites/<site_id>/thumbnails/<thumbnail_id>' }],
    });
  });

  it.each(['create', 'list', 'show', 'update', 'delete'])(
    'every channel video operation (/v1/channels/videos/%s) becomes a PATCH on the playlist', (action) => {
      expect(mapV1Route(`/v1/channels/videos/${action}?channel_key=p1&type=manual`, { siteId: 's1' })).toMatchObject({
        method: 'PATCH', path: '/v2/sites/s1/playlists/p1/manual_playlist/',
      });
    });

  it.each([
    '/v1/accounts/tags/create', '/v1/accounts/tags/list', '/v1/accounts/tags/show', '/v1/videos/tags/list', '/v1/status',
  ])('%s is not supported, with a reason', (v1) => {
    const result = mapV1Route(v1);
    expect(result).toEqual({ unsupported: true, reason: expect.any(String) });
    expect((result as { reason: string }).reason.length).toBeGreaterThan(10);
  });

  it('the v1 type query becomes the playlist_type path parameter', () => {
    expect(mapV1Route('/v1/channels/create?type=dynamic', { siteId: 'abcd1234' })).toEqual({
      method: 'POST', path: '/v2/sites/abcd1234/playlists/dynamic_playlist/',
    });
    expect(mapV1Route('/v1/channels/show?channel_key=p9&type=manual')).toMatchObject({
      method: 'GET', path: '/v2/sites/<site_id>/playlists/p9/manual_playlist/',
    });
    expect(mapV1Route('/v1/channels/delete?channel_key=p9&type=search')).toMatchObject({
      method: 'DELETE', path: '/v2/sites/<site_id>/playlists/p9/search_playlist/',
    });
    expect(mapV1Route('/v1/channels/list?type=dynamic')).toEqual({
      method: 'GET', path: '/v2/sites/<site_id>/playlists/', query: { q: 'playlist_type:dynamic' },
    });
    expect(() => mapV1Route('/v1/channels/create?type=bogus')).toThrow(InvalidArgumentError);
  });

  it('fills ids from v1 keys, encoded and checked', () => {
    expect(mapV1Route('/v1/videos/tracks/show?video_key=m%201&track_key=t1', { siteId: 's' })).toMatchObject({
      path: '/v2/sites/s/media/m%201/text_tracks/t1/',
    });
    expect(() => mapV1Route('/v1/videos/show?video_key=../players')).toThrow(InvalidArgumentError);
  });

  it('anything else is unsupported rather than guessed', () => {
    expect(mapV1Route('/v1/videos/batch/create')).toMatchObject({ unsupported: true });
    expect(mapV1Route('/v1/accounts/show')).toMatchObject({ unsupported: true, reason: expect.stringMatching(/site/) });
    expect(mapV1Route('/v2/sites/x/media/')).toMatchObject({ unsupported: true });
  });

  it('names the resource renames of Versioning 4', () => {
    expect(V1_RESOURCE_RENAMES).toEqual({
      account: 'site', channel: 'playlist', conversion: 'originals and media_renditions', track: 'text_track',
      video: 'media',
    });
  });
});

describe('media field renames (spec: Known fields of media)', () => {
  it.each([
    ['date', 'publish_start_date'], ['expires_date', 'publish_end_date'], ['error', 'error_message'],
    ['link', 'permalink'], ['mediatype', 'media_type'], ['sourceformat', 'mime_type'], ['sourcetype', 'hosting_type'],
    ['title', 'title'],
  ])('%s → %s', (v1, v2) => {
    expect(renameV1MediaField(v1)).toBe(v2);
  });
});

describe('mapV1MediaFields: v1 /videos/update parameters → v2 PATCH body', () => {
  it('renames and converts fields', () => {
    expect(mapV1MediaFields({
      video_key: 'abc', api_key: 'k', api_signature: 's', title: 'T', description: 'D', author: 'A',
      link: 'https://example.com/a', tags: 'news, sport ,,weather', date: '1767225600', expires_date: 0,
    })).toEqual({
      metadata: {
        title: 'T', description: 'D', author: 'A', permalink: 'https://example.com/a', tags: ['news', 'sport', 'weather'],
        publish_start_date: '2026-01-01T00:00:00Z', publish_end_date: null,
      },
    });
  });

  it('custom.<name> and custom.-<name> become the complete custom_params, applied on top of the current object', () => {
    const body = mapV1MediaFields(
      { 'custom.rating': '12', 'custom.-region': '', 'custom.season': 2 },
      { genre: 'drama', rating: 'pg', region: 'eu' },
    );
    expect(body).toEqual({ metadata: { custom_params: { genre: 'drama', rating: '12', season: '2' } } });
  });

  it('refuses custom changes without the current object (they would delete every other key)', () => {
    expect(() => mapV1MediaFields({ 'custom.rating': '12' })).toThrow(/current custom_params/);
  });

  it('refuses fields v2 does not have or that cannot be updated, saying why', () => {
    expect(() => mapV1MediaFields({ md5: 'x' })).toThrow(/does not exist in v2/);
    expect(() => mapV1MediaFields({ size: '1' })).toThrow(/does not exist in v2/);
    expect(() => mapV1MediaFields({ mediatype: 'video' })).toThrow(InvalidArgumentError);
    expect(() => mapV1MediaFields({ bogus: '1' })).toThrow(/not a v1 video field/);
    expect(() => mapV1MediaFields({ date: 'yesterday' })).toThrow(InvalidArgumentError);
  });

  it('/videos/create: source fields go into upload', () => {
    expect(mapV1MediaCreateFields({ title: 'Ext', sourcetype: 'url', sourceurl: 'https://cdn.example/v.mp4', sourceformat: 'mp4' }))
      .toEqual({ metadata: { title: 'Ext' }, upload: { method: 'external', source_url: 'https://cdn.example/v.mp4', mime_type: 'video/mp4' } });
    expect(mapV1MediaCreateFields({ title: 'F', download_url: 'https://cdn.example/f.mov', 'custom.a': '1' }))
      .toEqual({ metadata: { title: 'F', custom_params: { a: '1' } }, upload: { method: 'fetch', source_url: 'https://cdn.example/f.mov', mime_type: null } });
    expect(() => mapV1MediaCreateFields({ sourcetype: 'url' })).toThrow(/sourceurl/);
  });
});

describe('renditions, originals and tracks', () => {
  it('a v1 conversion: link → delivery_url, string filesize → integer', () => {
    expect(mapV1Conversion({ key: 'r1', link: 'https://cdn.example/r1.mp4', filesize: '1048576', width: '1280', height: 720 }))
      .toEqual({ id: 'r1', delivery_url: 'https://cdn.example/r1.mp4', filesize: 1048576, width: 1280, height: 720 });
    expect(() => mapV1Conversion({ filesize: '12.5' })).toThrow(InvalidArgumentError);
    expect(() => mapV1Conversion({ filesize: 'big' })).toThrow(InvalidArgumentError);
  });

  it('a v1 track link object → one delivery_url', () => {
    expect(mapV1TrackLink({ protocol: 'https', address: 'cdn.example', path: '/tracks/t1.vtt' })).toBe('https://cdn.example/tracks/t1.vtt');
  });

  const at = '2026-01-01T00:00:00Z';
  const rendition: MediaRendition = {
    schema: 'https://schema.jwplayer.com/types/media_rendition.json', id: 'r1', type: 'media_rendition', created: at,
    last_modified: at, relationships: {}, status: 'ready', error_message: null, delivery_url: 'https://cdn.example/r1.mp4',
    format: 'mp4', filesize: 2048, width: 640, height: 360, metadata: {},
  };
  const original: Original = {
    schema: 'https://schema.jwplayer.com/types/original.json', id: 'o1', type: 'original', created: at, last_modified: at,
    relationships: {}, status: 'ready', error_message: null, size: '99', container_format: 'mov', md5: null,
    original_type: 'primary', metadata: { name: 'Original', type: 'other', language: null, language_code: null },
  };

  it('back to v1: delivery_url → link, filesize → text; an original is a conversion without a link or duration', () => {
    expect(toV1Conversion(rendition)).toEqual({
      key: 'r1', status: 'ready', link: 'https://cdn.example/r1.mp4', filesize: '2048', width: 640, height: 360, mediatype: 'video',
    });
    expect(toV1Conversion(original)).toEqual({
      key: 'o1', status: 'ready', link: null, filesize: '99', width: null, height: null, mediatype: 'original',
    });
    expect(mapV1Conversion(toV1Conversion(rendition) as { key: string; link: string; filesize: string })).toMatchObject({
      id: 'r1', delivery_url: rendition.delivery_url, filesize: 2048,
    });
  });

  it('a rendition\'s v1 mediatype comes from what it is: a picture, an adaptive stream, or sound only', () => {
    const hls: MediaRendition = { ...rendition, id: 'r2', format: 'm3u8', width: null, height: null, delivery_url: 'https://cdn.example/m.m3u8' };
    const audio: MediaRendition = { ...rendition, id: 'r3', format: 'm4a', width: null, height: null, delivery_url: 'https://cdn.example/a.m4a' };
    expect(toV1Conversion(hls)).toMatchObject({ key: 'r2', mediatype: 'video', width: null, height: null });
    expect(toV1Conversion(audio)).toMatchObject({ key: 'r3', mediatype: 'audio', width: null, height: null });
  });

  const track: TextTrack = {
    schema: 'https://schema.jwplayer.com/types/text_track.json', id: 't1', type: 'text_track', created: at, last_modified: at,
    relationships: {}, error_message: null, track_kind: 'captions', delivery_url: 'https://cdn.example/tracks/t1.vtt',
    metadata: { label: 'English', srclang: 'en', position: 0 },
  };

  it('a v2 text track → v1 with a link object; the default is the caller\'s to say (the v2 track has no flag)', () => {
    const v1 = toV1Track(track, true);
    expect(v1).toEqual({
      key: 't1', label: 'English', kind: 'captions', language: 'en', default: true, status: 'ready',
      link: { protocol: 'https', address: 'cdn.example', path: '/tracks/t1.vtt' },
    });
    expect(mapV1TrackLink(v1.link)).toBe(track.delivery_url);
    expect(toV1Track(track)).toMatchObject({ default: false });
  });

  it('a track without a file yet is processing in v1, with an empty link', () => {
    expect(toV1Track({ ...track, delivery_url: null })).toMatchObject({
      key: 't1', status: 'processing', link: { protocol: '', address: '', path: '' },
    });
  });
});

describe('players: top-level options → setup_config (except name and release_channel)', () => {
  it('moves every other option', () => {
    expect(mapV1PlayerOptions({
      player_key: 'p1', name: 'Main', release_channel: 'latest', aspectratio: '16:9', responsive: 'true', autostart: 'false',
      displaydescription: 'true', displaytitle: 'false', playbackRateControls: 'true', preload: 'metadata', repeat: 'false',
      stretching: 'uniform',
    })).toEqual({
      name: 'Main', release_channel: 'latest',
      setup_config: {
        aspectratio: '16:9', responsive: true, autostart: false, displaydescription: true, displaytitle: false,
        playbackRateControls: true, preload: 'metadata', repeat: false, stretching: 'uniform',
      },
    });
  });

  it('custom.* on a player needs its current custom_params too', () => {
    expect(mapV1PlayerOptions({ 'custom.-x': '' }, { x: '1', y: '2' })).toEqual({ custom_params: { y: '2' } });
    expect(() => mapV1PlayerOptions({ 'custom.x': '1' })).toThrow(InvalidArgumentError);
  });

  it('back to v1: setup_config options at top level, name/release_channel kept, none can shadow them', () => {
    const player: Player = {
      id: 'p1', type: 'player', created: '2026-01-01T00:00:00Z', last_modified: '2026-01-01T00:00:00Z',
      schema: 'https://schema.jwplayer.com/types/player.json', version: '8', relationships: {},
      metadata: { name: 'Main', release_channel: 'latest', setup_config: { autostart: true, name: 'shadow' }, custom_params: { a: '1' } },
    };
    expect(toV1Player(player)).toEqual({ key: 'p1', name: 'Main', release_channel: 'latest', autostart: true, custom: { a: '1' } });
  });
});

describe('errors: v1 {code, message} ↔ v2 errors[]', () => {
  it.each([
    ['ServerError', 'server_error'], ['NotFound', 'not_found'], ['ParamMissing', 'param_missing'],
    ['PermissionDenied', 'permission_denied'], ['APIKeyInvalid', 'api_key_invalid'],
  ])('%s ↔ %s', (v1Code, v2Code) => {
    expect(mapV1Error({ code: v1Code, message: 'Oops.' })).toEqual({ errors: [{ code: v2Code, description: 'Oops.' }] });
  });

  it('v2 → v1 keeps the first code and every description', () => {
    expect(mapV2ErrorToV1({ errors: [{ code: 'server_error', description: 'Boom.' }] })).toEqual({
      status: 'error', code: 'ServerError', title: 'Server Error', message: 'Boom.',
    });
    expect(mapV2ErrorToV1([
      { code: 'not_found', description: 'No media.' }, { code: 'invalid_param', description: 'Bad q.' },
    ])).toMatchObject({ code: 'NotFound', message: 'No media.; Bad q.' });
  });
});

describe('v2 resources → v1-shaped objects', () => {
  const media: Media = {
    schema: 'https://schema.jwplayer.com/types/media.json',
    id: 'm1', type: 'media', created: '2026-01-01T00:00:00Z', last_modified: '2026-01-02T00:00:00Z', status: 'ready',
    error_message: null, duration: 125.456, media_type: 'video', mime_type: 'video/mp4', hosting_type: 'hosted',
    external_id: null, trim_in_point: null, trim_out_point: null,
    metadata: {
      title: 'Title', description: 'Desc', author: 'Ann', permalink: 'https://example.com/m1', category: null,
      language: 'en', tags: ['news', 'sport'], publish_start_date: '2026-01-01T00:00:00Z', publish_end_date: null,
      custom_params: { genre: 'drama' }, drm: false, duration: 125.456,
    },
    relationships: {},
  };

  it('media → video with v1 names and formats', () => {
    expect(toV1Video(media)).toEqual({
      key: 'm1', title: 'Title', description: 'Desc', author: 'Ann', link: 'https://example.com/m1', tags: 'news, sport',
      date: 1767225600, expires_date: null, duration: '125.46', status: 'ready', error: null, mediatype: 'video',
      sourceformat: 'mp4', sourcetype: 'file', sourceurl: null, custom: { genre: 'drama' },
    });
  });

  it('an externally hosted media is a v1 url source; the v2 answer does not say where, so neither does v1', () => {
    expect(toV1Video({ ...media, hosting_type: 'external', mime_type: 'application/vnd.apple.mpegurl' }))
      .toMatchObject({ sourcetype: 'url', sourceurl: null, sourceformat: expect.any(String) });
  });

  it('a v1 video written back through mapV1MediaFields gives the same metadata', () => {
    const v1 = toV1Video(media);
    const body = mapV1MediaFields({
      title: v1.title, description: v1.description, author: v1.author, link: v1.link, tags: v1.tags, date: v1.date,
      expires_date: v1.expires_date,
    });
    expect(body.metadata).toMatchObject({
      title: 'Title', permalink: media.metadata.permalink, tags: media.metadata.tags,
      publish_start_date: media.metadata.publish_start_date, publish_end_date: null,
    });
  });

  it('playlist → channel: its type and its own fields, as the untyped answer carries them (v2 rules have no v1 field)', () => {
    const dynamic: Playlist = {
      schema: 'https://schema.jwplayer.com/types/playlist.json',
      id: 'p1', type: 'playlist', created: '2026-01-01T00:00:00Z', last_modified: '2026-01-01T00:00:00Z', relationships: {},
      metadata: { title: 'Sport', description: 'All sport', author: 'Desk', link: 'https://example.com/sport', custom_params: { team: 'a' } },
      playlist_type: 'dynamic', default: false,
    };
    const channel = toV1Channel(dynamic);
    expect(channel).toEqual({
      key: 'p1', title: 'Sport', description: 'All sport', author: 'Desk', link: 'https://example.com/sport', type: 'dynamic',
      custom: { team: 'a' },
    });
    // The custom parameters are copied, not shared.
    channel.custom.team = 'b';
    expect(dynamic.metadata.custom_params).toEqual({ team: 'a' });
    // The platform spelling of the type reads as v1's short name; rules beside the own fields (as a typed answer has
    // them) are not carried over: v1's tags, tags_mode and videos are no part of the channel.
    const manual = {
      ...dynamic, playlist_type: 'manual_playlist', default: true,
      metadata: { ...dynamic.metadata, media_filter: { include: { match: 'any', values: ['a', 'b', 'c'] } } },
    } as unknown as Playlist;
    expect(toV1Channel(manual)).toEqual({ ...channel, type: 'manual', custom: { team: 'a' } });
  });
});
