// Feeds from the platform's Delivery API (worker/delivery/feed.ts): the items a platform player gets, in its order,
// read 100 at a time up to `feed.max_items`; the playlist's head (type and rules) from the Management API, so a cold
// feed costs two Management calls and a variant of a held head none. Signed where the site signs.
import { beforeEach, describe, expect, it } from 'vitest';
import type { FeedResponse } from '../../worker/contract/public-api.ts';
import {
  api, boundPlaylists, callsTo, config, createPlaylist, resetWithExtraMedia, resetWorld, SITE, stats, withConfig,
} from './helpers.ts';
import { deliveryStats, expectDeliverySigned, expectWrongSecretRefused, LONDON, SEALED } from './delivery-support.ts';
import { deliveredIds, playlistOfType, playlists, taggedPublicMedia } from './upstream-direct.ts';

const management = async () => callsTo(await stats(), '/v2/sites/');

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
    const path = `/api/sites/${SEALED}/playlists/${playlist!.id}`;
    const response = await expectDeliverySigned(path);
    expect((await response.json<FeedResponse>()).items.length).toBeGreaterThan(0);
    await expectWrongSecretRefused(path);
  });
});
