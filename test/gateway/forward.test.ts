// /v2 for a team's servers: every route of the spec forwarded with its method and body under the platform secret
// (never the caller's key), the upstream's own status and body back, and the refusals that keep it from being an open
// proxy: keys and scopes, methods, paths, query parameters and bodies.
import { env } from 'cloudflare:test';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Media, MediaRenditionList, Player, TextTrack, TextTrackList, Thumbnail, TypedPlaylist } from '../../worker/contract/v2-types.ts';
import {
  catalog, createKey, direct, expectError, expectNoSecret, gateway, platformAuthorizationSha256, resetGateway,
  send, SITE, EUROPE_SITE, stats, type CreatedKey,
} from './helpers.ts';

beforeEach(() => resetGateway());

const V2 = `/v2/sites/${SITE}`;

interface Fixture {
  media: string;
  otherMedia: string;
  rendition: string;
  track: string;
  /** A text track uploaded as a draft (`auto_publish: false`), to publish. */
  draft: string;
  thumbnail: string;
  manual: string;
  dynamic: string;
  player: string;
}

/** Ids of the seeded catalog (the sandbox re-seeds the same ids on every reset). */
async function fixture(): Promise<Fixture> {
  const site = (await catalog()).sites.find((s: { id: string }) => s.id === SITE);
  const [media, otherMedia] = site.media.with_subtitles.length > 1 ? site.media.with_subtitles : site.media.published;
  const renditions = (await direct<MediaRenditionList>(`${V2}/media/${media}/media_renditions/`)).body;
  const tracks = (await direct<TextTrackList>(`${V2}/media/${media}/text_tracks/`)).body;
  // No route lists a media's thumbnails: the fixture makes one (a frame), before any case counts upstream calls.
  const made = await env.SANDBOX.fetch(`http://sandbox.test${V2}/thumbnails/`, {
    method: 'POST', headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ relationships: { media: [{ id: media }] }, upload: { source_type: 'thumbstrip_image', source_media_id: media, thumbstrip_index: 1 } }),
  });
  expect(made.status).toBe(201);
  const thumbnail = await made.json() as Thumbnail;
  const drafted = await env.SANDBOX.fetch(`http://sandbox.test${V2}/media/${media}/text_tracks/`, {
    method: 'POST', headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ metadata: { srclang: 'sv', label: 'Svenska' },
      upload: { method: 'fetch', download_url: 'https://example.com/sv.vtt', auto_publish: false } }),
  });
  expect(drafted.status).toBe(201);
  const draft = (await drafted.json() as TextTrack).id;
  return {
    media, otherMedia,
    rendition: renditions.media_renditions[0]!.id,
    track: tracks.text_tracks[0]!.id,
    draft,
    thumbnail: thumbnail.id,
    manual: site.playlists.manual[0], dynamic: site.playlists.dynamic[0], player: site.players[0],
  };
}

interface RouteCase {
  method: string;
  path: (f: Fixture) => string;
  /** The sandbox's label for the route (its stats key). */
  label: string;
  body?: (f: Fixture) => unknown;
  /** What the upstream now holds, read directly. */
  verify?: (f: Fixture, answer: any) => Promise<void>;
}

