// A writer's external media must not open anyone else's bytes: anyone with write access can create an `external` media
// whose source URL names another media's file on the platform's delivery host. The worker would sign that URL (on a
// signing site) or fetch it (under a policy) as the writer's media's own, handing out bytes the other media's policy
// refuses. Every door refuses such a media alike, for refused and allowed visitors, and a playback URL of a folder
// opens its own media's files only (worker/catalog/delivery-layout.ts).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MediaResponse } from '../../worker/contract/public-api.ts';
import type { MediaRenditionList } from '../../worker/contract/v2-types.ts';
import { cacheKeys } from '../../worker/catalog/index.ts';
import type { MetricsView } from '../../worker/metrics/index.ts';
import { playbackKeys } from '../../worker/playback/keys.ts';
import { digest8, signToken } from '../../worker/playback/token.ts';
import { api, config, EUROPE_SITE, expectError, resetWorld, sandbox } from './helpers.ts';

type SiteConfig = { url_signing?: unknown; media?: Record<string, string> };
const SITES = config.sites as Record<string, SiteConfig>;
/** The signing site, and its media bound to the `europe` policy. */
const SEALED = Object.entries(SITES).find(([, s]) => s.url_signing)![0];
const GATED = Object.keys(SITES[SEALED]!.media ?? {})[0]!;
/** Berlin (Europe) is allowed by `europe`; New York is refused. */
const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';
const DELIVERY = 'http://sandbox.test';
const HLS = 'application/vnd.apple.mpegurl';
const authorised = { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' };

/** What a writer with write access to `site` creates: an external media whose one source is `sourceUrl`. */
async function externalMedia(site: string, sourceUrl: string, mimeType = 'video/mp4'): Promise<string> {
  const created = await sandbox(`/v2/sites/${site}/media/`, {
    method: 'POST',
    headers: authorised,
    body: JSON.stringify({
      metadata: { title: 'Someone else\'s file', publish_start_date: '2020-01-01T00:00:00Z' },
      upload: { method: 'external', source_url: sourceUrl, mime_type: mimeType },
    }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  return (await created.json<{ id: string }>()).id;
}

/** The gated media's first MP4 rendition, as the platform names it on its delivery host. */
async function gatedRendition(): Promise<string> {
  const listed = await sandbox(`/v2/sites/${SEALED}/media/${GATED}/media_renditions/`, { headers: authorised });
  const { media_renditions: renditions } = await listed.json<MediaRenditionList>();
  const mp4 = renditions.find((r) => typeof r.delivery_url === 'string' && r.delivery_url.endsWith('.mp4'));
  expect(mp4?.delivery_url).toContain(`/videos/${GATED}-`);
  return mp4!.delivery_url!;
}

beforeEach(async () => {
  await resetWorld();
});

describe('an external media naming another media\'s delivery-host file is refused, on every door', () => {
  it('the gated media itself is refused in New York and answered in Berlin (the policy the attack gets round)', async () => {
    expect((await api(`/api/sites/${SEALED}/media/${GATED}`, { ip: NEW_YORK })).status).toBe(451);
    expect((await api(`/api/sites/${SEALED}/media/${GATED}`, { ip: BERLIN })).status).toBe(200);
  });

  it('a source naming the gated media\'s MP4 rendition: 502 foreign_delivery_file for refused and allowed visitors', async () => {
    const rendition = await gatedRendition();
    const writer = await externalMedia(SEALED, rendition);
    for (const ip of [NEW_YORK, BERLIN]) {
      await expectError(await api(`/api/sites/${SEALED}/media/${writer}`, { ip }), 502, 'foreign_delivery_file');
    }
    // Not through the embed page, oEmbed or the server render either: they read the same answer.
    for (const door of [`/embed/${SEALED}/media/${writer}`,
      `/oembed?url=${encodeURIComponent(`http://localhost/embed/${SEALED}/media/${writer}`)}`]) {
      const response = await api(door, { ip: BERLIN });
      expect(response.status, door).toBe(502);
      expect(await response.text()).not.toContain(GATED);
    }
  });

  it('a source naming the gated media\'s HLS master: refused alike, and nothing of it is signed', async () => {
    const writer = await externalMedia(SEALED, `${DELIVERY}/manifests/${GATED}.m3u8`, HLS);
    for (const ip of [NEW_YORK, BERLIN]) {
      const response = await api(`/api/sites/${SEALED}/media/${writer}`, { ip });
      const text = await response.clone().text();
      expect(text).not.toMatch(/[?&](sig|token)=/);
      await expectError(response, 502, 'foreign_delivery_file');
    }
  });

  it('a source under a content folder that the layout cannot read names nobody it can vouch for: refused', async () => {
    const writer = await externalMedia(SEALED, `${DELIVERY}/videos/${GATED}%2F..%2Fx.mp4`);
    await expectError(await api(`/api/sites/${SEALED}/media/${writer}`, { ip: BERLIN }), 502, 'foreign_delivery_file');
  });

  it('under a policy (no signing): a master named after another media gets no playback URL', async () => {
    const writer = await externalMedia(EUROPE_SITE, `${DELIVERY}/manifests/${GATED}.m3u8`, HLS);
    for (const ip of [NEW_YORK, BERLIN]) {
      const response = await api(`/api/sites/${EUROPE_SITE}/media/${writer}`, { ip });
      // New York is refused by the site's policy before the media is read; Berlin by the media's foreign file.
      if (ip === NEW_YORK) expect(response.status).toBe(451);
      else await expectError(response, 502, 'foreign_delivery_file');
    }
  });

  it('the refusal is counted for the operator, by site and where it was refused', async () => {
    const refusals = async () => {
      const response = await api('/admin/metrics?minutes=10', { headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` } });
      expect(response.status).toBe(200);
      const view = await response.json<MetricsView>();
      return view.series.filter((s) => s.metric === 'foreign_delivery_files' && s.labels.site === SEALED
        && s.labels.at === 'answer').reduce((sum, s) => sum + s.total, 0);
    };
    const before = await refusals();
    const writer = await externalMedia(SEALED, `${DELIVERY}/manifests/${GATED}.m3u8`, HLS);
    await api(`/api/sites/${SEALED}/media/${writer}`, { ip: BERLIN });
    expect(await refusals()).toBe(before + 1);
  });
});

describe('a folder playback URL opens its own media\'s files only, whatever its master is named', () => {
  /**
   * A token for an external media's HLS master in the platform's shared `/manifests/` folder, as the worker minted it
   * (or kept the record of it) before such a media was refused: the record is written where the worker keeps it.
   */
  async function folderToken(site: string, media: string, master: string): Promise<string> {
    const record: MediaResponse = {
      id: media, site, title: 'Kept from before', description: null, duration: 10, tags: [], publish_start_date:
        '2020-01-01T00:00:00Z', publish_end_date: null, thumbnail: null, thumbnails: [], permalink: null,
      media_type: 'video', custom_params: {}, poster: null,
      sources: [{ url: master, type: HLS, width: null, height: null, filesize: 0, label: 'Auto' }], tracks: [],
    };
    await env.CACHE.put(cacheKeys.media(site, media),
      JSON.stringify({ v: 1, storedAt: Date.now(), found: true, etag: '"kept"', value: record }));
    const [key] = await playbackKeys(env);
    return signToken(key!, { site, media, resource: 'source', scope: 'folder', digest: await digest8(master),
      expires: Math.floor(Date.now() / 1000) + 600, network: null });
  }

  /** The site's playlist membership read, as any media answer of the site does (a byte request never loads it). */
  async function warmMembership(): Promise<void> {
    const other = await externalMedia(EUROPE_SITE, 'https://elsewhere.example/other/index.m3u8', HLS);
    expect((await api(`/api/sites/${EUROPE_SITE}/media/${other}`, { ip: BERLIN })).status).toBe(200);
  }

  it('a master not named after its media opens nothing, neither itself nor another media\'s playlist', async () => {
    await warmMembership();
    const writer = await externalMedia(EUROPE_SITE, 'https://elsewhere.example/show/index.m3u8', HLS);
    const token = await folderToken(EUROPE_SITE, writer, `${DELIVERY}/manifests/index.m3u8`);
    await expectError(await api(`/api/play/${token}/index.m3u8`, { ip: BERLIN }), 502, 'foreign_delivery_file');
    await expectError(await api(`/api/play/${token}/${GATED}.m3u8`, { ip: BERLIN }), 502, 'foreign_delivery_file');
  });

  it('a master named after its own media opens its own folder and nothing of another media\'s', async () => {
    await warmMembership();
    const writer = await externalMedia(EUROPE_SITE, 'https://elsewhere.example/show/index.m3u8', HLS);
    const token = await folderToken(EUROPE_SITE, writer, `${DELIVERY}/manifests/${writer}.m3u8`);
    for (const path of [`${GATED}.m3u8`, `${GATED}/360p/index.m3u8`, `${GATED}/360p/seg-0.ts`, `${GATED}-x.m3u8`]) {
      await expectError(await api(`/api/play/${token}/${path}`, { ip: BERLIN }), 403, 'playback_invalid');
    }
  });
});
