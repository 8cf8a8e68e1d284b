// Feeds from the platform's Delivery API (worker/delivery/feed.ts): the items a platform player gets, in its order,
// read 100 at a time up to `feed.max_items`; the playlist's head (type and rules) from the Management API, so a cold
// feed costs two Management calls and a variant of a held head none. Signed where the site signs.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FeedResponse } from '../../worker/contract/public-api.ts';
import type { PlaylistType } from '../../worker/contract/v2-types.ts';
import {
  api, boundPlaylists, callsTo, config, expectError, resetWithExtraMedia, resetWorld, sandbox, SITE, stats, withConfig,
} from './helpers.ts';
import { deliveredIds, playlistOfType, playlists, taggedPublicMedia } from './upstream-direct.ts';

type SigningConfig = { url_signing?: { secret: string } };
const SEALED = Object.entries(config.sites as Record<string, SigningConfig>).find(([, s]) => s.url_signing)![0];
/** London: allowed by every test policy. */
const LONDON = '192.0.2.10';

interface DeliveryStats { delivery_calls: number; delivery_signed_calls: number }
const deliveryStats = async () => (await (await sandbox('/_sandbox/stats')).json()) as DeliveryStats;
const management = async () => callsTo(await stats(), '/v2/sites/');

async function createPlaylist(type: PlaylistType, metadata: Record<string, unknown>): Promise<string> {
  const response = await sandbox(`/v2/sites/${SITE}/playlists/${type}_playlist/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ metadata: { title: `Delivered ${type}`, ...metadata } }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return (JSON.parse(text) as { id: string }).id;
}

beforeEach(() => resetWorld());

describe('a feed from the Delivery API', () => {
  it('from cold costs two Management calls (the head) and its items one delivery call; a variant of a held head none', async () => {
    const recs = await playlistOfType(SITE, 'recommendations');
    const [related, other] = await taggedPublicMedia(SITE);
    await boundPlaylists(SITE);
    const before = { management: await management(), delivery: (await deliveryStats()).delivery_calls };
    const first = await api(`/api/sites/${SITE}/playlists/${recs.id}?related_media_id=${related!.id}`, { ip: LONDON });
    expect(first.status, await first.clone().text()).toBe(200);
    const afterFirst = { management: await management(), delivery: (await deliveryStats()).delivery_calls };
    expect(afterFirst.management - before.management).toBe(2);
    // The feed, and the related media's own answer (its tags and custom params, which a policy may judge it by).
    expect(afterFirst.delivery - before.delivery).toBe(2);
    const second = await api(`/api/sites/${SITE}/playlists/${recs.id}?related_media_id=${other!.id}&page_length=50`, { ip: LONDON });
    expect(second.status).toBe(200);
    expect((await second.json<FeedResponse>()).items.map((i) => i.id))
      .toEqual(await deliveredIds(recs.id, { related_media_id: other!.id }));
    expect(await management()).toBe(afterFirst.management);
  });

  it('reads a long playlist 100 items a call, up to feed.max_items, in the platform\'s order', async () => {
    const extra = await resetWithExtraMedia(SITE, 240);
    const listed = [...extra].reverse();
    const id = await createPlaylist('manual', { media_filter: { include: { values: listed } } });
    // The site's bound playlists are read for membership by every feed request: held first, they cost nothing here.
    await boundPlaylists(SITE);
    const wider = (c: typeof config) => {
      (c as unknown as { feed: Record<string, number> }).feed.max_items = 230;
    };
    const before = (await deliveryStats()).delivery_calls;
    const first = await withConfig(wider, `/api/sites/${SITE}/playlists/${id}?page_length=50`, LONDON);
    const body = await first.json<FeedResponse>();
    expect(first.status, JSON.stringify(body)).toBe(200);
    expect(body.total).toBe(230);
    expect(body.items.map((i) => i.id)).toEqual(listed.slice(0, 50));
    // 100, 100 and 30: the definition's largest page, then what max_items leaves.
    expect((await deliveryStats()).delivery_calls - before).toBe(3);
    const last = await withConfig(wider, `/api/sites/${SITE}/playlists/${id}?page_length=50&page=5`, LONDON);
    expect((await last.json<FeedResponse>()).items.map((i) => i.id)).toEqual(listed.slice(200, 230));
  });

  it('on a site that signs, every feed call is signed; a wrong secret is refused by the platform and said as 502', async () => {
    const [playlist] = (await playlists(SEALED)).filter((p) => p.playlist_type === 'manual');
    const before = await deliveryStats();
    const response = await api(`/api/sites/${SEALED}/playlists/${playlist!.id}`, { ip: LONDON });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json<FeedResponse>()).items.length).toBeGreaterThan(0);
    const after = await deliveryStats();
    expect(after.delivery_calls - before.delivery_calls).toBeGreaterThan(0);
    expect(after.delivery_signed_calls - before.delivery_signed_calls).toBe(after.delivery_calls - before.delivery_calls);

    await resetWorld();
    const wrong = await withConfig((c) => {
      const site = c.sites[SEALED] as SigningConfig;
      // The configuration names a binding that holds another secret: what a rotated or mistyped secret looks like.
      site.url_signing = { ...site.url_signing!, secret: 'ADDRESS_SALT' };
    }, `/api/sites/${SEALED}/playlists/${playlist!.id}`, LONDON);
    await expectError(wrong, 502, 'delivery_refused');
  });
});