const P = '/v2/sites/:site';
const CASES: RouteCase[] = [
  { method: 'POST', path: () => `${V2}/media/`, label: `POST ${P}/media/`,
    body: () => ({ metadata: { title: 'Gateway upload', tags: ['gw'] }, upload: { method: 'external', source_url: 'https://videos.example/a.mp4', mime_type: 'video/mp4' } }),
    verify: async (_f, answer) => {
      expect((await direct<Media>(`${V2}/media/${answer.id}/`)).body.metadata.title).toBe('Gateway upload');
    } },
  { method: 'GET', path: () => `${V2}/media/?page_length=3&sort=title:asc`, label: `GET ${P}/media/`,
    verify: async (_f, answer) => {
      expect(answer).toEqual((await direct(`${V2}/media/?page_length=3&sort=title:asc`)).body);
    } },
  { method: 'GET', path: (f) => `${V2}/media/${f.media}/`, label: `GET ${P}/media/:media/`,
    verify: async (f, answer) => expect(answer).toEqual((await direct(`${V2}/media/${f.media}/`)).body) },
  { method: 'PATCH', path: (f) => `${V2}/media/${f.media}/`, label: `PATCH ${P}/media/:media/`,
    body: () => ({ metadata: { title: 'Retitled by the gateway' } }),
    verify: async (f) => {
      expect((await direct<Media>(`${V2}/media/${f.media}/`)).body.metadata.title).toBe('Retitled by the gateway');
    } },
  { method: 'DELETE', path: (f) => `${V2}/media/${f.otherMedia}/`, label: `DELETE ${P}/media/:media/`,
    verify: async (f) => expect((await direct(`${V2}/media/${f.otherMedia}/`)).status).toBe(404) },
  { method: 'POST', path: (f) => `${V2}/media/${f.media}/media_renditions/`, label: `POST ${P}/media/:media/media_renditions/`,
    body: () => ({ metadata: { name: 'gw-720', width: 1280, height: 720, mime_type: 'video/mp4' } }),
    verify: async (f, answer) => {
      expect((await direct(`${V2}/media/${f.media}/media_renditions/${answer.id}/`)).status).toBe(200);
    } },
  { method: 'GET', path: (f) => `${V2}/media/${f.media}/media_renditions/`, label: `GET ${P}/media/:media/media_renditions/` },
  { method: 'GET', path: (f) => `${V2}/media/${f.media}/media_renditions/${f.rendition}/`,
    label: `GET ${P}/media/:media/media_renditions/:rendition/` },
  { method: 'DELETE', path: (f) => `${V2}/media/${f.media}/media_renditions/${f.rendition}/`,
    label: `DELETE ${P}/media/:media/media_renditions/:rendition/`,
    verify: async (f) => expect((await direct(`${V2}/media/${f.media}/media_renditions/${f.rendition}/`)).status).toBe(404) },
  { method: 'GET', path: (f) => `${V2}/media/${f.media}/originals/`, label: `GET ${P}/media/:media/originals/` },
  { method: 'POST', path: (f) => `${V2}/media/${f.media}/text_tracks/`, label: `POST ${P}/media/:media/text_tracks/`,
    body: () => ({ metadata: { label: 'Deutsch', srclang: 'de', kind: 'subtitles' } }),
    verify: async (f, answer) => {
      expect((await direct<any>(`${V2}/media/${f.media}/text_tracks/${answer.id}/`)).body.metadata.srclang).toBe('de');
    } },
  { method: 'GET', path: (f) => `${V2}/media/${f.media}/text_tracks/`, label: `GET ${P}/media/:media/text_tracks/` },
  { method: 'GET', path: (f) => `${V2}/media/${f.media}/text_tracks/${f.track}/`, label: `GET ${P}/media/:media/text_tracks/:track/` },
  { method: 'PATCH', path: (f) => `${V2}/media/${f.media}/text_tracks/${f.track}/`, label: `PATCH ${P}/media/:media/text_tracks/:track/`,
    body: () => ({ metadata: { label: 'Relabelled' } }),
    verify: async (f) => {
      expect((await direct<any>(`${V2}/media/${f.media}/text_tracks/${f.track}/`)).body.metadata.label).toBe('Relabelled');
    } },
  { method: 'PUT', path: (f) => `${V2}/media/${f.media}/text_tracks/${f.draft}/publish/`, label: `PUT ${P}/media/:media/text_tracks/:track/publish/`,
    verify: async (f, answer) => {
      expect(answer).toBeNull();
      expect((await direct<TextTrack>(`${V2}/media/${f.media}/text_tracks/${f.draft}/`)).body.status).toBe('ready');
    } },
  { method: 'PUT', path: (f) => `${V2}/media/${f.media}/text_tracks/${f.track}/unpublish/`, label: `PUT ${P}/media/:media/text_tracks/:track/unpublish/`,
    verify: async (f, answer) => {
      expect(answer).toBeNull();
      expect((await direct<TextTrack>(`${V2}/media/${f.media}/text_tracks/${f.track}/`)).body.status).toBe('draft');
    } },
  { method: 'DELETE', path: (f) => `${V2}/media/${f.media}/text_tracks/${f.track}/`, label: `DELETE ${P}/media/:media/text_tracks/:track/`,
    verify: async (f) => expect((await direct(`${V2}/media/${f.media}/text_tracks/${f.track}/`)).status).toBe(404) },
  { method: 'POST', path: () => `${V2}/thumbnails/`, label: `POST ${P}/thumbnails/`,
    body: (f) => ({ relationships: { media: [{ id: f.media }] }, upload: { source_type: 'thumbstrip_image', source_media_id: f.media, video_position: 3 } }),
    verify: async (_f, answer) => expect((await direct(`${V2}/thumbnails/${answer.id}`)).status).toBe(200) },
  { method: 'GET', path: (f) => `${V2}/thumbnails/${f.thumbnail}`, label: `GET ${P}/thumbnails/:thumbnail`,
    verify: async (f, answer) => expect(answer).toEqual((await direct(`${V2}/thumbnails/${f.thumbnail}`)).body) },
  { method: 'PATCH', path: (f) => `${V2}/thumbnails/${f.thumbnail}`, label: `PATCH ${P}/thumbnails/:thumbnail`,
    body: () => ({ relationships: { media: [{ is_poster: true }] } }),
    verify: async (f) => {
      // The poster choice shows on the delivery side: the media's poster image is this thumbnail's.
      const image = async (path: string) => (await env.SANDBOX.fetch(`http://sandbox.test${path}`)).text();
      expect(await image(`/v2/media/${f.media}/poster.jpg?width=720`)).toBe(await image(`/v2/media/${f.media}/thumbnails/${f.thumbnail}.jpg?width=720`));
    } },
  { method: 'POST', path: () => `${V2}/playlists/manual_playlist/`, label: `POST ${P}/playlists/:playlist_type/`,
    body: (f) => ({ metadata: { title: 'Gateway picks', media_filter: { include: { match: 'any', values: [f.media] } } } }),
    verify: async (f, answer) => {
      const made = (await direct<TypedPlaylist<'manual'>>(`${V2}/playlists/${answer.id}/manual_playlist/`)).body;
      expect(made.metadata).toMatchObject({ title: 'Gateway picks', media_filter: { include: { match: 'any', values: [f.media] } } });
    } },
  { method: 'GET', path: () => `${V2}/playlists/?page_length=5`, label: `GET ${P}/playlists/` },
  { method: 'GET', path: (f) => `${V2}/playlists/${f.manual}/`, label: `GET ${P}/playlists/:playlist/` },
  { method: 'GET', path: (f) => `${V2}/playlists/${f.manual}/manual_playlist/`, label: `GET ${P}/playlists/:playlist/:playlist_type/` },
  { method: 'PATCH', path: (f) => `${V2}/playlists/${f.manual}/manual_playlist/`, label: `PATCH ${P}/playlists/:playlist/:playlist_type/`,
    body: (f) => ({ metadata: { title: 'Edited picks', media_filter: { include: { values: [f.otherMedia, f.media] } } } }),
    verify: async (f) => {
      const now = (await direct<TypedPlaylist<'manual'>>(`${V2}/playlists/${f.manual}/manual_playlist/`)).body;
      expect(now.metadata.title).toBe('Edited picks');
      expect(now.metadata.media_filter.include.values).toEqual([f.otherMedia, f.media]);
    } },
  { method: 'DELETE', path: (f) => `${V2}/playlists/${f.manual}/`, label: `DELETE ${P}/playlists/:playlist/`,
    verify: async (f) => expect((await direct(`${V2}/playlists/${f.manual}/`)).status).toBe(404) },
  { method: 'DELETE', path: (f) => `${V2}/playlists/${f.dynamic}/dynamic_playlist/`, label: `DELETE ${P}/playlists/:playlist/:playlist_type/`,
    verify: async (f) => expect((await direct(`${V2}/playlists/${f.dynamic}/`)).status).toBe(404) },
  { method: 'POST', path: () => `${V2}/players/`, label: `POST ${P}/players/`,
    body: () => ({ metadata: { name: 'Gateway player', setup_config: { autostart: false } } }),
    verify: async (_f, answer) => {
      expect((await direct<Player>(`${V2}/players/${answer.id}/`)).body.metadata.name).toBe('Gateway player');
    } },
  { method: 'GET', path: () => `${V2}/players/`, label: `GET ${P}/players/` },
  { method: 'GET', path: (f) => `${V2}/players/${f.player}/`, label: `GET ${P}/players/:player/` },
  { method: 'PATCH', path: (f) => `${V2}/players/${f.player}/`, label: `PATCH ${P}/players/:player/`,
    body: () => ({ metadata: { release_channel: 'preview' } }),
    verify: async (f) => expect((await direct<Player>(`${V2}/players/${f.player}/`)).body.metadata.release_channel).toBe('preview') },
  { method: 'DELETE', path: (f) => `${V2}/players/${f.player}/`, label: `DELETE ${P}/players/:player/`,
    verify: async (f) => expect((await direct(`${V2}/players/${f.player}/`)).status).toBe(404) },
  { method: 'PUT', path: () => `${V2}/remove_tag/`, label: `PUT ${P}/remove_tag/`, body: () => ({ tag: 'news' }),
    verify: async (_f, answer) => {
      // Accepted (202) with no body, as the platform answers it; the tag is gone.
      expect(answer).toBeNull();
      expect((await direct<any>(`${V2}/media/?q=tags:news`)).body.total).toBe(0);
    } },
  { method: 'PUT', path: () => `${V2}/rename_tag/`, label: `PUT ${P}/rename_tag/`,
    body: () => ({ original_tag: 'football', new_tag: 'soccer' }),
    verify: async (_f, answer) => {
      expect(answer).toBeNull();
      expect((await direct<any>(`${V2}/media/?q=tags:football`)).body.total).toBe(0);
      expect((await direct<any>(`${V2}/media/?q=tags:soccer`)).body.total).toBeGreaterThan(0);
    } },
  { method: 'PUT', path: () => `${V2}/query_usage/`, label: `PUT ${P}/query_usage/`,
    body: () => ({ metadata: { start_date: '2026-01-01', end_date: '2026-01-31' } }),
    verify: async (_f, answer) => expect(answer).toMatchObject({ site_id: SITE, start_date: '2026-01-01' }) },
];

