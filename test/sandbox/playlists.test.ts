// The definition's six playlist types (five seeded, and the watchlist): each created with its rules' defaults under
// `metadata`, validated member by member, and updated through PATCH, on paths spelled as the platform spells them
// (`manual_playlist`). The untyped answers name the type and carry no rules; the typed ones carry the rules, no type.
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

const OWN = { description: null, author: null, link: null, custom_params: {} };
const noFilter = { include: { values: [], match: 'any' }, exclude: { values: [], match: 'any' } };
const noParams = { include: { values: {}, match: 'any' }, exclude: { values: {}, match: 'any' } };
const filtered = (mediaFilter: Record<string, unknown>) => ({
  tag_filter: noFilter, custom_param_filter: noParams, pinning: { slot1: null, slot2: null }, recency: null, media_filter: mediaFilter,
});

it('the seed holds a playlist of each type but the watchlist; the untyped answer names it, the typed one holds its rules', async () => {
  for (const type of PLAYLIST_TYPES.filter((t) => t !== 'watchlist')) {
    const id = site.playlists[type]![0]!;
    const untyped = await callJson('GET', `${base}/playlists/${id}/`);
    expect(untyped.body).toMatchObject({ playlist_type: type, default: expect.any(Boolean), relationships: {} });
    expect(Object.keys(untyped.body.metadata).sort()).toEqual(['author', 'custom_params', 'description', 'link', 'title']);
    const typed = await callJson('GET', `${base}/playlists/${id}/${type}_playlist/`);
    expect(typed.status, type).toBe(200);
    expect(typed.body).not.toHaveProperty('playlist_type');
    expect(typed.body.metadata).toHaveProperty('media_filter');
  }
  // The seed's default recommendations playlist says so.
  expect((await callJson('GET', `${base}/playlists/${site.playlists.recommendations![0]}/`)).body.default).toBe(true);
});

const creations: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
  ['manual', {}, { media_filter: { include: { match: 'any', values: [] } } }],
  ['dynamic', { tag_filter: { include: { values: ['food', 'travel'], match: 'all' } } },
    { ...filtered({ sort: 'publish_start_date:dsc', limit: 25 }), tag_filter: { ...noFilter, include: { values: ['food', 'travel'], match: 'all' } } }],
  ['search', { recency: '30D', media_filter: { limit: 10 } }, { ...filtered({ limit: 10 }), recency: '30D' }],
  ['recommendations', { custom_param_filter: { exclude: { values: { series: 'Weekend Away' } } } },
    { ...filtered({ limit: 25 }), custom_param_filter: { ...noParams, exclude: { values: { series: 'Weekend Away' }, match: 'any' } } }],
  ['article_matching', { tag_filter: { exclude: { values: ['kids'], match: 'any' } }, media_filter: { limit: 6 } },
    { ...filtered({ limit: 6 }), tag_filter: { ...noFilter, exclude: { values: ['kids'], match: 'any' } } }],
  ['watchlist', {}, {}],
];

describe.each(creations)('%s', (type, rules, expected) => {
  it('is created with its rules under metadata, defaults filled in', async () => {
    const created = await callJson('POST', `${base}/playlists/${type}_playlist/`, { body: { metadata: { title: `A ${type} list`, ...rules } } });
    expect(created.status).toBe(201);
    expect(created.body.metadata).toEqual({ title: `A ${type} list`, ...OWN, ...expected });
    expect((await callJson('GET', `${base}/playlists/${created.body.id}/`)).body.playlist_type).toBe(type);
  });
});

