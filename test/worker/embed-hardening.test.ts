// What an attacker found in the embeds, the rendered links and the URLs the worker writes into answers others may
// keep: a visitor's geo decision readable through the embed pages, `javascript:` links rendered, the Host header
// reflected into cacheable URLs. Each describe is named after the hole it keeps shut; every test here failed on the
// code before the fix. The Chromium half of the first (the resize messages of a refused frame against an allowed
// one's) and of the second (the elements' properties) is in test/components/.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, getConfig, parseConfig } from '../../worker/config.ts';
import { httpUrl } from '../../worker/contract/links.ts';
import type { FeedItem, FeedResponse, MediaResponse } from '../../worker/contract/public-api.ts';
import type { Playlist } from '../../worker/contract/v2-types.ts';
import { FRAME_SCRIPT, frameLayout } from '../../worker/embed/frame-script.ts';
import type { Env } from '../../worker/env.ts';
import worker from '../../worker/index.ts';
import { playlistHeader } from '../../worker/catalog/projections.ts';
import type { DeliveryItem } from '../../worker/contract/delivery-types.ts';
import { feedItemFromDelivery } from '../../worker/delivery/index.ts';
import { RequestContext } from '../../worker/http/context.ts';
import { resourceSource } from '../../worker/render/resource-source.ts';
import { itemHref, mediaFallback, playlistFallback } from '../../worker/render/fallback-html.ts';
import { videoObject } from '../../worker/contract/video-object.ts';
import { renderPage } from '../../worker/render/page.ts';
import type { OEmbedResponse } from '../../worker/embed/oembed.ts';
import { api, boundMediaIds, config, DEFAULT_IP, EUROPE_SITE, resetWorld, sandbox, SITE } from './helpers.ts';
import { allMedia, isPublic, manualIds, playlists, typedPlaylist } from './upstream-direct.ts';

const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';
const HOSTILE_ORIGIN = 'https://attacker.example';
/** The permalink the attacker stored: a `javascript:` link. */
const JS_LINK = 'javascript:alert(document.domain)//';

beforeEach(async () => {
  await resetWorld();
});

async function europeMedia(): Promise<{ id: string; title: string }> {
  const m = (await allMedia(EUROPE_SITE)).find((x) => isPublic(x))!;
  return { id: m.id, title: m.metadata.title };
}

/** A manual playlist no policy binds and its public members (read from the sandbox: the worker's caches stay cold). */
async function openPlaylist(): Promise<{ id: string; members: string[] }> {
  const bound = new Set(Object.keys(config.sites[SITE]!.playlists ?? {}));
  const boundMedia = await boundMediaIds(SITE);
  const published = new Set((await allMedia(SITE)).filter((m) => isPublic(m) && !boundMedia.has(m.id)).map((m) => m.id));
  for (const p of await playlists(SITE)) {
    if (p.playlist_type !== 'manual' || bound.has(p.id)) continue;
    const members = manualIds(await typedPlaylist(SITE, p.id, 'manual')).filter((id) => published.has(id));
    if (members.length >= 2) return { id: p.id, members };
  }
  throw new Error('no open manual playlist with public members in the seed');
}

/** Writes into the platform directly, as the catalog's owner (the sandbox takes any string, as the platform types it). */
async function patchPlatform(path: string, metadata: Record<string, unknown>): Promise<void> {
  const response = await sandbox(`/v2/sites/${path}`, {
    method: 'PATCH', headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ metadata }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  await response.body?.cancel();
}

/** A publisher's page with this body, rendered through the worker's own API as `ip` gets it. */
async function render(body: string, ip = DEFAULT_IP): Promise<string> {
  const page = new Response(`<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`,
    { headers: { 'content-type': 'text/html; charset=utf-8' } });
  const request = new Request('http://localhost/news', { headers: { 'x-reelgate-dev-ip': ip } });
  const visit = new RequestContext(request, env, createExecutionContext(), getConfig(env));
  return (await renderPage(page, resourceSource(visit))).text();
}

function jsonLd(html: string): Array<Record<string, unknown>> {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!)['@graph'] : [];
}

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
const frameMeta = (html: string) => /<meta name="reelgate-frame" content="([^"]*)">/.exec(html)?.[1] ?? null;

