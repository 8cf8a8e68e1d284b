// Media answers from the platform's Delivery API (worker/delivery/): what the platform's own player gets (the HLS
// manifest at its delivery path, published tracks, posters), at one Management call from cold (whose the media is:
// delivery names no property); signed where the site signs, and a wrong signature is the operator's to fix, not a
// visitor's 500.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MediaResponse } from '../../worker/contract/public-api.ts';
import type { MediaRenditionList, TextTrackList } from '../../worker/contract/v2-types.ts';
import { api, boundPlaylists, callsTo, config, EUROPE_SITE, expectError, resetWorld, sandbox, SITE, stats as sandboxStats } from './helpers.ts';
import { deliveryStats, expectDeliverySigned, expectWrongSecretRefused, LONDON, SEALED } from './delivery-support.ts';
import { allMedia, isPublic } from './upstream-direct.ts';

type SigningConfig = { media?: Record<string, string> };
const DELIVERY = 'http://sandbox.test';
const authorised = { authorization: `Bearer ${env.API_SECRET}` };
/** New York: refused by `europe` (London, allowed by every test policy, is delivery-support.ts's). */
const NEW_YORK = '192.0.2.20';

/** Management API calls so far (the geo lookup of a new visitor is not one). */
const management = async () => callsTo(await sandboxStats(), '/v2/sites/');

async function textTracksOf(site: string, id: string): Promise<TextTrackList['text_tracks']> {
  const response = await sandbox(`/v2/sites/${site}/media/${id}/text_tracks/?page_length=100`, { headers: authorised });
  return (await response.json<TextTrackList>()).text_tracks;
}

/** Ready videos of a site, published now, that no policy of the test configuration binds. */
async function plainVideos(site: string): Promise<string[]> {
  const bound = new Set(Object.keys((config.sites[site] as SigningConfig).media ?? {}));
  return (await allMedia(site)).filter((m) => isPublic(m) && m.status === 'ready' && m.media_type === 'video' && !bound.has(m.id))
    .map((m) => m.id);
}

beforeEach(() => resetWorld());

