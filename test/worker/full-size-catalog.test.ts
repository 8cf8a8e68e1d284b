// A real account is larger and less finished than the seed: manual playlists of thousands of media (the platform allows
// 10,000 ids), captions uploaded as drafts, limits stated in the platform's own header names. The geo promise must hold
// at that size: a bound playlist binds every media it lists, not only those its feed shows, and a request the worker
// cannot make is its own named failure, never "this playlist is empty".
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FeedResponse, MediaResponse } from '../../worker/contract/public-api.ts';
import type { TextTrack } from '../../worker/contract/v2-types.ts';
import { cacheKeys } from '../../worker/catalog/index.ts';
import { readRules } from '../../worker/catalog/playlist-rules.ts';
import { tracksOf } from '../../worker/catalog/projections.ts';
import { budgetStub, failureToError } from '../../worker/budget/client.ts';
import { describeFailure } from '../../worker/budget/execute.ts';
import { Admission } from '../../worker/budget/admission.ts';
import { getConfig } from '../../worker/config.ts';
import { clearMemoryCache } from '../../worker/cache/index.ts';
import { parseRateLimit } from '../../worker/upstream/index.ts';
import { InvalidArgumentError } from '../../worker/contract/invalid-argument.ts';
import { api, config, expectError, resetWithExtraMedia, resetWorld, sandbox, SITE, withConfig } from './helpers.ts';

