// The playlist types (the spec's six, seeded, and the platform's watchlist): each created with its subresource
// defaults, validated, and updated through PATCH, on paths spelled as the platform spells them (`manual_playlist`).
import { beforeEach, describe, expect, it } from 'vitest';
import { PLAYLIST_TYPES } from '../../worker/contract/v2-types.ts';
import { callJson, errorShape, reset, sites, type SiteCatalog } from './helpers.ts';

let site: SiteCatalog;
let base: string;
beforeEach(async () => {
  await reset({ rate_limit_per_minute: 10_000 });
  site = (await sites()).big;
  base = `/v2/sites/${site.id}`;
});

it('the seed holds at least one playlist of each of the six types, each answering its subresource', async () => {
  for (const type of PLAYLIST_TYPES.filter((t) => t !== 'watchlist')) {
    const id = site.playlists[type]![0]!;
    const typed = await callJson('GET', `${base}/playlists/${id}/${type}_playlist/`);
    expect(typed.status, type).toBe(200);
    expect(typed.body.playlist_type).toBe(type);
    expect(typed.body[type]).toMatchObject({ max_items: expect.any(Number) });
  }
});

const creations: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
  ['manual', {}, { media_ids: [], max_items: 50 }],
  ['dynamic', { tags: ['food', 'travel'], tags_mode: 'all' }, { tags: ['food', 'travel'], tags_mode: 'all', sort: 'publish_start_date:desc', max_items: 20 }],
  ['search', { q: 'tags:science OR tags:climate', sort: 'title:asc' }, { q: 'tags:science OR tags:climate', sort: 'title:asc', max_items: 20 }],
  ['recommendations', { max_items: 4 }, { related_by: 'tags', seed_media_id: null, max_items: 4 }],
  ['article_matching', { default_tags: ['news'] }, { match_field: 'tags', default_tags: ['news'], max_items: 6 }],
  ['watchlist', { max_items: 3 }, { max_items: 3 }],
];

describe.each(creations)('%s', (type, sub, expected) => {
  it('is created with its subresource under a key named by the type', async () => {
    const created = await callJson('POST', `${base}/playlists/${type}_playlist/`, { body: { metadata: { title: `A ${type} list`, [type]: sub } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ playlist_type: type, metadata: { title: `A ${type} list` }, [type]: expected });
  });
});

describe('trending', () => {
  it('is materialised by the platform: ordered media ids of published media, capped at max_items', async () => {
    const created = await callJson('POST', `${base}/playlists/trending_playlist/`, { body: { metadata: { title: 'Hot', trending: { window: '24h', max_items: 5 } } } });
    expect(created.status).toBe(201);
    expect(created.body.trending).toMatchObject({ window: '24h', max_items: 5 });
    expect(created.body.trending.media_ids).toHaveLength(5);
    const widened = await callJson('PATCH', `${base}/playlists/${created.body.id}/trending_playlist/`, { body: { metadata: { trending: { max_items: 8 } } } });
    expect(widened.body.trending.media_ids).toHaveLength(8);
    expect(widened.body.trending.media_ids.slice(0, 5)).toEqual(created.body.trending.media_ids);
  });

  it('does not take media_ids from callers', async () => {
    const refused = await callJson('POST', `${base}/playlists/trending_playlist/`, { body: { metadata: { title: 'Hot', trending: { media_ids: [] } } } });
    expect(refused.status).toBe(400);
  });
});

describe('validation', () => {
  it.each([
    ['manual', { media_ids: ['nosuchmedia'] }, /nosuchmedia/],
    ['manual', { media_ids: 'x' }, /media_ids/],
    ['dynamic', { tags_mode: 'some' }, /tags_mode/],
    ['search', { q: 'nonsense' }, /q:/],
    ['dynamic', { sort: 'title' }, /sort/],
    ['trending', { window: '1y' }, /window/],
    ['recommendations', { seed_media_id: 'nosuchmedia' }, /nosuchmedia/],
    ['manual', { max_items: 0 }, /max_items/],
    ['manual', { colour: 'red' }, /colour/],
  ])('%s refuses %j', async (type, sub, description) => {
    const answer = await callJson('POST', `${base}/playlists/${type}_playlist/`, { body: { metadata: { title: 'x', [type]: sub } } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].description).toMatch(description);
  });

  it('a title is required, and a subresource of another type is refused', async () => {
    expect((await callJson('POST', `${base}/playlists/manual_playlist/`, { body: { metadata: { description: 'x' } } })).body).toEqual(errorShape('invalid_parameter'));
    const other = await callJson('POST', `${base}/playlists/manual_playlist/`, { body: { metadata: { title: 'x', dynamic: { tags: ['a'] } } } });
    expect(other.status).toBe(400);
  });

  it('PATCH through the wrong type answers 404 and changes nothing', async () => {
    const id = site.playlists.dynamic![0]!;
    const answer = await callJson('PATCH', `${base}/playlists/${id}/manual_playlist/`, { body: { metadata: { title: 'x' } } });
    expect(answer.status).toBe(404);
    expect((await callJson('GET', `${base}/playlists/${id}/`)).body.metadata.title).not.toBe('x');
  });
});

it('PATCH is how videos are added to and removed from a manual playlist; other fields merge', async () => {
  const id = site.playlists.manual![0]!;
  const before = (await callJson('GET', `${base}/playlists/${id}/manual_playlist/`)).body;
  const added = [...before.manual.media_ids, site.media.published[4]!].filter((v, i, a) => a.indexOf(v) === i);
  const patched = await callJson('PATCH', `${base}/playlists/${id}/manual_playlist/`, { body: { metadata: { manual: { media_ids: added } } } });
  expect(patched.body.manual).toEqual({ media_ids: added, max_items: before.manual.max_items });
  expect(patched.body.metadata).toEqual(before.metadata);
  const removed = await callJson('PATCH', `${base}/playlists/${id}/manual_playlist/`, { body: { metadata: { manual: { media_ids: added.slice(1) } } } });
  expect(removed.body.manual.media_ids).toEqual(added.slice(1));
});
