// A playlist's policy guards more than that playlist's feed: a media is bound by the policy of every
// configured playlist that lists it, on every route that can reveal it (its JSON, every other feed and variant, a
// recommendations seed, its bytes), and a refused visitor learns nothing of it. The test configuration binds the
// northwind site's dynamic playlist ("everything tagged food") to gb-only: Manchester is allowed, Berlin is not.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { budgetStub } from '../../worker/budget/client.ts';
import { clearMemoryCache } from '../../worker/cache/cached.ts';
import type { FeedResponse, MediaResponse, PlayerResponse } from '../../worker/contract/public-api.ts';
import { api, config, expectError, resetWorld, sandbox, SITE } from './helpers.ts';
import { allMedia, isPublic, playlistOfType, playlists } from './upstream-direct.ts';

const MANCHESTER = '192.0.2.11';
const BERLIN = '192.0.2.30';

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}

async function faults(body: Record<string, unknown>): Promise<void> {
  const r = await sandbox('/_sandbox/faults', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  await r.body?.cancel();
}

/** The gb-only playlist's members as the worker lists them to an allowed visitor, and their titles. */
async function gbOnlyMembers(): Promise<{ playlist: string; ids: Set<string>; titles: string[] }> {
  const dynamic = await playlistOfType(SITE, 'dynamic');
  expect(config.sites[SITE]!.playlists![dynamic.id]).toBe('gb-only');
  const feed = await json<FeedResponse>(await api(`/api/sites/${SITE}/playlists/${dynamic.id}?page_length=50`, { ip: MANCHESTER }));
  expect(feed.items.length).toBeGreaterThan(0);
  return { playlist: dynamic.id, ids: new Set(feed.items.map((i) => i.id)), titles: feed.items.map((i) => i.title) };
}

beforeEach(async () => {
  await resetWorld();
  await faults({});
});

describe('a playlist\'s policy guards its members beyond that playlist\'s feed', () => {
  it('a member of a bound playlist is refused as media to a visitor that playlist\'s policy refuses', async () => {
    const { ids } = await gbOnlyMembers();
    const member = [...ids][0]!;
    await expectError(await api(`/api/sites/${SITE}/media/${member}`, { ip: BERLIN }), 451, 'geo_blocked');
    // Even once it is cached for an allowed visitor, who gets it privately, with playback URLs only.
    const allowed = await api(`/api/sites/${SITE}/media/${member}`, { ip: MANCHESTER });
    expect(allowed.headers.get('cache-control')).toBe('private, no-store');
    const body = await json<MediaResponse>(allowed);
    for (const url of [body.poster, ...body.sources.map((s) => s.url), ...body.tracks.map((t) => t.url)]) {
      if (url) expect(url).toMatch(/^\/api\/play\//);
    }
    await expectError(await api(`/api/sites/${SITE}/media/${member}`, { ip: BERLIN }), 451, 'geo_blocked');
  });

  it('no other feed, variant or seed names a member to a refused visitor, and an allowed one still sees them', async () => {
    const { playlist, ids, titles } = await gbOnlyMembers();
    const others = (await playlists(SITE)).filter((p) => p.id !== playlist);
    const paths = others.map((p) => `/api/sites/${SITE}/playlists/${p.id}?page_length=50`);
    const articles = others.find((p) => p.playlist_type === 'article_matching')!;
    const recommendations = others.find((p) => p.playlist_type === 'recommendations')!;
    // A food-tagged seed that is no member (past the playlist's max_items, or unscheduled) relates to members by tag.
    const food = (await allMedia(SITE)).filter((m) => isPublic(m) && m.metadata.tags?.includes('food'));
    const outsider = food.find((m) => !ids.has(m.id));
    paths.push(`/api/sites/${SITE}/playlists/${articles.id}?tags=food&page_length=50`);
    if (outsider) paths.push(`/api/sites/${SITE}/playlists/${recommendations.id}?seed=${outsider.id}&page_length=50`);

    let seenByAllowed = 0;
    for (const path of paths) {
      // Each pair of requests on a full budget: this test is about what is shown, not about the budget.
      await budgetStub(env).reset();
      const forAllowed = await json<FeedResponse>(await api(path, { ip: MANCHESTER }));
      seenByAllowed += forAllowed.items.filter((i) => ids.has(i.id)).length;
      const response = await api(path, { ip: BERLIN });
      const text = await response.text();
      expect(response.status, `${path}: ${text}`).toBe(200);
      const forRefused = JSON.parse(text) as FeedResponse;
      expect(forRefused.items.filter((i) => ids.has(i.id)), path).toEqual([]);
      for (const title of titles) expect(text, path).not.toContain(JSON.stringify(title));
      // What the two see differs, so neither answer may be kept by a shared cache.
      if (forAllowed.items.some((i) => ids.has(i.id))) expect(response.headers.get('cache-control')).toBe('private, no-store');
    }
    // The check above can fail: members do show up elsewhere for a visitor the policy allows.
    expect(seenByAllowed).toBeGreaterThan(0);

    // A member as the seed of recommendations would describe it by its related items: refused like the media.
    await budgetStub(env).reset();
    const seedPath = `/api/sites/${SITE}/playlists/${recommendations.id}?seed=${[...ids][0]}`;
    await expectError(await api(seedPath, { ip: BERLIN }), 451, 'geo_blocked');
    expect((await api(seedPath, { ip: MANCHESTER })).status).toBe(200);
  });

  it('a playback URL of a member, handed to an allowed visitor, is refused when replayed from a refused place', async () => {
    const { ids } = await gbOnlyMembers();
    let source: string | undefined;
    for (const id of ids) {
      await budgetStub(env).reset(); // as many members as it takes to find an MP4, each on a full budget
      const media = await json<MediaResponse>(await api(`/api/sites/${SITE}/media/${id}`, { ip: MANCHESTER }));
      source = media.sources.find((s) => s.type === 'video/mp4')?.url;
      if (source) break;
    }
    expect(source).toMatch(/^\/api\/play\//);
    const fromManchester = await api(source!, { ip: MANCHESTER, headers: { range: 'bytes=0-15' } });
    expect(fromManchester.status).toBe(206);
    await fromManchester.body?.cancel();
    await expectError(await api(source!, { ip: BERLIN, headers: { range: 'bytes=0-15' } }), 451, 'playback_denied');
  });

  it('a player configuration that names a member leaves that setting out for a refused visitor', async () => {
    const { ids } = await gbOnlyMembers();
    const member = [...ids][0]!;
    const created = await sandbox(`/v2/sites/${SITE}/players/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'Recipe of the day', release_channel: 'latest', setup_config: {
        aspectratio: '16:9', playlist: `https://cdn.example.com/v2/media/${member}`, autostart: false,
      } } }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const path = `/api/sites/${SITE}/players/${id}`;
    const allowed = await api(path, { ip: MANCHESTER });
    expect(allowed.headers.get('cache-control')).toBe('private, no-store');
    expect((await json<PlayerResponse>(allowed)).setup_config).toMatchObject({ playlist: expect.stringContaining(member), aspectratio: '16:9' });
    const refused = await api(path, { ip: BERLIN });
    expect(refused.headers.get('cache-control')).toBe('private, no-store');
    const text = await refused.text();
    expect(text).not.toContain(member);
    expect((JSON.parse(text) as PlayerResponse).setup_config).toEqual({ aspectratio: '16:9', autostart: false });
  });

  it('without the members at hand, nothing is shown as unbound: the media fails closed, and a byte request asks for a fresh URL', async () => {
    const { playlist, ids } = await gbOnlyMembers();
    const member = [...ids][0]!;
    const media = await json<MediaResponse>(await api(`/api/sites/${SITE}/media/${member}`, { ip: MANCHESTER }));
    const source = media.sources[0]!.url;

    // The bound playlist's feed is gone from every cache, and the platform is down: membership cannot be learnt.
    await env.CACHE.delete(`feed:${SITE}:${playlist}`);
    clearMemoryCache();
    await budgetStub(env).reset(); // and its short memory of finished reads
    await faults({ outage: true });
    const refusedNow = await api(`/api/sites/${SITE}/media/${member}`, { ip: BERLIN });
    expect(refusedNow.status).toBeGreaterThanOrEqual(500);
    expect(refusedNow.status).not.toBe(500);
    await refusedNow.body?.cancel();
    // A byte request never loads (it spends no budget): it answers "expired", so the player loads the media again.
    await expectError(await api(source, { ip: MANCHESTER, headers: { range: 'bytes=0-15' } }), 403, 'playback_expired');
  });
});

describe('a bound playlist whose rules cannot be read binds everything it might hold, never nothing', () => {
  it('a typed answer without its filter objects is unreadable, not "no rule": 502 for its feed and its site\'s media', async () => {
    const { playlist, ids } = await gbOnlyMembers();
    const member = [...ids][0]!;
    const outsider = (await allMedia(SITE)).find((m) => isPublic(m) && !ids.has(m.id) && !m.metadata.tags.includes('food'))!;
    await resetWorld();
    await faults({ dropped_playlist_rules: true });
    await expectError(await api(`/api/sites/${SITE}/playlists/${playlist}`, { ip: MANCHESTER }), 502, 'playlist_rules_unreadable');
    // Read as "no rule" it would have bound everything or nothing; unread, it binds closed.
    await expectError(await api(`/api/sites/${SITE}/media/${member}`, { ip: BERLIN }), 502, 'playlist_rules_unreadable');
    await expectError(await api(`/api/sites/${SITE}/media/${outsider.id}`, { ip: BERLIN }), 502, 'playlist_rules_unreadable');
    await faults({});
  });


  it('refuses its feed and every media of its site with playlist_rules_unreadable, and serves again once readable', async () => {
    const { playlist, ids } = await gbOnlyMembers();
    const member = [...ids][0]!;
    const outsider = (await allMedia(SITE)).find((m) => isPublic(m) && !ids.has(m.id) && !m.metadata.tags.includes('food'))!;
    // The platform changes where it keeps the rules; the worker's caches are cold, as after a deploy.
    await resetWorld();
    await faults({ changed_playlist_shape: true });
    await expectError(await api(`/api/sites/${SITE}/playlists/${playlist}`, { ip: MANCHESTER }), 502, 'playlist_rules_unreadable');
    // Its members cannot be told from other media: no media of the site is served as unbound, to anyone.
    await expectError(await api(`/api/sites/${SITE}/media/${member}`, { ip: BERLIN }), 502, 'playlist_rules_unreadable');
    await expectError(await api(`/api/sites/${SITE}/media/${outsider.id}`, { ip: BERLIN }), 502, 'playlist_rules_unreadable');
    const description = JSON.parse(await (await api(`/api/sites/${SITE}/media/${member}`, { ip: MANCHESTER })).text());
    expect(description.errors[0].description).toContain(playlist);
    // Back to the documented shape: the member is bound again (refused in Berlin), the outsider served.
    await faults({});
    await resetWorld();
    await expectError(await api(`/api/sites/${SITE}/media/${member}`, { ip: BERLIN }), 451, 'geo_blocked');
    expect((await api(`/api/sites/${SITE}/media/${outsider.id}`, { ip: BERLIN })).status).toBe(200);
  });
});
