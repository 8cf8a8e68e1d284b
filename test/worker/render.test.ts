// Server-rendered first paint (worker/render/): what crawlers and visitors without scripts get from a page the worker
// serves. Pages are rendered through the worker's own router as the visitor, so these run against the real worker and
// sandbox.
import { createExecutionContext, env, SELF } from 'cloudflare:test';
import { countries } from 'countries-list';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FeedResponse } from '../../worker/contract/public-api.ts';
import { getConfig, type GeoPolicy } from '../../worker/config.ts';
import { CONTINENT_OF } from '../../worker/render/continents.ts';
import { isoDuration } from '../../worker/render/json-ld.ts';
import { apiSource } from '../../worker/render/api-source.ts';
import { renderPage } from '../../worker/render/page.ts';
import { regionsOf } from '../../worker/render/regions.ts';
import { ISO_ALPHA2_COUNTRIES } from '../../worker/upstream/iso-countries.ts';
import { api, config, DEFAULT_IP, EUROPE_SITE, resetWorld, sandbox, SITE } from './helpers.ts';
import { allMedia, isPublic, playlists, typedPlaylist } from './upstream-direct.ts';

const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';

/** A publisher's page with the given body, rendered as `ip` asks for it. */
async function render(body: string, ip: string): Promise<string> {
  const page = new Response(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`,
    { headers: { 'content-type': 'text/html; charset=utf-8' } });
  const request = new Request('http://localhost/news', { headers: { 'x-reelgate-dev-ip': ip } });
  const visit = { request, env, ctx: createExecutionContext(), config: getConfig(env) };
  return (await renderPage(page, apiSource(visit, (r) => SELF.fetch(r)))).text();
}

function jsonLd(html: string): { '@context': string; '@graph': Array<Record<string, unknown>> } | null {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!) : null;
}

async function feed(site: string, playlist: string, pageLength: number, ip = DEFAULT_IP): Promise<FeedResponse> {
  const response = await api(`/api/sites/${site}/playlists/${playlist}?page=1&page_length=${pageLength}`, { ip });
  expect(response.status).toBe(200);
  return response.json();
}

/** A manual playlist no policy binds and its public members, read from the sandbox (the worker's caches stay cold). */
async function openPlaylist(): Promise<{ id: string; members: string[] }> {
  const bound = new Set(Object.keys(config.sites[SITE]!.playlists ?? {}));
  const published = new Set((await allMedia(SITE)).filter((m) => isPublic(m)).map((m) => m.id));
  for (const p of await playlists(SITE)) {
    if (p.playlist_type !== 'manual' || bound.has(p.id)) continue;
    const members = (await typedPlaylist(SITE, p.id, 'manual')).manual!.media_ids.filter((id) => published.has(id));
    if (members.length >= 2) return { id: p.id, members };
  }
  throw new Error('no open manual playlist with public members in the seed');
}

beforeEach(async () => {
  await resetWorld();
});

describe('server-rendered playlists', () => {
  it('renders a shelf as linked titles with a VideoObject each, as the visitor gets the feed', async () => {
    const { id: playlist } = await openPlaylist();
    const html = await render(`<reel-playlist site="${SITE}" playlist="${playlist}" page-size="3"><p>Fallback</p></reel-playlist>`, DEFAULT_IP);
    const expected = await feed(SITE, playlist, 3);
    expect(html).toContain('data-reelgate-rendered="playlist"');
    expect(html).toContain('<p>Fallback</p>');
    for (const item of expected.items) {
      const href = item.permalink ?? `http://localhost/embed/${SITE}/media/${item.id}`;
      expect(html).toContain(`<a href="${href.replace(/&/g, '&amp;')}">`);
    }
    const ld = jsonLd(html);
    expect(ld?.['@context']).toBe('https://schema.org');
    expect(ld?.['@graph'].map((v) => v.name)).toEqual(expected.items.map((item) => item.title));
    for (const [i, video] of ld!['@graph'].entries()) {
      const item = expected.items[i]!;
      expect(video).toMatchObject({ '@type': 'VideoObject', embedUrl: `http://localhost/embed/${SITE}/media/${item.id}` });
      if (item.publish_start_date) expect(video.uploadDate).toBe(item.publish_start_date);
      if (item.duration !== null) expect(video.duration).toMatch(/^PT(\d+H)?(\d+M)?(\d+S)?$/);
      // Content under no policy is allowed everywhere: no regions named.
      expect(video.regionsAllowed).toBeUndefined();
    }
  });

  it('a denied visitor\'s HTML names nothing gated; an allowed one gets it with the regions allowed', async () => {
    const [gated] = (await playlists(EUROPE_SITE)).filter((p) => p.playlist_type === 'manual');
    const body = `<reel-playlist site="${EUROPE_SITE}" playlist="${gated!.id}" page-size="5"><p>Fallback</p></reel-playlist>`;
    const allowed = await feed(EUROPE_SITE, gated!.id, 5, BERLIN);
    expect(allowed.items.length).toBeGreaterThan(0);

    const denied = await render(body, NEW_YORK);
    expect(denied).not.toContain('data-reelgate-rendered');
    expect(jsonLd(denied)).toBeNull();
    for (const item of allowed.items) expect(denied).not.toContain(item.title);
    expect(denied).not.toContain(allowed.playlist.title);

    const html = await render(body, BERLIN);
    const ld = jsonLd(html);
    expect(ld?.['@graph'].length).toBe(allowed.items.length);
    const regions = String(ld!['@graph'][0]!.regionsAllowed).split(' ');
    expect(regions).toEqual(expect.arrayContaining(['DE', 'FR', 'GB']));
    expect(regions).not.toContain('US');
  });

  it('escapes what it interpolates: a title cannot end the JSON-LD block or add markup', async () => {
    const { id: playlist, members } = await openPlaylist();
    const title = '</script><script>alert(1)</script> & "quotes"';
    const patched = await sandbox(`/v2/sites/${SITE}/media/${members[0]}/`, {
      method: 'PATCH', headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { title } }),
    });
    expect(patched.status).toBe(200);
    await patched.body?.cancel();
    const html = await render(`<reel-playlist site="${SITE}" playlist="${playlist}" page-size="50"></reel-playlist>`, DEFAULT_IP);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
    expect(jsonLd(html)?.['@graph'].map((v) => v.name)).toContain(title);
  });
});