describe('a media answer from the Delivery API', () => {
  it('has the HLS manifest at its delivery path as its first source (a playback URL when bound); no HLS rendition is listed', async () => {
    let plain: MediaResponse | undefined;
    let bound: MediaResponse | undefined;
    for (const id of await plainVideos(SITE)) {
      const response = await api(`/api/sites/${SITE}/media/${id}`, { ip: LONDON });
      expect(response.status).toBe(200);
      const media = await response.json<MediaResponse>();
      if (media.sources[0]!.url.startsWith('/api/play/')) bound ??= media;
      else plain ??= media;
      if (plain && bound) break;
    }
    expect(plain && bound, 'the seed has bound and unbound videos').toBeTruthy();
    expect(plain!.sources[0]).toMatchObject({ url: `${DELIVERY}/manifests/${plain!.id}.m3u8`, type: 'application/vnd.apple.mpegurl', label: 'Auto' });
    expect(plain!.sources.slice(1).every((s) => s.type === 'video/mp4' || s.type === 'audio/mp4')).toBe(true);

    // Bound: the manifest through a playback URL, served rewritten so every URI in it is a playback URL too.
    expect(bound!.sources[0]).toMatchObject({ type: 'application/vnd.apple.mpegurl' });
    expect(bound!.sources[0]!.url).toMatch(new RegExp(`^/api/play/[^/]+/${bound!.id}\\.m3u8`));
    const manifest = await api(bound!.sources[0]!.url, { ip: LONDON });
    expect(manifest.status).toBe(200);
    const text = await manifest.text();
    expect(text.startsWith('#EXTM3U')).toBe(true);
    expect(text).not.toContain(DELIVERY);

    for (const media of [plain!, bound!]) {
      const renditions = await (await sandbox(`/v2/sites/${SITE}/media/${media.id}/media_renditions/`, { headers: authorised }))
        .json<MediaRenditionList>();
      expect(renditions.media_renditions.length).toBeGreaterThan(0);
      expect(renditions.media_renditions.some((r) => /m3u8/i.test(`${r.delivery_url} ${(r as { format?: string }).format ?? ''}`))).toBe(false);
    }
  });

  it('from cold costs one Management call (whose the media is, and its tracks\' languages), and warm none', async () => {
    const videos = await plainVideos(SITE);
    let captioned: string | undefined;
    let published: TextTrackList['text_tracks'] = [];
    for (const id of videos) {
      published = (await textTracksOf(SITE, id)).filter((t) => t.status === 'ready');
      if (published.length) {
        captioned = id;
        break;
      }
    }
    const plainId = videos.find((id) => id !== captioned)!;
    expect(captioned, 'the seed has a video with captions').toBeDefined();
    // What binds a media (the site's bound playlists) is read first, so the counts below are the media's own.
    await boundPlaylists(SITE);

    for (const id of [plainId, captioned!]) {
      const before = await management();
      const response = await api(`/api/sites/${SITE}/media/${id}`, { ip: LONDON });
      expect(response.status).toBe(200);
      expect(await management() - before, id).toBe(1);
      if (id !== captioned) continue;
      const media = await response.json<MediaResponse>();
      const text = media.tracks.filter((t) => t.kind !== 'thumbnails');
      expect(text.map((t) => t.srclang).sort()).toEqual(published.map((t) => t.metadata.srclang).sort());
    }

    // Warm: no call of either kind.
    const warmFrom = await management();
    const delivery = (await deliveryStats()).delivery_calls;
    expect((await api(`/api/sites/${SITE}/media/${captioned}`, { ip: LONDON })).status).toBe(200);
    expect(await management()).toBe(warmFrom);
    expect((await deliveryStats()).delivery_calls).toBe(delivery);
  });

  it('concurrent cold misses of one media share one delivery call, not one per visitor', async () => {
    const [id] = await plainVideos(SITE);
    await boundPlaylists(SITE);
    const before = (await deliveryStats()).delivery_calls;
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) =>
      api(`/api/sites/${SITE}/media/${id}`, { ip: i % 2 ? LONDON : '192.0.2.11' }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      })));
    expect(statuses.every((s) => s === 200)).toBe(true);
    // One in the ordinary case; a slow machine may start a second round before the first answer is cached.
    expect((await deliveryStats()).delivery_calls - before).toBeLessThanOrEqual(10);
  });

  it('a media of another site is not found under this one, whatever the other\'s policy (delivery names no property)', async () => {
    // The europe site's media: its policy refuses New York. Asked for under the plain site, it must not be answered.
    const [other] = await plainVideos(EUROPE_SITE);
    await expectError(await api(`/api/sites/${SITE}/media/${other}`, { ip: NEW_YORK }), 404, 'not_found');
    await expectError(await api(`/api/sites/${SITE}/media/${other}`, { ip: LONDON }), 404, 'not_found');
    await expectError(await api(`/api/sites/${EUROPE_SITE}/media/${other}`, { ip: NEW_YORK }), 451, 'geo_blocked');
    // Under a site that signs, the platform refuses the token for another property's media (403): that is "not
    // found" here too, not the operator's signing configuration.
    await expectError(await api(`/api/sites/${SEALED}/media/${other}`, { ip: LONDON }), 404, 'not_found');
  });

  it('on a site that signs, every delivery call is signed; a wrong secret is refused by the platform and said as 502', async () => {
    const [id] = await plainVideos(SEALED);
    await expectDeliverySigned(`/api/sites/${SEALED}/media/${id}`);
    await expectWrongSecretRefused(`/api/sites/${SEALED}/media/${id}`);
  });

  it('a media the platform does not deliver (unknown, or not published) is 404, and costs no Management call', async () => {
    const unpublished = (await allMedia(SITE)).find((m) => !isPublic(m));
    await boundPlaylists(SITE);
    const before = await management();
    await expectError(await api(`/api/sites/${SITE}/media/Zz9Zz9Zz`, { ip: LONDON }), 404, 'not_found');
    if (unpublished) await expectError(await api(`/api/sites/${SITE}/media/${unpublished.id}`, { ip: LONDON }), 404, 'not_found');
    expect(await management()).toBe(before);
  });
});
