// The conformance gate and its checker: the sandbox's answers hold to the platform's published definition
// (schemas.json, extracted by extract-schemas.mjs), and the checker refuses an answer that drops a documented member
// or adds one the definition does not name.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkAnswer, documentedOnly, routeKey } from './conformance.ts';
import { ORIGIN, SECRET } from '../sandbox/helpers.ts';
import { resetSandbox, sandboxCatalog } from '../upstream/sandbox-support.ts';

const PLAYERS = '/v2/sites/{site_id}/players/';
const PLAYER = '/v2/sites/{site_id}/players/{player_id}/';

/** A v2 call through the gate (env.SANDBOX is the gate in the test pool), its status and body text. */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await env.SANDBOX.fetch(`${ORIGIN}${path}`, {
    method,
    headers: { authorization: `Bearer ${SECRET}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  // The gate's own refusal says what did not match: show it rather than a bare status.
  expect(text).not.toContain('nonconformant_answer');
  return { status: response.status, text };
}

async function firstSite(): Promise<string> {
  return (await sandboxCatalog()).sites[0]!.id;
}

beforeEach(async () => {
  await resetSandbox();
});

describe('the sandbox answers players as the definition documents them', () => {
  it('list, show, create, update and delete each answer a conforming body and status', async () => {
    const site = await firstSite();
    const list = await call('GET', `/v2/sites/${site}/players/`);
    expect(list.status).toBe(200);
    expect(checkAnswer('GET', `/v2/sites/${site}/players/`, 200, list.text)).toEqual({ route: `GET ${PLAYERS}`, violations: [] });
    const first = JSON.parse(list.text).players[0];

    const shown = await call('GET', `/v2/sites/${site}/players/${first.id}/`);
    expect(checkAnswer('GET', `/v2/sites/${site}/players/${first.id}/`, shown.status, shown.text).violations).toEqual([]);

    const created = await call('POST', `/v2/sites/${site}/players/`, { metadata: { name: 'Checked', setup_config: { autostart: false } } });
    expect(created.status).toBe(201);
    const id = JSON.parse(created.text).id;
    expect(checkAnswer('POST', `/v2/sites/${site}/players/`, 201, created.text).violations).toEqual([]);

    const patched = await call('PATCH', `/v2/sites/${site}/players/${id}/`, { metadata: { release_channel: 'preview' } });
    expect(patched.status).toBe(200);
    expect(checkAnswer('PATCH', `/v2/sites/${site}/players/${id}/`, 200, patched.text).violations).toEqual([]);

    const deleted = await call('DELETE', `/v2/sites/${site}/players/${id}/`);
    expect(deleted).toEqual({ status: 204, text: '' });
    const gone = await call('GET', `/v2/sites/${site}/players/${id}/`);
    expect(gone.status).toBe(404);
    expect(checkAnswer('GET', `/v2/sites/${site}/players/${id}/`, 404, gone.text).violations).toEqual([]);
  });

  it('refuses a release channel the definition does not list, in the v2 error format', async () => {
    const site = await firstSite();
    const refused = await call('POST', `/v2/sites/${site}/players/`, { metadata: { name: 'Beta', release_channel: 'beta' } });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).errors[0].description).toContain('metadata.release_channel');
  });
});

describe('the checker', () => {
  async function playerAnswer(): Promise<{ path: string; body: Record<string, any> }> {
    const site = await firstSite();
    const list = JSON.parse((await call('GET', `/v2/sites/${site}/players/`)).text);
    const path = `/v2/sites/${site}/players/${list.players[0].id}/`;
    return { path, body: JSON.parse((await call('GET', path)).text) };
  }

  it('fails an answer that leaves out a documented member', async () => {
    const { path, body } = await playerAnswer();
    delete body.metadata.name;
    expect(checkAnswer('GET', path, 200, JSON.stringify(body)).violations.join('\n')).toContain('name');
    const { body: again } = await playerAnswer();
    delete again.version;
    expect(checkAnswer('GET', path, 200, JSON.stringify(again)).violations).not.toEqual([]);
  });

  it('fails an answer that adds a member the definition does not name, at any depth', async () => {
    const { path, body } = await playerAnswer();
    expect(checkAnswer('GET', path, 200, JSON.stringify({ ...body, is_default: true })).violations).not.toEqual([]);
    expect(checkAnswer('GET', path, 200, JSON.stringify({ ...body, metadata: { ...body.metadata, width: 640 } })).violations).not.toEqual([]);
    expect(checkAnswer('GET', path, 200, JSON.stringify({ ...body, relationships: { poster: { id: 'AbCdEfGh', type: 'thumbnail' } } })).violations).not.toEqual([]);
  });

  it('fails a value outside the documented enum or type, and a status the definition does not list', async () => {
    const { path, body } = await playerAnswer();
    expect(checkAnswer('GET', path, 200, JSON.stringify({ ...body, version: '7' })).violations).not.toEqual([]);
    expect(checkAnswer('GET', path, 200, JSON.stringify({ ...body, metadata: { ...body.metadata, custom_params: { n: 1 } } })).violations).not.toEqual([]);
    expect(checkAnswer('GET', path, 201, JSON.stringify(body)).violations).toEqual([expect.stringContaining('status 201')]);
  });

  it('holds error answers to the v2 error body', () => {
    const path = '/v2/sites/AbCdEfGh/players/AbCdEfGh/';
    expect(checkAnswer('GET', path, 404, '{"errors":[{"code":"not_found","description":"No such player."}]}').violations).toEqual([]);
    expect(checkAnswer('GET', path, 404, '[{"code":"not_found","description":"No such player."}]').violations).not.toEqual([]);
    expect(checkAnswer('GET', path, 404, '{"errors":[{"code":"not_found"}]}').violations).not.toEqual([]);
  });

  it('knows which requests are documented routes, with or without the trailing slash', () => {
    expect(routeKey('GET', '/v2/sites/AbCdEfGh/players')).toBe(`GET ${PLAYERS}`);
    expect(routeKey('PATCH', '/v2/sites/AbCdEfGh/players/XyZ12345/')).toBe(`PATCH ${PLAYER}`);
    expect(routeKey('GET', '/videos/a-b.mp4')).toBeNull();
    expect(routeKey('GET', '/ip_lookup/reelgate/192.0.2.10')).toBeNull();
  });

  it('keeps only what the definition names for the documented-shapes upstream', async () => {
    const { body } = await playerAnswer();
    const extra = { ...body, is_default: true, metadata: { ...body.metadata, width: 640 } };
    const kept = documentedOnly(`GET ${PLAYER}`, 200, extra) as Record<string, any>;
    expect(kept).toEqual(body);
    // setup_config keeps every option: the spec says the API stores any member unvalidated.
    expect(kept.metadata.setup_config).toEqual(body.metadata.setup_config);
  });
});

describe('media, their conversions and playlists of every type answer as the definition documents them', () => {
  it('a media, its renditions, originals and text tracks', async () => {
    const site = await firstSite();
    const list = await call('GET', `/v2/sites/${site}/media/?page_length=50`);
    expect(checkAnswer('GET', `/v2/sites/${site}/media/`, 200, list.text).violations).toEqual([]);
    const ready = (JSON.parse(list.text).media as Array<{ id: string; status: string }>).find((m) => m.status === 'ready')!;
    for (const path of [`/v2/sites/${site}/media/${ready.id}/`, `/v2/sites/${site}/media/${ready.id}/media_renditions/`,
      `/v2/sites/${site}/media/${ready.id}/originals/`, `/v2/sites/${site}/media/${ready.id}/text_tracks/`]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(200);
      expect(checkAnswer('GET', path, 200, answer.text).violations, path).toEqual([]);
    }
    const renditions = JSON.parse((await call('GET', `/v2/sites/${site}/media/${ready.id}/media_renditions/`)).text).media_renditions;
    // What the worker types a source from: the format, never a MIME type the platform does not send.
    for (const rendition of renditions) {
      expect(rendition.format).toMatch(/^(mp4|m3u8|m4a)$/);
      expect(rendition).not.toHaveProperty('mime_type');
    }
  });

  it('playlists of each type: the untyped answer names the type, the typed one carries the rules', async () => {
    const site = await firstSite();
    const list = await call('GET', `/v2/sites/${site}/playlists/?page_length=50`);
    expect(checkAnswer('GET', `/v2/sites/${site}/playlists/`, 200, list.text).violations).toEqual([]);
    const playlists = JSON.parse(list.text).playlists as Array<{ id: string; playlist_type: string }>;
    expect(new Set(playlists.map((p) => p.playlist_type))).toEqual(new Set(['manual', 'dynamic', 'search', 'recommendations', 'article_matching']));
    for (const playlist of playlists) {
      const typed = `/v2/sites/${site}/playlists/${playlist.id}/${playlist.playlist_type}_playlist/`;
      const answer = await call('GET', typed);
      expect(checkAnswer('GET', typed, 200, answer.text).violations, typed).toEqual([]);
      expect(JSON.parse(answer.text)).not.toHaveProperty('playlist_type');
    }
    const watchlist = await call('POST', `/v2/sites/${site}/playlists/watchlist_playlist/`, { metadata: { title: 'Later' } });
    expect(checkAnswer('POST', `/v2/sites/${site}/playlists/watchlist_playlist/`, 201, watchlist.text).violations).toEqual([]);
  });

  it('fails a rendition that names a MIME type, and a typed playlist whose rules are not where the definition has them', async () => {
    const site = await firstSite();
    const media = JSON.parse((await call('GET', `/v2/sites/${site}/media/?page_length=50`)).text).media
      .find((m: { status: string }) => m.status === 'ready');
    const path = `/v2/sites/${site}/media/${media.id}/media_renditions/`;
    const renditions = JSON.parse((await call('GET', path)).text);
    renditions.media_renditions[0].mime_type = 'video/mp4';
    expect(checkAnswer('GET', path, 200, JSON.stringify(renditions)).violations).not.toEqual([]);
    const manual = JSON.parse((await call('GET', `/v2/sites/${site}/playlists/?q=playlist_type:manual`)).text).playlists[0];
    const typed = `/v2/sites/${site}/playlists/${manual.id}/manual_playlist/`;
    const body = JSON.parse((await call('GET', typed)).text);
    const moved = { ...body, manual: { media_ids: body.metadata.media_filter.include.values } };
    expect(checkAnswer('GET', typed, 200, JSON.stringify(moved)).violations).not.toEqual([]);
  });
});
