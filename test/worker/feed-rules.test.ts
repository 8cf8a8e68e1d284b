// Feeds of every playlist type resolved from the rules where the platform keeps them (worker/docs/public-api.md, "What
// the worker reads from the platform"): a manual playlist's order, a dynamic one's tag and custom-parameter filters
// (include and exclude, any and all), its sort and limit, pinned media and recency. Each playlist is made in the
// sandbox as an editor would make it, then read through the worker.
import { beforeEach, describe, expect, it } from 'vitest';
import type { FeedResponse } from '../../worker/contract/public-api.ts';
import type { Media } from '../../worker/contract/v2-types.ts';
import { api, createPlaylist, resetWorld, SITE } from './helpers.ts';
import { allMedia, isPublic } from './upstream-direct.ts';

async function feed(playlist: string, query = '?page_length=50'): Promise<FeedResponse> {
  const response = await api(`/api/sites/${SITE}/playlists/${playlist}${query}`);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as FeedResponse;
}

let published: Media[];
beforeEach(async () => {
  await resetWorld();
  published = (await allMedia(SITE)).filter((m) => isPublic(m));
});

const tagsOf = (id: string) => published.find((m) => m.id === id)!.metadata.tags;
const newestFirst = (a: Media, b: Media) => b.metadata.publish_start_date!.localeCompare(a.metadata.publish_start_date!) || (a.id < b.id ? -1 : 1);

describe('manual playlists', () => {
  it('keep the editor\'s order, whatever order the media list answers in', async () => {
    const chosen = [...published].sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, 5).map((m) => m.id).reverse();
    const [third] = chosen.splice(2, 1);
    chosen.unshift(third!);
    const id = await createPlaylist('manual', { media_filter: { include: { values: chosen } } });
    expect((await feed(id)).items.map((i) => i.id)).toEqual(chosen);
  });
});

describe('dynamic playlists', () => {
  it('include tags: any of them, or all of them', async () => {
    const any = await feed(await createPlaylist('dynamic', { tag_filter: { include: { values: ['food', 'travel'], match: 'any' } } }));
    expect(any.items.length).toBeGreaterThan(0);
    for (const item of any.items) expect(item.tags.some((t) => t === 'food' || t === 'travel')).toBe(true);
    const both = published.filter((m) => m.metadata.tags.includes('food') && m.metadata.tags.includes('tutorial'));
    const all = await feed(await createPlaylist('dynamic', { tag_filter: { include: { values: ['food', 'tutorial'], match: 'all' } } }));
    expect(all.items.map((i) => i.id).sort()).toEqual(both.sort(newestFirst).slice(0, 25).map((m) => m.id).sort());
    for (const item of all.items) expect(item.tags).toEqual(expect.arrayContaining(['food', 'tutorial']));
  });

  it('exclude tags and filter by custom parameters', async () => {
    const id = await createPlaylist('dynamic', {
      tag_filter: { include: { values: ['food'], match: 'any' }, exclude: { values: ['tutorial'], match: 'any' } },
    });
    const body = await feed(id);
    expect(body.items.length).toBeGreaterThan(0);
    for (const item of body.items) {
      expect(item.tags).toContain('food');
      expect(item.tags).not.toContain('tutorial');
    }
    const series = await feed(await createPlaylist('dynamic', { custom_param_filter: { include: { values: { series: 'Weekend Away' }, match: 'any' } } }));
    expect(series.items.length).toBeGreaterThan(0);
    for (const item of series.items) expect(item.custom_params.series).toBe('Weekend Away');
    const notSeries = await feed(await createPlaylist('dynamic', { custom_param_filter: { exclude: { values: { series: 'Weekend Away' }, match: 'any' } } }));
    expect(notSeries.items.length).toBeGreaterThan(0);
    for (const item of notSeries.items) expect(item.custom_params.series).not.toBe('Weekend Away');
  });

  it('sort by title or duration, newest first by default, and hold at most their limit', async () => {
    const byTitle = await feed(await createPlaylist('dynamic', { media_filter: { sort: 'title:asc', limit: 8 } }));
    expect(byTitle.items).toHaveLength(8);
    // The platform sorts titles without regard to case.
    const titles = byTitle.items.map((i) => i.title.toLowerCase());
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const byDuration = await feed(await createPlaylist('dynamic', { media_filter: { sort: 'duration:dsc', limit: 5 } }));
    const durations = byDuration.items.map((i) => i.duration!);
    expect(durations).toEqual([...durations].sort((a, b) => b - a));
    expect(durations[0]).toBe(Math.max(...published.map((m) => m.duration ?? 0)));
    const newest = await feed(await createPlaylist('dynamic', { tag_filter: { include: { values: ['travel'] } } }));
    expect(newest.items.map((i) => i.id)).toEqual(published.filter((m) => m.metadata.tags.includes('travel'))
      .sort(newestFirst).slice(0, 25).map((m) => m.id));
  });

  it('put pinned media first, whatever the filters say', async () => {
    const pin = published.find((m) => !m.metadata.tags.includes('travel'))!;
    const id = await createPlaylist('dynamic', {
      tag_filter: { include: { values: ['travel'] } }, pinning: { slot1: pin.id }, media_filter: { limit: 4 },
    });
    const body = await feed(id);
    expect(body.items).toHaveLength(4);
    expect(body.items[0]!.id).toBe(pin.id);
    for (const item of body.items.slice(1)) expect(tagsOf(item.id)).toContain('travel');
  });

  it('keep only media published within their recency', async () => {
    expect((await feed(await createPlaylist('dynamic', { recency: '1D' }))).items).toEqual([]);
    expect((await feed(await createPlaylist('dynamic', { recency: '100YR' }))).items.length).toBeGreaterThan(0);
  });
});

describe('watchlists', () => {
  it('are each viewer\'s own: their feed holds nothing', async () => {
    const body = await feed(await createPlaylist('watchlist', {}));
    expect(body.playlist.type).toBe('watchlist');
    expect(body.items).toEqual([]);
  });
});