describe('server-rendered players', () => {
  it('a player naming its media renders its title, linked, and describes it', async () => {
    const { id: playlist } = await openPlaylist();
    const [item] = (await feed(SITE, playlist, 1)).items;
    const html = await render(`<reel-player site="${SITE}" media="${item!.id}"></reel-player>`, DEFAULT_IP);
    expect(html).toContain('data-reelgate-rendered="player"');
    expect(jsonLd(html)?.['@graph'].map((v) => v.name)).toEqual([item!.title]);
  });

  it('leaves an element alone when its content cannot be had (unknown media, malformed ids)', async () => {
    const html = await render(`<reel-player site="${SITE}" media="AAAAAAAA"><p>Mine</p></reel-player>` +
      `<reel-playlist site="../x" playlist="y"></reel-playlist>`, DEFAULT_IP);
    expect(html).not.toContain('data-reelgate-rendered');
    expect(html).toContain('<p>Mine</p>');
    expect(jsonLd(html)).toBeNull();
  });
});

describe('the page the worker serves', () => {
  it('the demo page arrives with its shelf rendered and its JSON-LD (npm run build first)', async () => {
    const response = await SELF.fetch('http://localhost/', { headers: { 'x-reelgate-dev-ip': BERLIN } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('data-reelgate-rendered="playlist"');
    expect(jsonLd(html)?.['@graph'].length).toBeGreaterThan(0);
    // What is in it depends on who asked (the gated shelf): no shared cache may keep it.
    expect(response.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('regions and durations', () => {
  const policy = (p: Partial<GeoPolicy>): GeoPolicy => ({
    name: 'p', allowCountries: null, denyCountries: new Set(), allowContinents: null, denyContinents: new Set(),
    denyProxyIdentifications: new Set(), denyProxyTypes: new Set(), unknown: 'deny', ...p,
  });

  it('names the countries every policy allows, or the few none does', () => {
    expect(regionsOf([])).toBeNull();
    expect(regionsOf([policy({ denyProxyTypes: new Set(['hosting']) })])).toBeNull();
    expect(regionsOf([policy({ allowCountries: new Set(['GB', 'IE']) })])).toEqual({ allowed: ['GB', 'IE'] });
    expect(regionsOf([policy({ denyCountries: new Set(['US']) })])).toEqual({ ineligible: ['US'] });
    const europeButFrance = regionsOf([policy({ allowContinents: new Set(['EU']) }), policy({ denyCountries: new Set(['FR']) })]);
    expect(europeButFrance).toMatchObject({ allowed: expect.arrayContaining(['DE', 'GB', 'IE']) });
    expect((europeButFrance as { allowed: string[] }).allowed).not.toContain('FR');
  });

  it('knows the continent of every country, as countries-list gives it', () => {
    for (const code of ISO_ALPHA2_COUNTRIES) {
      const known = (countries as Record<string, { continent: string }>)[code]?.continent ?? (code === 'XK' ? 'EU' : undefined);
      expect(CONTINENT_OF.get(code), code).toBe(known);
    }
  });

  it('writes ISO 8601 durations', () => {
    expect([isoDuration(0), isoDuration(59.6), isoDuration(90), isoDuration(3600), isoDuration(3725)])
      .toEqual(['PT0S', 'PT1M', 'PT1M30S', 'PT1H', 'PT1H2M5S']);
  });
});