describe('every route of the spec', () => {
  let secretHash: string;
  beforeAll(async () => {
    secretHash = await platformAuthorizationSha256();
  });

  it('the table covers the 31 routes (33 paths with the "or" forms) and a text track\'s publish and unpublish', () => {
    expect(new Set(CASES.map((c) => c.label)).size).toBe(35);
  });

  for (const c of CASES) {
    it(`${c.label}: forwarded with its method and body under the platform secret`, async () => {
      const f = await fixture();
      const key = await createKey(['read', 'write']);
      const before = await stats();
      const response = await send(c.path(f), c.method, key, c.body?.(f));
      const text = await response.text();
      expect(response.status, text).toBeGreaterThanOrEqual(200);
      expect(response.status, text).toBeLessThan(300);
      const after = await stats();
      // Exactly one upstream call, on this route and nothing else.
      expect(after.calls[c.label] ?? 0).toBe((before.calls[c.label] ?? 0) + 1);
      expect(after.total).toBe(before.total + 1);
      expect(after.last_authorization_sha256).toBe(secretHash);
      expect(after.last_authorization_sha256).not.toBe(null);
      expect(Number(response.headers.get('svc-request-limit'))).toBeGreaterThan(0);
      expect(response.headers.get('svc-request-remaining')).toMatch(/^\d+$/);
      expectNoSecret(response, text);
      expect(text).not.toContain(key.token);
      await c.verify?.(f, text ? JSON.parse(text) : null);
    });
  }

  it('the upstream\'s own error status and body come back as they are', async () => {
    const key = await createKey(['read', 'write']);
    const missing = await gateway(`${V2}/media/zzzzzzzz/`, { headers: key.auth });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual((await direct(`${V2}/media/zzzzzzzz/`)).body);
    const invalid = await send(`${V2}/players/`, 'POST', key, { metadata: { name: '' } });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ errors: [{ code: expect.any(String), description: expect.any(String) }] });
  });
});

