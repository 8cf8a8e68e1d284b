// Refusals: every one in the v2 error body with a fitting status, never a stack or a 500 for a caller's mistake.
import { beforeEach, describe, expect, it } from 'vitest';
import { call, callJson, errorShape, reset, sites, type SiteCatalog } from './helpers.ts';

let site: SiteCatalog;
let base: string;
beforeEach(async () => {
  await reset();
  site = (await sites()).big;
  base = `/v2/sites/${site.id}`;
});

describe('404 not_found', () => {
  it.each([
    ['an unknown route', '/v2/sites/SITE/videos/'],
    ['a v1 route', '/v1/videos/list'],
    ['a route one segment too deep', '/v2/sites/SITE/media/x/y/z/w/'],
    ['the bare API root', '/v2/'],
  ])('for %s', async (_, path) => {
    const answer = await callJson('GET', path.replace('SITE', site.id));
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(errorShape('not_found'));
  });

  it('for an unknown site, media, rendition, track, thumbnail, playlist and player', async () => {
    const media = site.media.published[0];
    for (const path of [
      '/v2/sites/nosuchsite/media/', `${base}/media/nosuchmedia/`, `${base}/media/${media}/media_renditions/nosuch/`,
      `${base}/media/${media}/text_tracks/nosuch/`, `${base}/thumbnails/nosuch`, `${base}/playlists/nosuch/`,
      `${base}/players/nosuch/`, `${base}/media/nosuchmedia/originals/`,
    ]) {
      const answer = await callJson('GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toEqual(errorShape('not_found'));
    }
  });

  it('for a resource of another site', async () => {
    const { small } = await sites();
    const answer = await callJson('GET', `/v2/sites/${small.id}/media/${site.media.published[0]}/`);
    expect(answer.status).toBe(404);
  });

  it('for a typed playlist path naming another type than the playlist has', async () => {
    const answer = await callJson('GET', `${base}/playlists/${site.playlists.manual![0]}/dynamic_playlist/`);
    expect(answer.status).toBe(404);
    expect(answer.body.errors[0].description).toMatch(/manual/);
  });
});

describe('405 method_not_allowed', () => {
  it.each([
    ['PUT', '/media/', 'GET, POST'],
    ['POST', '/media/MEDIA/', 'GET, PATCH, DELETE'],
    ['PATCH', '/media/MEDIA/media_renditions/', 'GET, POST'],
    ['POST', '/media/MEDIA/originals/', 'GET'],
    ['DELETE', '/thumbnails/THUMB', 'GET, PATCH'],
    ['GET', '/remove_tag/', 'PUT'],
    ['POST', '/query_usage/', 'PUT'],
    ['PUT', '/playlists/', 'GET'],
    ['PUT', '/playlists/PLAYLIST/', 'GET, POST, DELETE'],
  ])('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const resolved = base + path.replace('MEDIA', site.media.published[0]!).replace('THUMB', 'x').replace('PLAYLIST', site.playlists.manual![0]!);
    const response = await call(method, resolved, method === 'GET' ? {} : { body: { metadata: {} } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')!.split(', ').sort()).toEqual(allow.split(', ').sort());
    expect(await response.json()).toEqual(errorShape('method_not_allowed'));
  });
});

describe('400 invalid_body', () => {
  const path = () => `${base}/players/`;
  it.each([
    ['invalid JSON', { raw: '{"metadata":', headers: { 'content-type': 'application/json' } }],
    ['a JSON array', { raw: '[1]', headers: { 'content-type': 'application/json' } }],
    ['a JSON string', { raw: '"x"', headers: { 'content-type': 'application/json' } }],
    ['an unknown top-level member', { body: { metadata: { name: 'x' }, name: 'x' } }],
    ['an empty object', { body: {} }],
    ['metadata that is not an object', { body: { metadata: 'x' } }],
    ['no body at all', {}],
    ['a body without Content-Type: application/json', { raw: '{"metadata":{"name":"x"}}', headers: { 'content-type': 'text/plain' } }],
  ])('for %s', async (_, options) => {
    const answer = await callJson('POST', path(), options);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(errorShape('invalid_body'));
  });
});

describe('400 validation', () => {
  it.each([
    ['page_length above 1000', '/media/?page_length=1001', 'invalid_page_length'],
    ['page_length 0', '/media/?page_length=0', 'invalid_page_length'],
    ['a page that is not a number', '/media/?page=two', 'invalid_page'],
    ['q without field:value', '/media/?q=hello', 'invalid_query'],
    ['q on an unknown field', '/media/?q=colour:red', 'invalid_query'],
    ['q with an unclosed quote', '/media/?q=title:"open', 'invalid_query'],
    ['q ending with an operator', '/media/?q=tags:food%20AND', 'invalid_query'],
    ['a range with a bad date', '/media/?q=publish_start_date:[2026-13-45%20TO%20*]', 'invalid_query'],
    ['sort without a direction', '/media/?sort=title', 'invalid_sort'],
    ['sort on an unknown field', '/media/?sort=colour:asc', 'invalid_sort'],
    ['a query parameter list routes do not take', '/media/?api_format=json', 'invalid_parameter'],
    ['a list parameter given twice', '/media/?page=1&page=2', 'invalid_parameter'],
  ])('%s', async (_, path, code) => {
    const answer = await callJson('GET', base + path);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(errorShape(code));
  });

  it('a bad playlist_type on create', async () => {
    const answer = await callJson('POST', `${base}/playlists/channel/`, { body: { metadata: { title: 'x' } } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(errorShape('invalid_playlist_type'));
    expect(answer.body.errors[0].description).toContain('article_matching_playlist, dynamic_playlist, manual_playlist, recommendations_playlist, search_playlist, watchlist_playlist.');
    // The platform has no trending type (a trending playlist is a dynamic one sorted trending:dsc): refused alike.
    const trending = await callJson('POST', `${base}/playlists/trending_playlist/`, { body: { metadata: { title: 'x' } } });
    expect(trending.status).toBe(400);
    expect(trending.body).toEqual(errorShape('invalid_playlist_type'));
    expect(trending.body.errors[0].description).toContain("'trending_playlist' is not a playlist type path segment.");
  });

  it('the short type spelling is not an alias: refused, naming the platform spelling', async () => {
    for (const [method, path] of [['POST', `${base}/playlists/manual/`], ['GET', `${base}/playlists/${site.playlists.manual![0]}/manual/`],
      ['PATCH', `${base}/playlists/${site.playlists.manual![0]}/manual/`], ['DELETE', `${base}/playlists/${site.playlists.manual![0]}/manual/`]] as const) {
      const answer = await callJson(method, path, method === 'POST' || method === 'PATCH' ? { body: { metadata: { title: 'x' } } } : {});
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(answer.body).toEqual(errorShape('invalid_playlist_type'));
      expect(answer.body.errors[0].description).toContain("spells it 'manual_playlist'");
    }
    expect((await callJson('GET', `${base}/playlists/${site.playlists.manual![0]}/`)).status).toBe(200);
  });

  it.each([
    ['a v1 field name, with the v2 name in the description', { metadata: { date: '2026-01-01' } }, /publish_start_date/],
    ['a title that is not a string', { metadata: { title: 5 } }, /metadata\.title/],
    ['tags that are not strings', { metadata: { tags: ['a', 3] } }, /metadata\.tags/],
    ['a custom param that is not a string', { metadata: { custom_params: { a: 1 } } }, /metadata\.custom_params\.a/],
    ['a publish window that ends before it starts', { metadata: { publish_start_date: '2026-02-01T00:00:00Z', publish_end_date: '2026-01-01T00:00:00Z' } }, /publish_end_date/],
    ['a bad date', { metadata: { publish_start_date: 'tomorrow' } }, /publish_start_date/],
    ['an upload changing on PATCH', { upload: { method: 'fetch' } }, /metadata/],
  ])('PATCH media with %s', async (_, body, description) => {
    const answer = await callJson('PATCH', `${base}/media/${site.media.published[0]}/`, { body });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].description).toMatch(description);
  });

  it('a fetch upload without a source_url', async () => {
    const answer = await callJson('POST', `${base}/media/`, { body: { upload: { method: 'fetch' } } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].description).toMatch(/upload\.source_url/);
  });

  it('a refused write changes nothing', async () => {
    const id = site.media.published[0]!;
    const before = (await callJson('GET', `${base}/media/${id}/`)).body;
    await callJson('PATCH', `${base}/media/${id}/`, { body: { metadata: { title: 'New', tags: [1] } } });
    expect((await callJson('GET', `${base}/media/${id}/`)).body).toEqual(before);
  });
});

describe('401 unauthorized', () => {
  it.each([
    ['no Authorization header', { anonymous: true }],
    ['a wrong secret', { anonymous: true, headers: { authorization: 'Bearer not-the-secret' } }],
    ['another scheme', { anonymous: true, headers: { authorization: 'Basic c2FuZGJveA==' } }],
    ['the secret without the Bearer scheme', { anonymous: true, headers: { authorization: 'sandbox-api-secret-not-for-production' } }],
  ])('for %s, on known and unknown routes alike', async (_, options) => {
    for (const path of [`${base}/media/`, `${base}/nowhere/`]) {
      const answer = await callJson('GET', path, options);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(errorShape('unauthorized'));
      expect(answer.response.headers.get('svc-request-limit')).toBe('60');
    }
  });
});

describe('409 for actions on media that are not ready', () => {
  it('adding a rendition to a processing media', async () => {
    const answer = await callJson('POST', `${base}/media/${site.media.not_ready[0]}/media_renditions/`, { body: { metadata: { width: 640 } } });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual(errorShape('media_not_ready'));
  });
});
