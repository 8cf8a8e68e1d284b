// Each public route's projection: the fields a widget gets, nothing an upstream body carries beyond them, and the
// publish window / readiness rules applied to feeds and media.
import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetStub } from '../../worker/budget/client.ts';
import type { FeedResponse, MediaResponse, PlayerResponse } from '../../worker/contract/public-api.ts';
import { api, boundMediaIds, config, expectError, expectNoSecret, resetWorld, SITE, stats } from './helpers.ts';
import {
  allMedia, deliveredIds, isPublic, manualIds, playlistOfType, playlists, players, taggedPublicMedia, textTracks, typedPlaylist,
} from './upstream-direct.ts';

const FORBIDDEN_KEYS = ['upload', 'source_url', 'download_url', 'error_message', 'hosting_type', 'external_id', 'relationships', 'metadata'];

function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysDeep(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      if (k !== 'setup_config') keysDeep(v, out);
    }
  }
  return out;
}

async function feed(site: string, playlist: string, query = ''): Promise<FeedResponse> {
  const response = await api(`/api/sites/${site}/playlists/${playlist}${query}`);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expectNoSecret(response, text);
  return JSON.parse(text) as FeedResponse;
}

beforeEach(() => resetWorld());

describe('GET /api/sites/:site/playlists/:playlist', () => {
  it('resolves a manual playlist in its order, public media only, projected to feed items', async () => {
    const playlist = await playlistOfType(SITE, 'manual');
    const everything = new Map((await allMedia(SITE)).map((m) => [m.id, m]));
    const expected = manualIds(playlist).filter((id) => everything.has(id) && isPublic(everything.get(id)!));
    const body = await feed(SITE, playlist.id, '?page_length=50');
    expect(body.site).toBe(SITE);
    expect(body.playlist).toEqual({
      id: playlist.id, type: 'manual', title: playlist.metadata.title, description: playlist.metadata.description,
      author: playlist.metadata.author, link: playlist.metadata.link,
    });
    expect(body.items.map((i) => i.id)).toEqual(expected);
    expect(body.total).toBe(expected.length);
    const first = everything.get(expected[0]!)!;
    // The first media is bound to a policy of its own (the test configuration): its poster is a playback URL.
    expect(config.sites[SITE]!.media![first.id]).toBeDefined();
    expect(body.items[0]!.thumbnail).toMatch(/^\/api\/play\/[A-Za-z0-9_-]+\/[A-Za-z0-9._~-]+$/);
    const second = everything.get(expected[1]!)!;
    expect(config.sites[SITE]!.media![second.id]).toBeUndefined();
    // An unbound media's poster is the delivery side's image, in every width the platform serves (no upstream call).
    expect(body.items[1]!.thumbnail).toBe(`http://sandbox.test/v2/media/${second.id}/poster.jpg?width=720`);
    expect(body.items[1]!.thumbnails.map((t) => t.width)).toEqual([320, 480, 640, 720, 1280, 1920]);
    expect(body.items[1]!.thumbnails[0]).toEqual({ url: `http://sandbox.test/v2/media/${second.id}/poster.jpg?width=320`, width: 320 });
    expect({ ...body.items[0], thumbnail: 'signed' }).toEqual({
      id: first.id,
      title: first.metadata.title,
      description: first.metadata.description,
      duration: first.duration,
      tags: first.metadata.tags,
      publish_start_date: first.metadata.publish_start_date,
      publish_end_date: first.metadata.publish_end_date,
      thumbnail: 'signed',
      thumbnails: [],
      permalink: first.metadata.permalink,
      media_type: first.media_type,
      // Only allowlisted custom params (series, episode) leave the worker.
      custom_params: Object.fromEntries(Object.entries(first.metadata.custom_params)
        .filter(([k]) => ['series', 'episode'].includes(k))),
    });
    for (const key of FORBIDDEN_KEYS) expect(keysDeep(body).has(key), key).toBe(false);
  });

  it('leaves out media that are scheduled, expired, never scheduled or not ready', async () => {
    const byId = new Map((await allMedia(SITE)).map((m) => [m.id, m]));
    // The seed has a manual playlist mixing published, scheduled and expired media.
    let hidden = 0;
    for (const p of (await playlists(SITE)).filter((x) => x.playlist_type === 'manual')) {
      const typed = await typedPlaylist(SITE, p.id, 'manual');
      const shown = new Set((await feed(SITE, p.id, '?page_length=50')).items.map((i) => i.id));
      for (const id of manualIds(typed)) {
        const m = byId.get(id)!;
        expect(shown.has(id), `${id} ${m.status} ${m.metadata.publish_start_date}..${m.metadata.publish_end_date}`)
          .toBe(isPublic(m));
        if (!isPublic(m)) hidden += 1;
      }
    }
    expect(hidden).toBeGreaterThan(0);
  });

  it('pages with page and page_length, and says where the next page is', async () => {
    const playlist = await playlistOfType(SITE, 'manual');
    const whole = await feed(SITE, playlist.id, '?page_length=50');
    expect(whole.total).toBeGreaterThan(3);
    const first = await feed(SITE, playlist.id, '?page=1&page_length=2');
    const second = await feed(SITE, playlist.id, '?page=2&page_length=2');
    expect(first.items.map((i) => i.id)).toEqual(whole.items.slice(0, 2).map((i) => i.id));
    expect(second.items.map((i) => i.id)).toEqual(whole.items.slice(2, 4).map((i) => i.id));
    expect(first.next_page).toBe(2);
    const lastPage = Math.ceil(whole.total / 2);
    expect((await feed(SITE, playlist.id, `?page=${lastPage}&page_length=2`)).next_page).toBeNull();
    await expectError(await api(`/api/sites/${SITE}/playlists/${playlist.id}?page_length=5000`), 400, 'invalid_request');
    await expectError(await api(`/api/sites/${SITE}/playlists/${playlist.id}?page=0`), 400, 'invalid_request');
  });

  it('resolves a search playlist as the platform delivers it for the caller\'s phrase, and holds nothing without one', async () => {
    const all = await allMedia(SITE);
    const search = await playlistOfType(SITE, 'search');
    // The platform delivers a search playlist for a phrase only: its own feed has nothing to match.
    expect((await feed(SITE, search.id, '?page_length=50')).items).toEqual([]);
    const travel = all.filter((m) => isPublic(m) && m.metadata.tags.includes('travel'));
    const phrase = travel[0]!.metadata.title.split(' ')[0]!.toLowerCase();
    const found = await feed(SITE, search.id, `?search=${encodeURIComponent(phrase)}&page_length=50`);
    expect(found.items.length).toBeGreaterThan(0);
    expect(found.items.map((i) => i.id)).toEqual(await deliveredIds(search.id, { search: phrase }));
    for (const item of found.items) expect(item.tags).toContain('travel');
    await expectError(await api(`/api/sites/${SITE}/playlists/${search.id}?search=${encodeURIComponent('...')}`), 400, 'invalid_request');
  });

  it('resolves a trending playlist in the platform\'s order (by plays), which the Management API cannot tell', async () => {
    const all = await allMedia(SITE);
    const trending = (await playlists(SITE)).filter((p) => p.playlist_type === 'dynamic')
      .sort((a, b) => a.created.localeCompare(b.created))[1]!;
    const typed = await typedPlaylist(SITE, trending.id, 'dynamic');
    expect((typed.metadata as { media_filter: { sort: string } }).media_filter.sort).toBe('trending:dsc');
    const body = await feed(SITE, trending.id, '?page_length=50');
    expect(body.playlist.type).toBe('dynamic');
    const delivered = await deliveredIds(trending.id);
    expect(delivered).toHaveLength(10);
    expect(body.items.map((i) => i.id)).toEqual(delivered);
    // Not the newest-first order a Management API media list could give: a shelf that guessed would differ.
    const newest = all.filter((m) => isPublic(m))
      .sort((a, b) => b.metadata.publish_start_date!.localeCompare(a.metadata.publish_start_date!) || (a.id < b.id ? -1 : 1))
      .slice(0, 10).map((m) => m.id);
    expect(delivered).not.toEqual(newest);
  });

  it('resolves recommendations as the platform relates them to the caller\'s media, without that media', async () => {
    const recs = await playlistOfType(SITE, 'recommendations');
    const [related, other] = await taggedPublicMedia(SITE);
    // Without a media to relate to, the platform delivers nothing.
    expect((await feed(SITE, recs.id, '?page_length=50')).items).toEqual([]);
    const body = await feed(SITE, recs.id, `?related_media_id=${related!.id}&page_length=50`);
    expect(body.items.length).toBeGreaterThan(0);
    expect(body.items.map((i) => i.id)).toEqual(await deliveredIds(recs.id, { related_media_id: related!.id }));
    expect(body.items.map((i) => i.id)).not.toContain(related!.id);
    // `seed` is the older name of the same parameter.
    const older = await feed(SITE, recs.id, `?seed=${other!.id}&page_length=50`);
    expect(older.items.map((i) => i.id)).toEqual(await deliveredIds(recs.id, { related_media_id: other!.id }));
    await expectError(await api(`/api/sites/${SITE}/playlists/${recs.id}?seed=${other!.id}&related_media_id=${related!.id}`), 400, 'invalid_request');
    // A media the platform does not deliver relates to nothing.
    expect((await feed(SITE, recs.id, '?related_media_id=Nope1234')).items).toEqual([]);
  });

  it('matches an article by its title (or its tags) as the platform does, within the playlist\'s own filters', async () => {
    const art = await playlistOfType(SITE, 'article_matching');
    const excluded = (art.metadata as { tag_filter: { exclude: { values: string[] } } }).tag_filter.exclude.values;
    expect(excluded.length).toBeGreaterThan(0);
    // The platform's player asks with the page's title (`search=__CONTEXTUAL__`): without one there is nothing to match.
    expect((await feed(SITE, art.id)).items).toEqual([]);
    const title = (await allMedia(SITE)).find((m) => isPublic(m) && !m.metadata.tags.some((t) => excluded.includes(t)))!.metadata.title;
    const byTitle = await feed(SITE, art.id, `?search=${encodeURIComponent(title)}`);
    expect(byTitle.items.length).toBeGreaterThan(0);
    expect(byTitle.items.map((i) => i.id)).toEqual(await deliveredIds(art.id, { search: title.toLowerCase() }));
    // A page's title as document.title reads it, punctuation and all: matched by its words.
    const punctuated = `“${title}”: what to know?`;
    const byPageTitle = await feed(SITE, art.id, `?search=${encodeURIComponent(punctuated)}`);
    expect(byPageTitle.items.length).toBeGreaterThan(0);
    expect(byPageTitle.items.map((i) => i.id)).toEqual(await deliveredIds(art.id, { search: punctuated.toLowerCase() }));
    // Symbols are no words: refused, never sent on.
    await expectError(await api(`/api/sites/${SITE}/playlists/${art.id}?search=${encodeURIComponent('<b>news</b>')}`), 400, 'invalid_request');
    const travel = await feed(SITE, art.id, '?tags=travel');
    expect(travel.items.length).toBeGreaterThan(0);
    expect(travel.items.map((i) => i.id)).toEqual(await deliveredIds(art.id, { search: 'travel' }));
    for (const item of [...byTitle.items, ...travel.items]) expect(item.tags.some((t) => excluded.includes(t))).toBe(false);
  });

  it('answers 404 for a site that is not configured and for an unknown playlist', async () => {
    await expectError(await api('/api/sites/zzzzzzzz/playlists/JwMCDvZA'), 404, 'not_found');
    await expectError(await api(`/api/sites/${SITE}/playlists/zzzzzzzz`), 404, 'not_found');
  });
});

