// A successful write purges the cached public answers it affects: the next widget read is fresh, not the cached copy
// waiting out its TTL. A failed write purges nothing.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { budgetStub } from '../../worker/budget/client.ts';
import { api } from '../worker/helpers.ts';
import { callsTo, catalog, createKey, resetGateway, send, SITE, stats, type CreatedKey } from './helpers.ts';

beforeEach(() => resetGateway());

const V2 = `/v2/sites/${SITE}`;
const CACHE_HEADER = 'x-reelgate-cache';

async function publicRead(path: string): Promise<{ state: string | null; body: any }> {
  const response = await api(path);
  expect(response.status, path).toBe(200);
  return { state: response.headers.get(CACHE_HEADER), body: await response.json() };
}

describe('cache purge after writes', () => {
  let key: CreatedKey;
  let site: any;
  beforeEach(async () => {
    key = await createKey(['read', 'write']);
    site = (await catalog()).sites.find((s: { id: string }) => s.id === SITE);
  });

  it('a media update shows on the next public media read and in its feeds', async () => {
    const manual = site.playlists.manual[1] ?? site.playlists.manual[0];
    const feed = await publicRead(`/api/sites/${SITE}/playlists/${manual}`);
    const item = feed.body.items[0];
    expect(item).toBeDefined();
    const mediaPath = `/api/sites/${SITE}/media/${item.id}`;
    await publicRead(mediaPath);
    expect((await publicRead(mediaPath)).state).toBe('HIT');
    expect((await publicRead(`/api/sites/${SITE}/playlists/${manual}`)).state).toBe('HIT');
    // The loads above spent most of the test budget's burst; this test is about freshness, not the budget.
    await budgetStub(env).reset();

    const patched = await send(`${V2}/media/${item.id}/`, 'PATCH', key, { metadata: { title: 'Fresh from the CMS' } });
    expect(patched.status).toBe(200);

    const media = await publicRead(mediaPath);
    expect(media.state).toBe('MISS');
    expect(media.body.title).toBe('Fresh from the CMS');
    const again = await publicRead(`/api/sites/${SITE}/playlists/${manual}`);
    expect(again.state).toBe('MISS');
    expect(again.body.items.find((i: { id: string }) => i.id === item.id).title).toBe('Fresh from the CMS');
  });

  it('a playlist update shows on the next feed read', async () => {
    const manual = site.playlists.manual[0];
    const before = await publicRead(`/api/sites/${SITE}/playlists/${manual}`);
    expect((await publicRead(`/api/sites/${SITE}/playlists/${manual}`)).state).toBe('HIT');
    const patched = await send(`${V2}/playlists/${manual}/manual_playlist/`, 'PATCH', key, { metadata: { title: 'Renamed feed' } });
    expect(patched.status).toBe(200);
    const after = await publicRead(`/api/sites/${SITE}/playlists/${manual}`);
    expect(before.body.playlist.title).not.toBe('Renamed feed');
    expect(after.body.playlist.title).toBe('Renamed feed');
  });

  it('a player update shows on the next player read', async () => {
    const player = site.players[0];
    await publicRead(`/api/sites/${SITE}/players/${player}`);
    expect((await publicRead(`/api/sites/${SITE}/players/${player}`)).state).toBe('HIT');
    expect((await send(`${V2}/players/${player}/`, 'PATCH', key, { metadata: { release_channel: 'preview' } })).status).toBe(200);
    const after = await publicRead(`/api/sites/${SITE}/players/${player}`);
    expect(after.state).toBe('MISS');
    expect(after.body.release_channel).toBe('preview');
  });

  it('a refused write purges nothing: the cached answer stays a HIT with no upstream call', async () => {
    const player = site.players[0];
    await publicRead(`/api/sites/${SITE}/players/${player}`);
    const bad = await send(`${V2}/players/${player}/`, 'PATCH', key, { metadata: { name: '' } });
    expect(bad.status).toBe(400);
    const calls = callsTo(await stats(), 'GET', '/players/:player/');
    expect((await publicRead(`/api/sites/${SITE}/players/${player}`)).state).toBe('HIT');
    expect(callsTo(await stats(), 'GET', '/players/:player/')).toBe(calls);
  });
});
