// An unreadable caller address must not mint an unbound playback URL. With `playback.bind_network` on (the
// default) a playback URL must carry the network it was handed to; a caller whose address cannot be read
// (`cf-connecting-ip: not-an-ip`, none at all) under a policy whose `unknown` rule allows used to get URLs with no
// binding, which replay from anywhere. Now no URL is minted for them: 403 `address_unreadable` (the v2 error body),
// from the media answer (before the media is read), a gated feed's posters and oEmbed's thumbnail alike. With
// `bind_network` off, URLs are unbound by configuration and still handed out.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import worker from '../../worker/index.ts';
import type { FeedResponse, MediaResponse } from '../../worker/contract/public-api.ts';
import { api, callsTo, config, expectError, resetWorld, SITE, stats } from './helpers.ts';
import { playlists } from './upstream-direct.ts';

type Env = import('../../worker/env.ts').Env;

/** The media of SITE bound to `no-proxies`, whose `unknown` rule allows a caller it knows nothing about. */
const MEDIA = Object.entries(config.sites[SITE]!.media ?? {}).find(([, policy]) => policy === 'no-proxies')![0];
/**
 * SITE's trending playlist, bound here to `no-proxies` (the suite's configuration leaves it free: with no tag rule it
 * binds every media of the site): its feed's posters are playback URLs.
 */
let PLAYLIST = '';
/** The configuration with that playlist bound, `extra` merged in. */
function bindingPlaylist(extra: Record<string, unknown> = {}): string {
  const changed = { ...structuredClone(config), ...extra } as typeof config;
  changed.sites[SITE]!.playlists = { ...changed.sites[SITE]!.playlists, [PLAYLIST]: 'no-proxies' };
  return JSON.stringify(changed);
}
const PLAY = /\/api\/play\//;

/** The worker called directly, with exactly these headers (no stand-in address) and these bindings. */
async function direct(path: string, headers: Record<string, string>, overrides: Partial<Env> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://localhost${path}`, { headers }), { ...env, ...overrides } as Env, ctx);
  const body = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, response);
}

const UNREADABLE: Array<[string, Record<string, string>]> = [
  ['cf-connecting-ip: not-an-ip', { 'cf-connecting-ip': 'not-an-ip' }],
  ['cf-connecting-ip: (empty)', { 'cf-connecting-ip': '' }],
  ['cf-connecting-ip: 999.1.1.1', { 'cf-connecting-ip': '999.1.1.1' }],
  ['no cf-connecting-ip at all', {}],
];

async function expectNoUrl(response: Response, what: string): Promise<void> {
  const text = await response.clone().text();
  expect(text, what).not.toMatch(PLAY);
  await expectError(response, 403, 'address_unreadable');
}

beforeAll(async () => {
  PLAYLIST = (await playlists(SITE)).filter((p) => p.playlist_type === 'dynamic')
    .sort((a, b) => a.created.localeCompare(b.created))[1]!.id;
});

beforeEach(async () => {
  await resetWorld();
});

describe('an unreadable caller address mints no unbound playback URL', () => {
  it('the media answer refuses to mint, in production mode: 403 address_unreadable, no playback URL', async () => {
    for (const [what, headers] of UNREADABLE) {
      await expectNoUrl(await direct(`/api/sites/${SITE}/media/${MEDIA}`, headers, { DEV_MODE: 'false' }), what);
    }
  });

  it('the media answer refuses to mint in DEV_MODE too, before the media is read', async () => {
    const before = callsTo(await stats(), '/media/:media/');
    await expectNoUrl(await api(`/api/sites/${SITE}/media/${MEDIA}`, { ip: null, headers: { 'cf-connecting-ip': 'not-an-ip' } }),
      'cf-connecting-ip: not-an-ip');
    // DEV_MODE's stand-in, when it is the unreadable one.
    await expectNoUrl(await api(`/api/sites/${SITE}/media/${MEDIA}`, { ip: 'not-an-ip' }), 'x-reelgate-dev-ip: not-an-ip');
    expect(callsTo(await stats(), '/media/:media/')).toBe(before);
  });

  it('a gated feed mints no unbound poster URL either', async () => {
    await expectNoUrl(await direct(`/api/sites/${SITE}/playlists/${PLAYLIST}`, { 'cf-connecting-ip': 'not-an-ip' },
      { DEV_MODE: 'false', REELGATE_CONFIG: bindingPlaylist() }), 'feed');
    await expectNoUrl(await direct(`/api/sites/${SITE}/playlists/${PLAYLIST}`, { 'x-reelgate-dev-ip': 'not-an-ip' },
      { REELGATE_CONFIG: bindingPlaylist() }), 'feed (DEV_MODE)');
  });

  it('a readable address still gets URLs bound to its network; the policy\'s unknown rule is unchanged for content without URLs', async () => {
    const media = await direct(`/api/sites/${SITE}/media/${MEDIA}`, { 'cf-connecting-ip': '192.0.2.10' }, { DEV_MODE: 'false' });
    expect(media.status).toBe(200);
    // A file (the HLS manifest, listed first, is a playlist: not asked for by range).
    const { sources } = (await media.json()) as MediaResponse;
    const url = sources.find((s) => s.type === 'video/mp4')!.url;
    expect(url).toMatch(PLAY);
    // Bound: the same URL from an unreadable address (whom `no-proxies` allows) is refused as another network's.
    await expectError(await direct(url, { 'cf-connecting-ip': 'not-an-ip' }, { DEV_MODE: 'false' }), 403, 'playback_invalid');
    const replay = await direct(url, { 'cf-connecting-ip': '192.0.2.11', range: 'bytes=0-0' }, { DEV_MODE: 'false' });
    expect(replay.status).toBe(206);
  });

  it('with bind_network off, URLs are unbound by configuration, and handed out', async () => {
    const unbound = bindingPlaylist({ playback: { bind_network: false } });
    const media = await direct(`/api/sites/${SITE}/media/${MEDIA}`, { 'cf-connecting-ip': 'not-an-ip' },
      { DEV_MODE: 'false', REELGATE_CONFIG: unbound });
    expect(media.status, await media.clone().text()).toBe(200);
    expect(((await media.json()) as MediaResponse).sources[0]!.url).toMatch(PLAY);
    const feed = await direct(`/api/sites/${SITE}/playlists/${PLAYLIST}`, { 'cf-connecting-ip': 'not-an-ip' },
      { DEV_MODE: 'false', REELGATE_CONFIG: unbound });
    expect(feed.status).toBe(200);
    expect(((await feed.json()) as FeedResponse).items.some((item) => PLAY.test(item.thumbnail ?? ''))).toBe(true);
  });
});