describe('validation', () => {
  it.each([
    ['manual', { media_filter: { include: { values: ['nosuchmedia'] } } }, /nosuchmedia/],
    ['manual', { media_filter: { include: { values: 'x' } } }, /media_filter\.include\.values/],
    ['manual', { media_filter: { include: { match: 'all' } } }, /match/],
    ['dynamic', { tag_filter: { include: { match: 'some' } } }, /tag_filter\.include\.match/],
    ['dynamic', { tag_filter: { include: { values: ['a', 'a'] } } }, /more than once/],
    ['dynamic', { media_filter: { sort: 'title' } }, /media_filter\.sort/],
    ['dynamic', { media_filter: { limit: 0 } }, /media_filter\.limit/],
    ['search', { media_filter: { sort: 'title:asc' } }, /sort/],
    ['search', { recency: '2 weeks' }, /recency/],
    ['recommendations', { pinning: { slot1: 'nosuchmedia' } }, /nosuchmedia/],
    ['article_matching', { custom_param_filter: { include: { values: { series: 1 } } } }, /custom_param_filter/],
    ['manual', { colour: 'red' }, /colour/],
    ['manual', { tag_filter: {} }, /tag_filter/],
    ['watchlist', { media_filter: {} }, /media_filter/],
  ])('%s refuses %j', async (type, rules, description) => {
    const answer = await callJson('POST', `${base}/playlists/${type}_playlist/`, { body: { metadata: { title: 'x', ...rules } } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(errorShape('invalid_parameter'));
    expect(answer.body.errors[0].description).toMatch(description);
  });

  it('a title is required, and the type is the path\'s, spelled as the platform spells it', async () => {
    expect((await callJson('POST', `${base}/playlists/manual_playlist/`, { body: { metadata: { description: 'x' } } })).body).toEqual(errorShape('invalid_parameter'));
    const trending = await callJson('POST', `${base}/playlists/trending_playlist/`, { body: { metadata: { title: 'x' } } });
    expect(trending.status).toBe(400);
    expect(trending.body.errors[0].code).toBe('invalid_playlist_type');
  });

  it('PATCH through the wrong type answers 404 and changes nothing', async () => {
    const id = site.playlists.dynamic![0]!;
    const answer = await callJson('PATCH', `${base}/playlists/${id}/manual_playlist/`, { body: { metadata: { title: 'x' } } });
    expect(answer.status).toBe(404);
    expect((await callJson('GET', `${base}/playlists/${id}/`)).body.metadata.title).not.toBe('x');
  });
});

it('PATCH is how videos are added to and removed from a manual playlist, in order; other fields stay', async () => {
  const id = site.playlists.manual![0]!;
  const before = (await callJson('GET', `${base}/playlists/${id}/manual_playlist/`)).body;
  const ids: string[] = before.metadata.media_filter.include.values;
  const added = [site.media.published[4]!, ...ids].filter((v, i, a) => a.indexOf(v) === i);
  const patched = await callJson('PATCH', `${base}/playlists/${id}/manual_playlist/`, { body: { metadata: { media_filter: { include: { values: added } } } } });
  expect(patched.status).toBe(200);
  expect(patched.body.metadata).toEqual({ ...before.metadata, media_filter: { include: { match: 'any', values: added } } });
  const removed = await callJson('PATCH', `${base}/playlists/${id}/manual_playlist/`, { body: { metadata: { media_filter: { include: { values: added.slice(1) } } } } });
  expect(removed.body.metadata.media_filter.include.values).toEqual(added.slice(1));
});

it('PATCH of a filter side replaces that side only; the sort, limit and pinning merge member by member', async () => {
  const id = site.playlists.dynamic![0]!;
  const before = (await callJson('GET', `${base}/playlists/${id}/dynamic_playlist/`)).body.metadata;
  const patched = (await callJson('PATCH', `${base}/playlists/${id}/dynamic_playlist/`, {
    body: { metadata: { tag_filter: { exclude: { values: ['kids'] } }, media_filter: { limit: 7 }, pinning: { slot2: site.media.published[0] } } },
  })).body.metadata;
  expect(patched.tag_filter).toEqual({ include: before.tag_filter.include, exclude: { values: ['kids'], match: 'any' } });
  expect(patched.media_filter).toEqual({ sort: before.media_filter.sort, limit: 7 });
  expect(patched.pinning).toEqual({ slot1: null, slot2: site.media.published[0] });
});

it('the tag actions rewrite playlists\' tag filters too', async () => {
  const id = site.playlists.dynamic![0]!;
  const tag = (await callJson('GET', `${base}/playlists/${id}/dynamic_playlist/`)).body.metadata.tag_filter.include.values[0];
  const renamed = await callJson('PUT', `${base}/rename_tag/`, { body: { original_tag: tag, new_tag: `${tag}-renamed` } });
  expect(renamed.status).toBe(202);
  expect((await callJson('GET', `${base}/playlists/${id}/dynamic_playlist/`)).body.metadata.tag_filter.include.values).toContain(`${tag}-renamed`);
  await callJson('PUT', `${base}/remove_tag/`, { body: { tag: `${tag}-renamed` } });
  expect((await callJson('GET', `${base}/playlists/${id}/dynamic_playlist/`)).body.metadata.tag_filter.include.values).not.toContain(`${tag}-renamed`);
});
