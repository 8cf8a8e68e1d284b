// List routes: page/page_length/total, `q` (terms, AND/OR, quotes, tags, custom params, ranges, ids) and `sort`.
import { beforeEach, describe, expect, it } from 'vitest';
import { callJson, reset, sites, type SiteCatalog } from './helpers.ts';

interface MediaItem {
  id: string;
  status: string;
  metadata: { title: string; tags: string[]; publish_start_date: string | null; custom_params: Record<string, string> };
}

let site: SiteCatalog;
let base: string;
let all: MediaItem[];
beforeEach(async () => {
  await reset({ rate_limit_per_minute: 10_000 });
  site = (await sites()).big;
  base = `/v2/sites/${site.id}`;
  all = (await callJson('GET', `${base}/media/?page_length=500`)).body.media;
});

const list = async (query: string) => (await callJson('GET', `${base}/media/?${query}`)).body as { page: number; page_length: number; total: number; media: MediaItem[] };
const ids = (items: MediaItem[]) => items.map((item) => item.id).sort();

describe('pagination', () => {
  it('walks every media exactly once, page by page', async () => {
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const answer = await list(`page=${page}&page_length=25`);
      expect(answer).toMatchObject({ page, page_length: 25, total: site.media_total });
      if (answer.media.length === 0) break;
      seen.push(...answer.media.map((m) => m.id));
    }
    expect(seen).toHaveLength(site.media_total);
    expect(new Set(seen).size).toBe(site.media_total);
  });

  it('a page past the end is empty but still says the total', async () => {
    const answer = await list('page=99');
    expect(answer.media).toEqual([]);
    expect(answer.total).toBe(site.media_total);
  });

  it('page_length defaults to 10 and reaches 500', async () => {
    expect((await list('')).media).toHaveLength(10);
    expect(all).toHaveLength(site.media_total);
  });
});

describe('q', () => {
  it('field:value on tags matches media carrying the tag', async () => {
    const answer = await list('q=tags:travel&page_length=500');
    expect(ids(answer.media)).toEqual(ids(all.filter((m) => m.metadata.tags.includes('travel'))));
    expect(answer.total).toBeGreaterThan(0);
  });

  it('AND narrows, OR widens, AND binds tighter than OR', async () => {
    const food = all.filter((m) => m.metadata.tags.includes('food'));
    const travel = all.filter((m) => m.metadata.tags.includes('travel'));
    const ready = (m: MediaItem) => m.status === 'ready';
    expect(ids((await list('q=tags:food AND status:ready&page_length=500')).media)).toEqual(ids(food.filter(ready)));
    expect(ids((await list('q=tags:food OR tags:travel&page_length=500')).media)).toEqual(ids([...new Set([...food, ...travel])]));
    const mixed = (await list('q=tags:food OR tags:travel AND status:failed&page_length=500')).media;
    expect(ids(mixed)).toEqual(ids([...new Set([...food, ...travel.filter((m) => m.status === 'failed')])]));
  });

  it('quoted values may hold spaces; title matches as free text, case-insensitively', async () => {
    const target = all[0]!;
    const words = target.metadata.title.split(' ').slice(0, 2).join(' ');
    const answer = await list(`q=${encodeURIComponent(`title:"${words.toUpperCase()}"`)}&page_length=500`);
    expect(answer.media.map((m) => m.id)).toContain(target.id);
    for (const media of answer.media) expect(media.metadata.title.toLowerCase()).toContain(words.toLowerCase());
  });

  it('custom_params.<name>: matches a custom parameter', async () => {
    const answer = await list('q=custom_params.series:"Kitchen Basics"&page_length=500');
    expect(answer.total).toBeGreaterThan(0);
    expect(ids(answer.media)).toEqual(ids(all.filter((m) => m.metadata.custom_params.series === 'Kitchen Basics')));
  });

  it('id: picks media by id', async () => {
    const [a, b] = site.media.published;
    expect(ids((await list(`q=id:${a} OR id:${b}`)).media)).toEqual([a, b].sort());
  });

  it('ranges select a publish window, a date-only upper bound covering its whole day', async () => {
    const answer = await list(`q=${encodeURIComponent('publish_start_date:[2099-01-01 TO *]')}&page_length=500`);
    expect(ids(answer.media)).toEqual(ids(all.filter((m) => (m.metadata.publish_start_date ?? '') >= '2099-01-01')));
    expect(answer.total).toBeGreaterThan(0);
    const day = all.find((m) => m.metadata.publish_start_date?.startsWith('2025'))!.metadata.publish_start_date!.slice(0, 10);
    const sameDay = await list(`q=${encodeURIComponent(`publish_start_date:[${day} TO ${day}]`)}&page_length=500`);
    expect(sameDay.media.length).toBeGreaterThan(0);
    for (const media of sameDay.media) expect(media.metadata.publish_start_date!.slice(0, 10)).toBe(day);
  });

  it('an empty q filters nothing', async () => {
    expect((await list('q=&page_length=1')).total).toBe(site.media_total);
  });

  it('filters before paging: total counts the matches', async () => {
    const answer = await list('q=status:ready&page_length=5');
    expect(answer.media).toHaveLength(5);
    expect(answer.total).toBe(all.filter((m) => m.status === 'ready').length);
  });

  it('applies to every list route (players, playlists, renditions)', async () => {
    const players = (await callJson('GET', `${base}/players/?q=release_channel:preview`)).body;
    expect(players.total).toBe(1);
    const playlists = (await callJson('GET', `${base}/playlists/?q=playlist_type:manual`)).body;
    expect(playlists.playlists.map((p: { id: string }) => p.id).sort()).toEqual([...site.playlists.manual!].sort());
    const renditions = (await callJson('GET', `${base}/media/${site.media.published[1]}/media_renditions/?q=mime_type:video/mp4 AND width:[640 TO 1280]`)).body;
    for (const r of renditions.media_renditions) expect(r.width >= 640 && r.width <= 1280).toBe(true);
  });
});

describe('sort', () => {
  it('sorts by a field in either direction, ids breaking ties', async () => {
    const asc = (await list('sort=title:asc&page_length=500')).media.map((m) => m.metadata.title.toLowerCase());
    expect(asc).toEqual([...asc].sort());
    const desc = (await list('sort=title:desc&page_length=500')).media.map((m) => m.metadata.title.toLowerCase());
    expect(desc).toEqual([...asc].reverse());
  });

  it('puts media without the field last', async () => {
    const answer = (await list('sort=publish_start_date:asc&page_length=500')).media;
    const firstNull = answer.findIndex((m) => m.metadata.publish_start_date === null);
    expect(firstNull).toBeGreaterThan(0);
    expect(answer.slice(firstNull).every((m) => m.metadata.publish_start_date === null)).toBe(true);
  });
});