describe('no website can read a visitor\'s geo decision through the embed pages', () => {
  it('sends an embed page, allowed or refused, with no CORS header: a page on another origin cannot read it', async () => {
    const { id } = await europeMedia();
    for (const origin of [HOSTILE_ORIGIN, config.allowed_origins[0]!]) {
      for (const [ip, status] of [[BERLIN, 200], [NEW_YORK, 451]] as const) {
        const response = await api(`/embed/${EUROPE_SITE}/media/${id}`, { ip, headers: { origin } });
        expect(response.status).toBe(status);
        expect(response.headers.get('access-control-allow-origin'), `${origin} ${status}`).toBeNull();
        expect(response.headers.get('access-control-expose-headers')).toBeNull();
        await response.body?.cancel();
      }
    }
    // The short pages of every other outcome neither.
    for (const path of [`/embed/${SITE}/media/ZZZZZZZZ`, `/embed/${SITE}/media/short`, `/embed/${SITE}/playlists/ZZZZZZZZ`]) {
      const response = await api(path, { headers: { origin: HOSTILE_ORIGIN } });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('access-control-allow-origin'), path).toBeNull();
      await response.body?.cancel();
    }
  });

  it('grants no preflight for an embed page, and still lets any page load the embed script', async () => {
    const { id } = await europeMedia();
    const preflight = await api(`/embed/${EUROPE_SITE}/media/${id}`, { method: 'OPTIONS',
      headers: { origin: HOSTILE_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-reelgate-dev-ip' } });
    expect(preflight.status).not.toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    await preflight.body?.cancel();
    const script = await SELF.fetch('http://localhost/embed/reelgate.js', { headers: { origin: HOSTILE_ORIGIN } });
    expect(script.headers.get('access-control-allow-origin')).toBe('*');
    await script.body?.cancel();
    const scriptPreflight = await SELF.fetch('http://localhost/embed/reelgate.js', { method: 'OPTIONS',
      headers: { origin: HOSTILE_ORIGIN, 'access-control-request-method': 'GET' } });
    expect(scriptPreflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('gives /oembed no CORS header either: another origin reads neither the title nor the 451', async () => {
    const { id } = await europeMedia();
    const url = `http://localhost/embed/${EUROPE_SITE}/media/${id}`;
    for (const [ip, status] of [[BERLIN, 200], [NEW_YORK, 451]] as const) {
      const response = await api(`/oembed?url=${encodeURIComponent(url)}`, { ip, headers: { origin: HOSTILE_ORIGIN } });
      expect(response.status).toBe(status);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      await response.body?.cancel();
    }
  });

  it('answers a load that is no frame (an <object>, a prefetch) the same whatever the decision, before deciding', async () => {
    const { id } = await europeMedia();
    const path = `/embed/${EUROPE_SITE}/media/${id}`;
    const crossSite = { 'sec-fetch-site': 'cross-site' };
    for (const [dest, mode] of [['object', 'navigate'], ['embed', 'navigate'], ['empty', 'no-cors'], ['script', 'no-cors'],
      ['style', 'no-cors'], ['image', 'no-cors'], ['empty', 'cors']]) {
      const answers = [];
      for (const ip of [BERLIN, NEW_YORK]) {
        const response = await api(path, { ip, headers: { ...crossSite, 'sec-fetch-dest': dest!, 'sec-fetch-mode': mode! } });
        answers.push([response.status, response.headers.get('cache-control'), await response.text()]);
      }
      expect(answers[0], dest).toEqual(answers[1]);
      expect(answers[0]![0], dest).toBe(403);
    }
    // A frame, or a navigation, is answered as the visitor's decision says.
    for (const [dest, mode] of [['iframe', 'navigate'], ['frame', 'navigate'], ['document', 'navigate']]) {
      const statuses = [];
      for (const ip of [BERLIN, NEW_YORK]) {
        const response = await api(path, { ip, headers: { ...crossSite, 'sec-fetch-dest': dest!, 'sec-fetch-mode': mode! } });
        statuses.push(response.status);
        await response.body?.cancel();
      }
      expect(statuses, dest).toEqual([200, 451]);
    }

    // /oembed: answered to servers, its own origin's pages and the address bar; another site's loads get one answer.
    const oembed = `/oembed?url=${encodeURIComponent(`http://localhost${path}`)}`;
    for (const headers of [{ ...crossSite, 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'no-cors' },
      { ...crossSite, 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' }, { ...crossSite, 'sec-fetch-dest': 'object', 'sec-fetch-mode': 'navigate' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'script', 'sec-fetch-mode': 'no-cors' }]) {
      const answers = [];
      for (const ip of [BERLIN, NEW_YORK]) {
        const response = await api(oembed, { ip, headers });
        answers.push([response.status, await response.text()]);
      }
      expect(answers[0], JSON.stringify(headers)).toEqual(answers[1]);
      expect(answers[0]![0]).toBe(403);
    }
    for (const headers of [{} as Record<string, string>, { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' },
      { 'sec-fetch-site': 'none', 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' },
      { ...crossSite, 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' }]) {
      const statuses = [];
      for (const ip of [BERLIN, NEW_YORK]) {
        const response = await api(oembed, { ip, headers });
        statuses.push(response.status);
        await response.body?.cancel();
      }
      expect(statuses, JSON.stringify(headers)).toEqual([200, 451]);
    }
  });

  it('lays a refused page out as the allowed one: the same frame layout and script, so the same posted heights', async () => {
    const { id } = await europeMedia();
    const [gated] = (await playlists(EUROPE_SITE)).filter((p) => p.playlist_type === 'manual');
    const cases: Array<[string, string]> = [
      [`/embed/${EUROPE_SITE}/media/${id}`, `${9 / 16} ${frameLayout('media', false).rem}`],
      [`/embed/${EUROPE_SITE}/media/${id}?player=RkWDvjNV`, `${9 / 16} ${frameLayout('media', true).rem}`],
      [`/embed/${EUROPE_SITE}/playlists/${gated!.id}`, `${9 / 16} ${frameLayout('playlist', false).rem}`],
    ];
    for (const [path, layout] of cases) {
      const allowed = await api(path, { ip: BERLIN });
      const refused = await api(path, { ip: NEW_YORK });
      expect([allowed.status, refused.status], path).toEqual([200, 451]);
      const [a, r] = [await allowed.text(), await refused.text()];
      expect(frameMeta(a), path).toBe(layout);
      expect(frameMeta(r), path).toBe(layout);
      for (const html of [a, r]) expect(html).toContain(`<script>${FRAME_SCRIPT}</script>`);
    }
    // The player's rows and the shelf make the layout, in rem: a player with a `player` has its toolbar too.
    expect(frameLayout('media', true).rem - frameLayout('media', false).rem).toBe(2.75);
    expect(frameLayout('playlist', false).rem - frameLayout('media', false).rem).toBe(26.25);
  });

  it('posts a height computed from the frame\'s width and font size only, never measured from its content', () => {
    // What the page shows (the player, the shelf's cards, or the one line of a refusal) is never read.
    for (const measure of ['getBoundingClientRect', 'scrollHeight', 'offsetHeight', 'clientHeight', 'ResizeObserver', 'body']) {
      expect(FRAME_SCRIPT).not.toContain(measure);
    }
    expect(FRAME_SCRIPT).toContain('innerWidth');
    expect(FRAME_SCRIPT).toContain("type:'reelgate:resize'");
  });
});

describe('`javascript:` links are never rendered', () => {
  it('lists only absolute http(s) URLs as links', () => {
    for (const bad of [JS_LINK, ' javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'java\tscript:alert(1)', 'java\nscript:x',
      'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'file:///etc/passwd', '//evil.example/x', '/watch/1',
      'watch/1', '', 'https://user:pass@news.example/', `https://news.example/${'a'.repeat(3000)}`, null, 42, {}]) {
      expect(httpUrl(bad), String(bad)).toBeNull();
    }
    expect(httpUrl('https://news.example/watch/1?a=b#c')).toBe('https://news.example/watch/1?a=b#c');
    expect(httpUrl('http://news.example')).toBe('http://news.example/');
    expect(httpUrl('HTTPS://News.Example/x')).toBe('https://news.example/x');
  });

  it('never answers a `javascript:` permalink or playlist link from the API: the field is null', async () => {
    const { id: playlist, members } = await openPlaylist();
    await patchPlatform(`${SITE}/media/${members[0]}/`, { permalink: JS_LINK });
    const media = await api(`/api/sites/${SITE}/media/${members[0]}`);
    const body = await media.text();
    expect(media.status, body).toBe(200);
    expect((JSON.parse(body) as MediaResponse).permalink).toBeNull();
    expect(body).not.toMatch(/javascript:/i);
    const feed = await api(`/api/sites/${SITE}/playlists/${playlist}?page_length=50`);
    const feedText = await feed.text();
    const parsed = JSON.parse(feedText) as FeedResponse;
    expect(parsed.items.find((item) => item.id === members[0])!.permalink).toBeNull();
    expect(feedText).not.toMatch(/javascript:/i);
  });

  it('renders no `javascript:` link in a page\'s fallbacks or JSON-LD: the embed page stands in', async () => {
    const { id: playlist, members } = await openPlaylist();
    await patchPlatform(`${SITE}/media/${members[0]}/`, { permalink: JS_LINK });
    const html = await render(`<reel-playlist site="${SITE}" playlist="${playlist}" page-size="50"></reel-playlist>`
      + `<reel-player site="${SITE}" media="${members[0]}"></reel-player>`);
    expect(html).toContain('data-reelgate-rendered="playlist"');
    expect(html).toContain('data-reelgate-rendered="player"');
    expect(html).not.toMatch(/javascript:/i);
    for (const href of hrefs(html)) expect(href, href).toMatch(/^https?:\/\//);
    expect(hrefs(html)).toContain(`http://localhost/embed/${SITE}/media/${members[0]}`);
    const video = jsonLd(html).find((v) => v.embedUrl === `http://localhost/embed/${SITE}/media/${members[0]}`)!;
    expect(video).toBeDefined();
    expect(video.url).toBeUndefined();
    for (const v of jsonLd(html)) if (v.url !== undefined) expect(String(v.url)).toMatch(/^https?:\/\//);
  });

  it('projects a `javascript:` permalink or playlist link to null (the platform stores any string in either)', () => {
    // The sandbox, stricter than the platform's definition, refuses a non-http(s) playlist link: projected here directly.
    const item = (link: string): DeliveryItem => ({
      mediaid: 'abcdefgh', title: 'T', description: '', pubdate: 1_700_000_000, image: '', duration: 10, link, custom: {}, sources: [], tracks: [],
    });
    expect(feedItemFromDelivery(item(JS_LINK), null).permalink).toBeNull();
    expect(feedItemFromDelivery(item('https://news.example/a'), null).permalink).toBe('https://news.example/a');
    const header = (link: string) => playlistHeader({ id: 'abcdefgh', metadata: { title: 'P', link } as Playlist['metadata'] }, 'manual');
    expect(header('javascript:alert(2)').link).toBeNull();
    expect(header('data:text/html,x').link).toBeNull();
    expect(header('https://news.example/food').link).toBe('https://news.example/food');
  });

  it('renders none from an answer that still holds one (a cache entry from before the check)', () => {
    const item = { id: 'abcdefgh', title: 'T', description: null, duration: null, tags: [], publish_start_date: null,
      publish_end_date: null, thumbnail: null, thumbnails: [], permalink: JS_LINK, media_type: 'video', custom_params: {} } as FeedItem;
    const embed = `http://localhost/embed/${SITE}/media/abcdefgh`;
    expect(itemHref(item, embed)).toBe(embed);
    expect(videoObject(item, embed, null).url).toBeUndefined();
    const feed = { site: SITE, playlist: { id: 'abcdefgh', type: 'manual', title: 'P', description: null, author: null,
      link: 'javascript:alert(2)' }, items: [item], page: 1, page_length: 10, total: 1, next_page: null } as FeedResponse;
    for (const html of [playlistFallback(feed, () => embed), mediaFallback({ ...item, site: SITE, poster: null, sources: [], tracks: [] }, embed)]) {
      expect(html).not.toMatch(/javascript:/i);
      for (const href of hrefs(html)) expect(href).toBe(embed);
    }
  });

  it('writes no `javascript:` URL into an embed page or an oEmbed answer', async () => {
    const { members } = await openPlaylist();
    await patchPlatform(`${SITE}/media/${members[0]}/`, { permalink: JS_LINK });
    const page = await api(`/embed/${SITE}/media/${members[0]}`);
    const html = await page.text();
    expect(page.status, html).toBe(200);
    expect(html).not.toMatch(/javascript:/i);
    const oembed = await api(`/oembed?url=${encodeURIComponent(`http://localhost/embed/${SITE}/media/${members[0]}`)}`);
    const text = await oembed.text();
    expect(oembed.status, text).toBe(200);
    expect(text).not.toMatch(/javascript:/i);
    const body = JSON.parse(text) as OEmbedResponse;
    for (const url of [body.provider_url, body.thumbnail_url, /src="([^"]+)"/.exec(body.html)![1]!]) expect(url).toMatch(/^https?:\/\//);
  });
});

describe('the Host header is never reflected into cacheable oEmbed and embed URLs', () => {
  const PUBLIC = 'https://video.example';
  const withPublicOrigin = { REELGATE_CONFIG: JSON.stringify({ ...JSON.parse(env.REELGATE_CONFIG), public_origin: PUBLIC }) };

  /** The worker called directly with other bindings, at `url` (its host is the request's Host). */
  async function call(url: string, overrides: Partial<Env> = {}): Promise<Response> {
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request(url, { headers: { 'x-reelgate-dev-ip': DEFAULT_IP } }),
      { ...env, ...overrides } as Env, ctx);
    const body = await response.arrayBuffer();
    await waitOnExecutionContext(ctx);
    return new Response(body, response);
  }

  async function freeMedia(): Promise<string> {
    return (await openPlaylist()).members[0]!;
  }

  it('reads public_origin: an http(s) origin as browsers spell it, or nothing', () => {
    const base = { sites: { vbQmzoYd: {} } };
    expect(parseConfig(base).publicOrigin).toBeNull();
    expect(parseConfig({ ...base, public_origin: 'https://video.example' }).publicOrigin).toBe('https://video.example');
    expect(parseConfig({ ...base, public_origin: 'http://localhost:8787' }).publicOrigin).toBe('http://localhost:8787');
    for (const bad of ['https://video.example/', 'https://video.example/embed', 'https://Video.example', 'ftp://video.example',
      'video.example', 'https://video.example:443', '', 7]) {
      expect(() => parseConfig({ ...base, public_origin: bad }), String(bad)).toThrow(ConfigError);
      expect(() => parseConfig({ ...base, public_origin: bad }), String(bad)).toThrow('public_origin');
    }
  });

  it('with a public origin, another Host changes nothing in an embed page, /oembed or a rendered page', async () => {
    const id = await freeMedia();
    const embedPath = `/embed/${SITE}/media/${id}`;
    const pages = [];
    for (const host of ['http://localhost', 'https://attacker.example']) {
      const page = await call(`${host}${embedPath}`, withPublicOrigin);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toMatch(/^public/);
      const html = await page.text();
      expect(html).toContain(`href="${PUBLIC}/oembed?url=${encodeURIComponent(`${PUBLIC}${embedPath}`)}&amp;format=json"`);
      expect(html).not.toContain('attacker.example');
      pages.push(html);

      // Asked at either host, about a URL on the public origin (or on the host asked): the answer names the public origin.
      for (const named of [PUBLIC, host]) {
        const oembed = await call(`${host}/oembed?url=${encodeURIComponent(`${named}${embedPath}`)}`, withPublicOrigin);
        const text = await oembed.text();
        expect(oembed.status, text).toBe(200);
        expect(oembed.headers.get('cache-control')).toMatch(/^public/);
        expect(text).not.toContain('attacker.example');
        const body = JSON.parse(text) as OEmbedResponse;
        expect(body.provider_url).toBe(`${PUBLIC}/`);
        expect(body.provider_name).toBe('video.example');
        expect(body.html).toContain(`<iframe src="${PUBLIC}${embedPath}"`);
        expect(body.html).toContain(`e.origin!==${JSON.stringify(PUBLIC)}`);
      }
    }
    expect(pages[0]).toBe(pages[1]);
    // Another host's embed URL is still no embed of ours.
    const other = await call(`http://localhost/oembed?url=${encodeURIComponent(`https://elsewhere.example${embedPath}`)}`, withPublicOrigin);
    expect(other.status).toBe(404);

    const demo = await call('https://attacker.example/', withPublicOrigin);
    const html = await demo.text();
    expect(demo.status).toBe(200);
    const embedUrls = [...jsonLd(html).map((v) => String(v.embedUrl)), ...hrefs(html).filter((h) => /\/embed\/[^/]+\/media\//.test(h))];
    expect(embedUrls.length).toBeGreaterThan(0);
    for (const url of embedUrls) expect(url.startsWith(`${PUBLIC}/embed/`), url).toBe(true);
    // Only a page no one may keep names the host asked: a gated player's poster, resolved as its element resolves it.
    if (!/private|no-store/.test(demo.headers.get('cache-control') ?? '')) expect(html).not.toContain('attacker.example');
    for (const match of html.matchAll(/[^\s"]*attacker\.example[^\s"]*/g)) expect(match[0]).toMatch(/^https:\/\/attacker\.example\/api\/play\//);
  });

  it('without one, keys every answer that names the request\'s host on that host (Vary: Host)', async () => {
    const id = await freeMedia();
    const embedPath = `/embed/${SITE}/media/${id}`;
    const vary = (response: Response) => (response.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());

    const page = await SELF.fetch(`http://other.example${embedPath}`, { headers: { 'x-reelgate-dev-ip': DEFAULT_IP } });
    const html = await page.text();
    expect(page.headers.get('cache-control')).toMatch(/^public/);
    expect(html).toContain('http://other.example/oembed');
    expect(vary(page)).toContain('host');

    const oembed = await SELF.fetch(`http://other.example/oembed?url=${encodeURIComponent(`http://other.example${embedPath}`)}`,
      { headers: { 'x-reelgate-dev-ip': DEFAULT_IP } });
    expect(oembed.status).toBe(200);
    expect(((await oembed.json()) as OEmbedResponse).provider_url).toBe('http://other.example/');
    expect(vary(oembed)).toContain('host');

    const demo = await SELF.fetch('http://other.example/', { headers: { 'x-reelgate-dev-ip': DEFAULT_IP } });
    expect(demo.status).toBe(200);
    expect(jsonLd(await demo.text()).length).toBeGreaterThan(0);
    expect(vary(demo)).toContain('host');

    // With a public origin nothing names the request's host, so nothing needs keeping per host.
    const fixed = await call(`http://other.example${embedPath}`, withPublicOrigin);
    expect(vary(fixed)).not.toContain('host');
    await fixed.body?.cancel();
  });
});