describe('keys and scopes', () => {
  let reader: CreatedKey;
  beforeEach(async () => {
    reader = await createKey(['read'], [SITE]);
  });

  it('no key, an unknown key or a malformed header: 401 without an upstream call', async () => {
    const tries: Array<Record<string, string>> = [{}, { authorization: 'Bearer rg_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      { authorization: `Basic ${reader.token}` }, { authorization: 'Bearer sandbox-api-secret-not-for-production' }];
    for (const headers of tries) {
      const response = await gateway(`${V2}/players/`, { headers });
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
      await expectError(response, 401, 'unauthorized');
    }
    expect((await stats()).total).toBe(0);
  });

  it('a read key cannot write, a write key cannot read, and neither leaves its sites: 403', async () => {
    const writer = await createKey(['write'], [SITE]);
    await expectError(await send(`${V2}/players/`, 'POST', reader, { metadata: { name: 'x' } }), 403, 'forbidden');
    await expectError(await gateway(`${V2}/players/`, { headers: writer.auth }), 403, 'forbidden');
    const outside = await gateway(`/v2/sites/${EUROPE_SITE}/players/`, { headers: reader.auth });
    // A known caller learns its share even when refused.
    expect(outside.headers.get('svc-request-remaining')).toMatch(/^\d+$/);
    await expectError(outside, 403, 'forbidden');
    await expectError(await send(`/v2/sites/${EUROPE_SITE}/players/`, 'POST', writer, { metadata: { name: 'x' } }), 403, 'forbidden');
    expect((await stats()).total).toBe(0);
    expect((await gateway(`${V2}/players/`, { headers: reader.auth })).status).toBe(200);
  });

  it('query_usage is a read: a read key may ask, a write-only key may not', async () => {
    const writer = await createKey(['write']);
    const body = { metadata: { start_date: '2026-01-01', end_date: '2026-01-02' } };
    expect((await send(`${V2}/query_usage/`, 'PUT', reader, body)).status).toBe(200);
    await expectError(await send(`${V2}/query_usage/`, 'PUT', writer, body), 403, 'forbidden');
  });
});

describe('what the gateway refuses before any upstream call', () => {
  let key: CreatedKey;
  beforeEach(async () => {
    key = await createKey(['read', 'write']);
  });

  it('a method the route does not have: 405 with Allow', async () => {
    const response = await send(`${V2}/media/`, 'PUT', key, { metadata: {} });
    expect(response.headers.get('allow')).toBe('GET, POST');
    await expectError(response, 405, 'method_not_allowed');
    const head = await gateway(`${V2}/players/`, { method: 'HEAD', headers: key.auth });
    expect(head.status).toBe(405);
  });

  it('paths outside the table or not plain: 404 / 400', async () => {
    await expectError(await gateway(`${V2}/tags/`, { headers: key.auth }), 404, 'not_found');
    await expectError(await gateway('/v2/accounts/usage/', { headers: key.auth }), 404, 'not_found');
    // (`..` and `%2e%2e` are resolved by URL parsing before a request reaches any worker; the raw-path check for
    // them is covered in pure.test.ts.)
    for (const path of [`${V2}/media%2Fx/`, `${V2}/media/%2Fx/`, `${V2}//media/`, `/v2/sites/${'x'.repeat(600)}/media/`,
      `${V2}/media/x%00/`, `${V2}/media/x%20y/`, `/v2/sites/a$b/media/`]) {
      const response = await gateway(path, { headers: key.auth });
      expect([400, 404], path).toContain(response.status);
      await expectError(response, response.status, response.status === 400 ? 'invalid_request' : 'not_found');
    }
    expect((await stats()).total).toBe(0);
  });

  it('an absolute URL in the path never becomes the upstream address', async () => {
    const response = await gateway('/v2/sites/http://evil.example/media/', { headers: key.auth });
    expect(response.status).toBe(400);
    expect((await stats()).total).toBe(0);
  });

  it('query parameters outside the allowlist, and bodies that are not the spec\'s: 400/413/415', async () => {
    // Query refusals carry the codes the platform (the sandbox) gives for the same query.
    await expectError(await gateway(`${V2}/media/?api_key=x`, { headers: key.auth }), 400, 'invalid_parameter');
    await expectError(await gateway(`${V2}/players/?page=0`, { headers: key.auth }), 400, 'invalid_page');
    await expectError(await send(`${V2}/players/`, 'POST', key, { secret: {} }), 400, 'invalid_request');
    await expectError(await send(`${V2}/players/`, 'POST', key, [1, 2]), 400, 'invalid_request');
    const plain = await gateway(`${V2}/players/`, { method: 'POST', headers: { ...key.auth, 'content-type': 'text/plain' }, body: '{"metadata":{}}' });
    await expectError(plain, 415, 'unsupported_media_type');
    const big = await send(`${V2}/players/`, 'POST', key, { metadata: { name: 'x', setup_config: { blob: 'x'.repeat(1_100_000) } } });
    await expectError(big, 413, 'payload_too_large');
    await expectError(await send(`${V2}/players/abc/`, 'DELETE', key, { metadata: {} }), 400, 'invalid_request');
    // A tag action takes its members at the top level, as the platform's definition has them; the envelope is refused.
    await expectError(await send(`${V2}/remove_tag/`, 'PUT', key, { metadata: { tag: 'news' } }), 400, 'invalid_request');
    await expectError(await send(`${V2}/rename_tag/`, 'PUT', key, { original_tag: 'news' }), 400, 'invalid_request');
    expect((await stats()).total).toBe(0);
  });

  it('the caller\'s own headers are not forwarded: the upstream sees only the platform secret', async () => {
    const response = await gateway(`${V2}/players/`, { headers: { ...key.auth, cookie: 'session=1', 'x-forwarded-for': '1.2.3.4' } });
    expect(response.status).toBe(200);
    expect((await stats()).last_authorization_sha256).toBe(await platformAuthorizationSha256());
    expect(response.headers.get('set-cookie')).toBe(null);
  });
});