const LONDON = '192.0.2.10';
const NEW_YORK = '192.0.2.20';
const authorised = { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' };

describe('a bound manual playlist of 10,000 media', () => {
  let ids: string[] = [];
  let playlist = '';
  const bound = (c: typeof config) => {
    (c.sites[SITE] as { playlists: Record<string, string> }).playlists[playlist] = 'gb-only';
  };

  beforeAll(async () => {
    ids = await resetWithExtraMedia(SITE, 10_000);
    expect(ids).toHaveLength(10_000);
    const created = await sandbox(`/v2/sites/${SITE}/playlists/manual_playlist/`, {
      method: 'POST', headers: authorised,
      body: JSON.stringify({ metadata: { title: 'The whole archive', media_filter: { include: { values: ids } } } }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    playlist = (await created.json<{ id: string }>()).id;
  }, 120_000);

  it('serves its first max_items in the playlist\'s order, asked in queries the platform takes', async () => {
    const maxItems = (config as unknown as { feed: { max_items: number } }).feed.max_items;
    const seen: string[] = [];
    for (let page = 1; seen.length < maxItems; page++) {
      const response = await withConfig(bound, `/api/sites/${SITE}/playlists/${playlist}?page=${page}&page_length=50`, LONDON);
      expect(response.status, await response.clone().text()).toBe(200);
      const feed = await response.json<FeedResponse>();
      expect(feed.total).toBe(maxItems);
      seen.push(...feed.items.map((item) => item.id));
      if (feed.next_page === null) break;
    }
    expect(seen).toEqual(ids.slice(0, maxItems));
  });

  it('refuses its 9,999th media from a refused place, far past what the feed shows', async () => {
    await expectError(await withConfig(bound, `/api/sites/${SITE}/media/${ids[9998]}`, NEW_YORK), 451, 'geo_blocked');
    // The same media, in an allowed place, plays.
    expect((await withConfig(bound, `/api/sites/${SITE}/media/${ids[9998]}`, LONDON)).status).toBe(200);
    // Without the playlist bound, New York gets it: the refusal is the playlist's, found by its whole list.
    expect((await api(`/api/sites/${SITE}/media/${ids[9998]}`, { ip: NEW_YORK })).status).toBe(200);
  });
});

describe('a bound filtered playlist binds every media its rules select, past its limit', () => {
  let music: string[] = [];
  let playlist = '';
  let recommendations = '';
  const bound = (c: typeof config) => {
    (c.sites[SITE] as { playlists: Record<string, string> }).playlists[playlist] = 'gb-only';
  };

  beforeAll(async () => {
    const ids = await resetWithExtraMedia(SITE, 60);
    // Every other extra media is tagged music; the platform's order for the playlist is newest first.
    music = ids.filter((_, i) => i % 2 === 0).reverse();
    const created = await sandbox(`/v2/sites/${SITE}/playlists/dynamic_playlist/`, {
      method: 'POST', headers: authorised,
      body: JSON.stringify({ metadata: { title: 'Music videos', tag_filter: { include: { values: ['music'], match: 'any' } },
        media_filter: { sort: 'publish_start_date:dsc', limit: 25 } } }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    playlist = (await created.json<{ id: string }>()).id;
    recommendations = (await (await sandbox(`/v2/sites/${SITE}/playlists/?page_length=100`, { headers: authorised }))
      .json<{ playlists: Array<{ id: string; playlist_type: string }> }>()).playlists
      .find((p) => p.playlist_type === 'recommendations')!.id;
  }, 60_000);

  it('its feed shows its limit of 25, and the 26th music video is refused from a refused place all the same', async () => {
    const feed = await (await withConfig(bound, `/api/sites/${SITE}/playlists/${playlist}?page_length=50`, LONDON)).json<FeedResponse>();
    expect(feed.items.map((item) => item.id)).toEqual(music.slice(0, 25));
    const twentySixth = music[25]!;
    await expectError(await withConfig(bound, `/api/sites/${SITE}/media/${twentySixth}`, NEW_YORK), 451, 'geo_blocked');
    expect((await withConfig(bound, `/api/sites/${SITE}/media/${twentySixth}`, LONDON)).status).toBe(200);
    // A media its rules do not select (tagged talk) stays free.
    const talk = (await reset()).find((id) => !music.includes(id))!;
    expect((await withConfig(bound, `/api/sites/${SITE}/media/${talk}`, NEW_YORK)).status).toBe(200);
  });

  it('nor does it appear in another feed, nor seed one, for that visitor', async () => {
    const twentySixth = music[25]!;
    const seeded = await withConfig(bound, `/api/sites/${SITE}/playlists/${recommendations}?related_media_id=${twentySixth}`, NEW_YORK);
    await expectError(seeded, 451, 'geo_blocked');
    // Its bytes are refused too: a playback URL handed to London does not play in New York.
    const media = await (await withConfig(bound, `/api/sites/${SITE}/media/${twentySixth}`, LONDON)).json<MediaResponse>();
    expect(media.sources[0]!.url).toMatch(/^\/api\/play\//);
    await expectError(await withConfig(bound, media.sources[0]!.url, NEW_YORK), 451, 'playback_denied');
  });

  it('a rule on a custom param the allowlist does not show still binds by it', async () => {
    const [target] = music;
    const patched = await sandbox(`/v2/sites/${SITE}/media/${target}/`, {
      method: 'PATCH', headers: authorised, body: JSON.stringify({ metadata: { custom_params: { rating: 'adult' } } }),
    });
    expect(patched.status).toBe(200);
    const byParam = await sandbox(`/v2/sites/${SITE}/playlists/dynamic_playlist/`, {
      method: 'POST', headers: authorised,
      body: JSON.stringify({ metadata: { title: 'Adults only', custom_param_filter: { include: { values: { rating: 'adult' }, match: 'any' } } } }),
    });
    const adults = (await byParam.json<{ id: string }>()).id;
    const bindAdults = (c: typeof config) => {
      (c.sites[SITE] as { playlists: Record<string, string> }).playlists[adults] = 'gb-only';
    };
    // The allowlist (series, episode) does not show `rating`; the policy binds by it all the same.
    await env.CACHE.delete(cacheKeys.media(SITE, target!));
    clearMemoryCache();
    await budgetStub(env).reset();
    await expectError(await withConfig(bindAdults, `/api/sites/${SITE}/media/${target}`, NEW_YORK), 451, 'geo_blocked');
    const shown = await (await withConfig(bindAdults, `/api/sites/${SITE}/media/${target}`, LONDON)).json<MediaResponse>();
    expect(shown.custom_params).not.toHaveProperty('rating');
  });

  /** The extra media's ids, as the last reset made them (the same every time: their own seeded stream). */
  async function reset(): Promise<string[]> {
    const listed = await (await sandbox(`/v2/sites/${SITE}/media/?page_length=500&q=tags:talk`, { headers: authorised }))
      .json<{ media: Array<{ id: string }> }>();
    return listed.media.map((m) => m.id);
  }
});

describe('rules the definition says are there are read, never assumed empty', () => {
  const filtered = {
    tag_filter: { include: { values: ['music'], match: 'any' }, exclude: { values: [], match: 'any' } },
    custom_param_filter: { include: { values: {}, match: 'any' }, exclude: { values: {}, match: 'any' } },
    media_filter: {}, pinning: { slot1: null, slot2: null }, recency: null,
  };

  it('a filtered playlist\'s documented defaults apply: sort newest first, limit 25', () => {
    const rules = readRules('abcdEFGH', 'dynamic', filtered);
    expect(rules).toMatchObject({ type: 'dynamic', sort: 'publish_start_date:dsc', limit: 25, recencyMs: null });
  });

  it.each(['tag_filter', 'custom_param_filter', 'pinning', 'recency', 'media_filter'])(
    'a typed answer without %s is 502 playlist_rules_unreadable, not "no rule"', (member) => {
      const metadata: Record<string, unknown> = structuredClone(filtered);
      delete metadata[member];
      expect(() => readRules('abcdEFGH', 'dynamic', metadata)).toThrow(expect.objectContaining({
        status: 502, code: 'playlist_rules_unreadable',
      }));
    });

  it.each(['tag_filter.include', 'tag_filter.exclude.values', 'custom_param_filter.exclude', 'tag_filter.include.match'])(
    'a filter without %s is unreadable too', (path) => {
      const metadata = structuredClone(filtered) as Record<string, unknown>;
      const parts = path.split('.');
      let at = metadata as Record<string, unknown>;
      for (const part of parts.slice(0, -1)) at = at[part] as Record<string, unknown>;
      delete at[parts.at(-1)!];
      expect(() => readRules('abcdEFGH', 'search', metadata)).toThrow(expect.objectContaining({ code: 'playlist_rules_unreadable' }));
    });
});

describe('a request the worker builds out of the platform\'s bounds is its own failure', () => {
  it('a list query refused before sending is 502 upstream_request_refused, never "not found"', () => {
    const error = failureToError(describeFailure(new InvalidArgumentError('q', 'q must be at most 1024 characters.')));
    expect({ status: error.status, code: error.code }).toEqual({ status: 502, code: 'upstream_request_refused' });
  });

  it('an id no call may be made for is still "not found" (it names nothing the platform could have)', () => {
    const error = failureToError(describeFailure(new InvalidArgumentError('media', 'media must not contain \'/\'.')));
    expect({ status: error.status, code: error.code }).toEqual({ status: 404, code: 'not_found' });
  });
});

describe('only published captions are served', () => {
  const track = (status: TextTrack['status'], url: unknown = 'https://cdn.example/tracks/abcdEFGH.vtt'): TextTrack => ({
    schema: 'x', id: 'abcdEFGH', type: 'text_track', created: '', last_modified: '', relationships: {}, status,
    error_message: null, track_kind: 'captions', delivery_url: url as string, metadata: { label: 'English', srclang: 'en', position: 0 },
  });

  it('a draft, a track whose status is not said, and a delivery_url that is no http(s) URL are left out', () => {
    expect(tracksOf([track('ready')])).toHaveLength(1);
    expect(tracksOf([track('draft'), track(undefined), track('ready', 'rMW2'), track('ready', 'javascript:alert(1)')])).toEqual([]);
  });

  it('a caption uploaded as a draft appears in no answer until it is published, and then does', async () => {
    await resetWorld();
    const media = (await (await sandbox(`/v2/sites/${SITE}/media/?page_length=50&q=status:ready AND media_type:video`, {
      headers: authorised,
    })).json<{ media: Array<{ id: string; metadata: { publish_start_date: string | null } }> }>()).media
      .find((m) => m.metadata.publish_start_date !== null && m.metadata.publish_start_date < '2026')!;
    const created = await sandbox(`/v2/sites/${SITE}/media/${media.id}/text_tracks/`, {
      method: 'POST', headers: authorised,
      body: JSON.stringify({ metadata: { srclang: 'is', label: 'Íslenska', track_kind: 'subtitles' },
        upload: { method: 'fetch', download_url: 'https://uploads.example.com/captions.vtt', auto_publish: false } }),
    });
    expect(created.status).toBe(201);
    const draft = await created.json<TextTrack>();
    expect(draft.status).toBe('draft');
    const labels = async () => {
      // What an operator's purge does (the gateway purges on a publish): the next answer is read afresh.
      await env.CACHE.delete(cacheKeys.media(SITE, media.id));
      clearMemoryCache();
      await budgetStub(env).reset();
      const response = await api(`/api/sites/${SITE}/media/${media.id}`, { ip: LONDON });
      expect(response.status).toBe(200);
      return (await response.json<MediaResponse>()).tracks.map((t) => t.label);
    };
    expect(await labels()).not.toContain('Íslenska');
    const publish = `/v2/sites/${SITE}/media/${media.id}/text_tracks/${draft.id}/publish/`;
    expect((await sandbox(publish, { method: 'PUT', headers: authorised })).status).toBe(204);
    expect(await labels()).toContain('Íslenska');
    // Publishing what is published is a conflict, as the definition's 409 says; unpublishing takes it away again.
    expect((await sandbox(publish, { method: 'PUT', headers: authorised })).status).toBe(409);
    const unpublish = `/v2/sites/${SITE}/media/${media.id}/text_tracks/${draft.id}/unpublish/`;
    expect((await sandbox(unpublish, { method: 'PUT', headers: authorised })).status).toBe(204);
    expect(await labels()).not.toContain('Íslenska');
  });
});

describe('the platform\'s rate-limit headers', () => {
  it('are read under the platform\'s names (jw-) as under the spec\'s (svc-), the platform\'s first', () => {
    expect(parseRateLimit(new Headers({ 'jw-request-limit': '60', 'jw-request-remaining': '12' }))).toEqual({ limit: 60, remaining: 12 });
    expect(parseRateLimit(new Headers({ 'jw-request-limit': '30', 'svc-request-limit': '60' }))).toEqual({ limit: 30, remaining: null });
  });

  it('the sandbox sends both, as the platform and the spec name them', async () => {
    const response = await sandbox(`/v2/sites/${SITE}/media/?page_length=1`, { headers: authorised });
    expect(response.headers.get('jw-request-limit')).toBe(response.headers.get('svc-request-limit'));
    expect(response.headers.get('jw-request-remaining')).toBe(response.headers.get('svc-request-remaining'));
    expect(response.headers.get('jw-request-limit')).not.toBeNull();
  });

  it('a lower stated limit slows the budget to the same share of it; a higher one never speeds it up', () => {
    const budget = getConfig(env).budget;
    const now = 1_000_000;
    const waitForNext = (admission: Admission) => {
      const bucket = admission.bucket('v2');
      while (bucket.take(now, 'public', 1)) { /* spend the burst */ }
      return bucket.waitMs(now, 0, 'public');
    };
    const plain = waitForNext(new Admission(() => now, () => budget));
    const halved = new Admission(() => now, () => budget);
    halved.adoptLimit('v2', 30);
    expect(waitForNext(halved)).toBeCloseTo(plain * 2, 5);
    const raised = new Admission(() => now, () => budget);
    raised.adoptLimit('v2', 600);
    expect(waitForNext(raised)).toBeCloseTo(plain, 5);
  });
});
