// Server-rendered first paint (worker/render/): what crawlers and visitors without scripts get from a page the worker
// serves. Pages are rendered from the public resources as the visitor gets them, so these run against the real worker and
// sandbox.
import { createExecutionContext, env, SELF } from 'cloudflare:test';
import { countries } from 'countries-list';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FeedResponse, MediaResponse } from '../../worker/contract/public-api.ts';
import { getConfig, type GeoPolicy } from '../../worker/config.ts';
import { CONTINENT_OF } from '../../worker/render/continents.ts';
import { isoDuration } from '../../worker/contract/video-object.ts';
import { RequestContext } from '../../worker/http/context.ts';
import { resourceSource } from '../../worker/render/resource-source.ts';
import { posterUrl, renderPage } from '../../worker/render/page.ts';
import { regionsOf } from '../../worker/render/regions.ts';
import { ISO_ALPHA2_COUNTRIES } from '../../worker/upstream/iso-countries.ts';
import { api, config, DEFAULT_IP, EUROPE_SITE, resetWorld, sandbox, SITE } from './helpers.ts';
import { manualIds, allMedia, isPublic, playlists, typedPlaylist } from './upstream-direct.ts';

const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';

/** A publisher's page with the given body (and head), rendered as `ip` asks for it. */
async function render(body: string, ip: string, head = '<title>t</title>'): Promise<string> {
  const page = new Response(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`,
    { headers: { 'content-type': 'text/html; charset=utf-8' } });
  const request = new Request('http://localhost/news', { headers: { 'x-reelgate-dev-ip': ip } });
  const visit = new RequestContext(request, env, createExecutionContext(), getConfig(env));
  return (await renderPage(page, resourceSource(visit))).text();
}

function jsonLd(html: string): { '@context': string; '@graph': Array<Record<string, unknown>> } | null {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!) : null;
}

/** What the page's head holds once rendered. */
function headOf(html: string): string {
  return html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
}

/** The `<link>`s of a rel in the head, as written. */
function links(html: string, rel: string): string[] {
  return [...headOf(html).matchAll(/<link [^>]*>/g)].map((m) => m[0]).filter((l) => l.includes(`rel="${rel}"`));
}

/** The `poster` attribute of each player, in page order (null: none). */
function posters(html: string): Array<string | null> {
  return [...html.replace(/<!--[\s\S]*?-->/g, '').matchAll(/<reel-player(?=[\s>])[^>]*>/g)].map((m) => /\sposter="([^"]*)"/.exec(m[0])?.[1] ?? null);
}

async function mediaAnswer(site: string, id: string, ip = DEFAULT_IP): Promise<MediaResponse> {
  const response = await api(`/api/sites/${site}/media/${id}`, { ip });
  expect(response.status).toBe(200);
  return response.json();
}

/** Public media of the open site that no policy binds: their posters are the platform's own URLs. */
async function openMedia(count: number): Promise<string[]> {
  const bound = config.sites[SITE]!.media ?? {};
  const ids = (await allMedia(SITE)).filter((m) => isPublic(m) && !bound[m.id]).map((m) => m.id);
  expect(ids.length).toBeGreaterThanOrEqual(count);
  return ids.slice(0, count);
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
    const members = manualIds(await typedPlaylist(SITE, p.id, 'manual')).filter((id) => published.has(id));
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

  it('gives a player its media\'s poster as the element loads it, and the page a preload of the first', async () => {
    const [first, second] = await openMedia(2);
    const html = await render(`<reel-player site="${SITE}" media="${first}"></reel-player>` +
      `<reel-player site="${SITE}" media="${second}" player="RkWDvjNV"></reel-player>`, DEFAULT_IP);
    // The element's mediaUrl: resolved against the worker it asks (here http://localhost, where its bundle came from).
    const expected = await Promise.all([first!, second!].map(async (id) =>
      new URL((await mediaAnswer(SITE, id)).poster!, 'http://localhost/').href));
    expect(expected[0]).toMatch(/^https?:\/\//);
    expect(posters(html)).toEqual(expected);
    expect(links(html, 'preload')).toEqual([`<link rel="preload" as="image" fetchpriority="high" href="${expected[0]}">`]);
    expect(links(html, 'modulepreload')).toEqual([]);
  });

  it('keeps the publisher\'s poster (and preloads it), and preloads nothing the page preloads already', async () => {
    const [id] = await openMedia(1);
    const mine = await render(`<reel-player site="${SITE}" media="${id}" poster="/img/lead.jpg?w=1&amp;h=2"></reel-player>`,
      DEFAULT_IP);
    expect(posters(mine)).toEqual(['/img/lead.jpg?w=1&amp;h=2']);
    expect(links(mine, 'preload')).toEqual(['<link rel="preload" as="image" fetchpriority="high" href="/img/lead.jpg?w=1&amp;h=2">']);

    const already = await render(`<reel-player site="${SITE}" media="${id}" poster="/img/lead.jpg"></reel-player>`,
      DEFAULT_IP, '<title>t</title><link rel="preload" as="image" href="http://localhost/img/lead.jpg">');
    expect(links(already, 'preload')).toEqual(['<link rel="preload" as="image" href="http://localhost/img/lead.jpg">']);
  });

  it('preloads the first player shown: not one in a <template> or a gate, nor one that asks another worker', async () => {
    const [a, b, c, d] = await openMedia(4);
    const html = await render(
      `<template><reel-player site="${SITE}" media="${a}"></reel-player></template>` +
      `<reel-geo-gate policy="europe"><reel-player site="${SITE}" media="${b}"></reel-player></reel-geo-gate>` +
      `<reel-player site="${SITE}" media="${c}" endpoint="https://other-worker.example"></reel-player>` +
      `<reel-player site="${SITE}" media="${d}" endpoint="http://localhost/"></reel-player>`, DEFAULT_IP);
    const [pa, pb, pc, pd] = posters(html);
    expect(pa).toBeTruthy();
    expect(pb).toBeTruthy();
    expect(pc, 'another worker: its answer may differ').toBeNull();
    expect(pd).toBe(new URL((await mediaAnswer(SITE, d!)).poster!, 'http://localhost/').href);
    expect(links(html, 'preload')).toEqual([`<link rel="preload" as="image" fetchpriority="high" href="${pd}">`]);
  });

  it('a denied visitor\'s HTML names nothing of a gated player; an allowed one gets its poster, which opens', async () => {
    const [gated] = (await allMedia(EUROPE_SITE)).filter((m) => isPublic(m));
    const body = `<reel-player site="${EUROPE_SITE}" media="${gated!.id}" player="RkWDvjNV"><p>Fallback</p></reel-player>`;
    const allowed = await mediaAnswer(EUROPE_SITE, gated!.id, BERLIN);
    expect(allowed.poster).toMatch(/^\/api\/play\//);

    const denied = await render(body, NEW_YORK);
    expect(posters(denied)).toEqual([null]);
    expect(links(denied, 'preload')).toEqual([]);
    expect(denied).not.toContain('/api/play/');
    expect(denied).not.toContain(allowed.title);
    expect(denied).not.toContain(allowed.poster!.split('/').pop());
    expect(jsonLd(denied)).toBeNull();

    const html = await render(body, BERLIN);
    const [poster] = posters(html);
    expect(poster).toMatch(/^http:\/\/localhost\/api\/play\/[^/]+\/[^/]+$/);
    expect(links(html, 'preload')).toEqual([`<link rel="preload" as="image" fetchpriority="high" href="${poster}">`]);
    // The browser fetches the very URL the element will use (a media element sends no headers: the address is the
    // page's own), and it opens for this visitor.
    const image = await SELF.fetch(poster!, { headers: { 'x-reelgate-dev-ip': BERLIN } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);
    await image.body?.cancel();
  });

  it('preloads the worker\'s bundle when the page loads it from its body, as the script asks for it', async () => {
    const pinned = '<script type="module" src="/embed/reelgate.0123456789ab.js" integrity="sha384-abc" crossorigin="anonymous"></script>';
    const late = await render(`<p>Story</p>${pinned}`, DEFAULT_IP);
    expect(links(late, 'modulepreload')).toEqual(
      ['<link rel="modulepreload" href="/embed/reelgate.0123456789ab.js" integrity="sha384-abc" crossorigin="anonymous">']);
    for (const [body, head] of [
      ['<p>Story</p>', `<title>t</title>${pinned}`],
      [pinned, '<title>t</title><link rel="modulepreload" href="http://localhost/embed/reelgate.0123456789ab.js">'],
      ['<script type="module" src="https://cdn.example/embed/reelgate.js"></script>', '<title>t</title>'],
      ['<script type="module" src="/app.js"></script>', '<title>t</title>'],
    ]) {
      const html = await render(body!, DEFAULT_IP, head);
      expect(headOf(html).match(/<link rel="modulepreload"/g)?.length ?? 0, `${head} … ${body}`)
        .toBe(head!.includes('modulepreload') ? 1 : 0);
    }
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
    expect(links(html, 'stylesheet')).toContain('<link rel="stylesheet" href="/embed/reelgate.css">');
    // Its lead video is bound (in this suite's configuration) to a playlist only Great Britain may see: Berlin's page
    // names no poster for it. The first player shown with one is the signing site's, further down: its poster (a
    // signed platform URL) is the one preloaded.
    const [lead, signing] = posters(html);
    expect(lead).toBeNull();
    expect(signing).toMatch(/^http:\/\/sandbox\.test\/v2\/media\/[A-Za-z0-9]+\/poster\.jpg\?width=720&amp;token=/);
    expect(links(html, 'preload')).toEqual([`<link rel="preload" as="image" fetchpriority="high" href="${signing}">`]);
    // What is in it depends on who asked (the gated shelf): no shared cache may keep it.
    expect(response.headers.get('cache-control')).toBe('private, no-store');
  });

  it('a visitor who may see the demo\'s lead video gets its poster on the player and preloaded (npm run build first)', async () => {
    const response = await SELF.fetch('http://localhost/', { headers: { 'x-reelgate-dev-ip': DEFAULT_IP } });
    const html = await response.text();
    const [poster] = posters(html);
    expect(poster).toMatch(/^https?:\/\//);
    expect(links(html, 'preload')).toEqual([`<link rel="preload" as="image" fetchpriority="high" href="${poster}">`]);
    // Its bundle is in the head: nothing to preload.
    expect(links(html, 'modulepreload')).toEqual([]);
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

  it('resolves a poster as the element\'s mediaUrl does, and names none for an element asking another worker', () => {
    const page = new URL('https://news.example/world/story.html');
    const play = '/api/play/tok/poster.jpg';
    expect(posterUrl(play, null, page)).toBe('https://news.example/api/play/tok/poster.jpg');
    expect(posterUrl(play, ' https://news.example/// ', page)).toBe('https://news.example/api/play/tok/poster.jpg');
    expect(posterUrl('https://cdn.example/p.jpg?a=1&b=2', null, page)).toBe('https://cdn.example/p.jpg?a=1&b=2');
    expect(posterUrl(play, 'https://other.example', page)).toBeNull();
    expect(posterUrl(null, null, page)).toBeNull();
  });

  it('writes ISO 8601 durations', () => {
    expect([isoDuration(0), isoDuration(59.6), isoDuration(90), isoDuration(3600), isoDuration(3725)])
      .toEqual(['PT0S', 'PT1M', 'PT1M30S', 'PT1H', 'PT1H2M5S']);
  });
});