describe('GET /api/sites/:site/media/:media', () => {
  it('gives its text tracks in the platform\'s menu order, the first captions or subtitles track the one default', async () => {
    const bound = await boundMediaIds(SITE);
    for (const m of (await allMedia(SITE)).filter((x) => isPublic(x) && !bound.has(x.id))) {
      const platform = await textTracks(SITE, m.id);
      if (platform.filter((t) => t.track_kind === 'captions' || t.track_kind === 'subtitles').length < 2) continue;
      const body = JSON.parse(await (await api(`/api/sites/${SITE}/media/${m.id}`)).text()) as MediaResponse;
      const byPosition = [...platform].sort((a, b) => a.metadata.position - b.metadata.position);
      // The platform's text tracks, then the storyboard of a video (test/worker/storyboard.test.ts).
      expect(body.tracks.map((t) => t.label)).toEqual([...byPosition.map((t) => t.metadata.label),
        ...(m.media_type === 'video' ? ['Thumbnails'] : [])]);
      const first = byPosition.find((t) => t.track_kind === 'captions' || t.track_kind === 'subtitles')!;
      expect(body.tracks.filter((t) => t.default).map((t) => t.label)).toEqual([first.metadata.label]);
      return;
    }
    throw new Error('the seed has no unbound public media with two caption or subtitle tracks');
  });

  it('projects a published media with renditions (widest first) and text tracks', async () => {
    const all = await allMedia(SITE);
    // A media under no policy: the platform's own URLs (a bound one gets playback URLs: test/worker/playback.test.ts).
    const bound = await boundMediaIds(SITE);
    const pick = all.find((m) => isPublic(m) && m.media_type === 'video' && !bound.has(m.id))!;
    const response = await api(`/api/sites/${SITE}/media/${pick.id}`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expectNoSecret(response, text);
    const body = JSON.parse(text) as MediaResponse;
    expect(body.id).toBe(pick.id);
    expect(body.site).toBe(SITE);
    expect(body.poster).toBe(`http://sandbox.test/v2/media/${pick.id}/poster.jpg?width=720`);
    expect(body.sources.length).toBeGreaterThan(0);
    for (const s of body.sources) expect(Object.keys(s).sort()).toEqual(['filesize', 'height', 'label', 'type', 'url', 'width']);
    const widths = body.sources.map((s) => s.width ?? -1);
    expect(widths).toEqual([...widths].sort((a, b) => b - a));
    // Typed from the rendition's format and URL (the platform sends no MIME type), labelled by the picture's height.
    expect(new Set(body.sources.map((s) => s.type))).toEqual(new Set(['video/mp4', 'application/vnd.apple.mpegurl']));
    for (const s of body.sources) {
      expect(s.label).toBe(s.type === 'video/mp4' ? `${s.height}p` : 'Auto');
      if (s.type === 'video/mp4') expect(s.url).toMatch(/\.mp4$/);
    }
    for (const t of body.tracks) expect(Object.keys(t).sort()).toEqual(['default', 'kind', 'label', 'srclang', 'url']);
    for (const key of FORBIDDEN_KEYS) expect(keysDeep(body).has(key), key).toBe(false);
    expect(Object.keys(body.custom_params).every((k) => ['series', 'episode'].includes(k))).toBe(true);
  });

  it('answers 404 for scheduled, expired, unscheduled and not-ready media', async () => {
    const all = await allMedia(SITE);
    const now = Date.now();
    const cases = [
      all.find((m) => m.status === 'ready' && m.metadata.publish_start_date && Date.parse(m.metadata.publish_start_date) > now),
      all.find((m) => m.status === 'ready' && m.metadata.publish_end_date && Date.parse(m.metadata.publish_end_date) < now),
      all.find((m) => m.status === 'ready' && m.metadata.publish_start_date === null),
      all.find((m) => m.status !== 'ready'),
    ];
    for (const m of cases) {
      expect(m).toBeDefined();
      // The Delivery API answers none of them (it delivers only what is published now), and a fresh budget per case
      // keeps the bound playlists' reads (what binds a media) from meeting an empty bucket.
      await budgetStub(env).reset();
      await expectError(await api(`/api/sites/${SITE}/media/${m!.id}`), 404, 'not_found');
    }
  });
});

describe('GET /api/sites/:site/players/:player', () => {
  it('answers {id, name, release_channel, setup_config} and nothing else', async () => {
    const [player] = await players(SITE);
    const response = await api(`/api/sites/${SITE}/players/${player!.id}`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const body = JSON.parse(text) as PlayerResponse;
    expect(body).toEqual({
      id: player!.id,
      name: player!.metadata.name,
      release_channel: player!.metadata.release_channel,
      setup_config: player!.metadata.setup_config,
    });
  });
});

it('serves only configured sites', () => {
  expect(Object.keys(config.sites)).toContain(SITE);
});

describe('feed variants', () => {
  const feedPath = (playlist: string, query: string) => `/api/sites/${SITE}/playlists/${playlist}${query}`;

  it('refuses related_media_id, tags and search where the playlist type does not use them, naming the type that does', async () => {
    const manual = await playlistOfType(SITE, 'manual');
    const recs = await playlistOfType(SITE, 'recommendations');
    const art = await playlistOfType(SITE, 'article_matching');
    const seed = (await taggedPublicMedia(SITE))[0]!.id;
    const refused = async (path: string, names: string) => {
      const response = await api(path);
      const text = await response.clone().text();
      await expectError(response, 400, 'invalid_request');
      expect(JSON.parse(text).errors[0].description).toContain(names);
    };
    await refused(feedPath(manual.id, `?seed=${seed}`), 'recommendations');
    await refused(feedPath(art.id, `?seed=${seed}`), 'recommendations');
    await refused(feedPath(recs.id, '?tags=travel'), 'article_matching');
    await refused(feedPath(manual.id, '?tags=travel'), 'article_matching');
    await refused(feedPath(recs.id, `?seed=${seed}&tags=travel`), 'article_matching');
    await refused(feedPath(manual.id, '?search=lisbon'), 'search');
    await refused(feedPath(art.id, `?related_media_id=${seed}`), 'recommendations');
  });

  it('refusing a variant costs no upstream call once the playlist is cached', async () => {
    const manual = await playlistOfType(SITE, 'manual');
    await expectError(await api(feedPath(manual.id, '?seed=aaaa0000')), 400, 'invalid_request');
    const before = (await stats()).total;
    for (let i = 1; i <= 20; i++) {
      await expectError(await api(feedPath(manual.id, `?seed=aaaa${String(i).padStart(4, '0')}`), { ip: `198.18.0.${i}` }),
        400, 'invalid_request');
    }
    expect((await stats()).total).toBe(before);
  });

  describe('with feed.max_variants = 2 in the budget object', () => {
    // The cap is kept (and read from the configuration) by the budget object; only these tests swap its env, with a
    // burst large enough that no answer here depends on the refill.
    const capped = { ...JSON.parse(env.REELGATE_CONFIG), budget: { rate_per_minute: 50, burst: 30, max_wait_ms: 400 },
      feed: { max_variants: 2, variant_window_seconds: 600 } };
    beforeEach(async () => {
      await runInDurableObject(budgetStub(env), (object) => {
        (object as unknown as { env: typeof env }).env = { ...env, REELGATE_CONFIG: JSON.stringify(capped) };
      });
      await budgetStub(env).reset();
    });
    afterEach(async () => {
      await runInDurableObject(budgetStub(env), (object) => {
        (object as unknown as { env: typeof env }).env = env;
      });
      await budgetStub(env).reset();
    });

    it('loads at most max_variants new variants; beyond, the playlist\'s own feed stands in; cached variants keep being served', async () => {
      const art = await playlistOfType(SITE, 'article_matching');
      const own = await feed(SITE, art.id);
      const bound = await boundMediaIds(SITE);
      const first = await api(feedPath(art.id, '?tags=travel'));
      const second = await api(feedPath(art.id, '?tags=news'));
      const answers: FeedResponse[] = [];
      for (const r of [first, second]) {
        expect(r.status).toBe(200);
        expect(r.headers.get('x-reelgate-variant')).toBeNull();
        const body = (await r.json()) as FeedResponse;
        answers.push(body);
        // Shared caches may keep a variant only when no item in it is under a policy.
        expect(r.headers.get('cache-control')).toMatch(body.items.some((i) => bound.has(i.id)) ? /^private/ : /^public/);
      }
      const travel = answers[0]!;
      for (const item of travel.items) expect(item.tags).toContain('travel');

      // A third new variant: nothing upstream, the playlist's own feed, marked, and not to be stored under its URL.
      const before = (await stats()).total;
      const third = await api(feedPath(art.id, '?tags=sports'));
      expect(third.status).toBe(200);
      expect(third.headers.get('x-reelgate-variant')).toBe('default');
      expect(third.headers.get('cache-control')).toBe('private, no-store');
      expect(((await third.json()) as FeedResponse).items).toEqual(own.items);
      expect((await stats()).total).toBe(before);

      // The variants loaded before are still answered as themselves.
      const again = await api(feedPath(art.id, '?tags=travel'));
      expect(again.headers.get('x-reelgate-variant')).toBeNull();
      expect(((await again.json()) as FeedResponse).items).toEqual(travel.items);

      // Another playlist has its own count.
      const recs = await playlistOfType(SITE, 'recommendations');
      const seeded = await api(feedPath(recs.id, `?related_media_id=${(await taggedPublicMedia(SITE))[0]!.id}`));
      expect(seeded.status).toBe(200);
      expect(seeded.headers.get('x-reelgate-variant')).toBeNull();
      await seeded.body?.cancel();
    });
  });
});
