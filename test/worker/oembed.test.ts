// Embedding without scripts: the iframe embed pages and /oembed, against the sandbox. The same
// policies as the API decide both, and a refused visitor learns nothing (worker/docs/embedding-without-scripts.md).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { FRAME_SCRIPT, FRAME_SCRIPT_HASH } from '../../worker/embed/frame-script.ts';
import type { OEmbedResponse } from '../../worker/embed/oembed.ts';
import { api, boundMediaIds, config, EUROPE_SITE, expectError, resetWorld, SITE } from './helpers.ts';
import { allMedia, isPublic, playlistOfType } from './upstream-direct.ts';

const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';
const ORIGIN = 'http://localhost';
const dist = JSON.parse(env.TEST_DIST_FILES) as string[];

const oembed = (url: string, extra = '', ip?: string) =>
  api(`/oembed?url=${encodeURIComponent(url)}${extra}`, ip ? { ip } : {});

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as T;
}

/** A published media of the unpoliced site that nothing binds, and its title. */
async function freeMedia(): Promise<{ id: string; title: string }> {
  const bound = await boundMediaIds(SITE);
  const m = (await allMedia(SITE)).find((x) => isPublic(x) && !bound.has(x.id))!;
  return { id: m.id, title: m.metadata.title };
}

async function europeMedia(): Promise<{ id: string; title: string }> {
  const m = (await allMedia(EUROPE_SITE)).find((x) => isPublic(x))!;
  return { id: m.id, title: m.metadata.title };
}

const iframeSrc = (html: string) => /<iframe src="([^"]+)"/.exec(html)?.[1];

beforeEach(async () => {
  await resetWorld();
});

describe('/oembed', () => {
  it('turns a media embed URL into a video: the iframe, 16:9 at 640 wide, title, the platform poster, provider', async () => {
    const { id, title } = await freeMedia();
    const url = `${ORIGIN}/embed/${SITE}/media/${id}`;
    const response = await oembed(url, '&format=json');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=/);
    const body = await json<OEmbedResponse>(response);
    expect(body).toMatchObject({ version: '1.0', type: 'video', title, width: 640, height: 360, provider_name: 'localhost',
      provider_url: `${ORIGIN}/`, cache_age: 3600, thumbnail_width: 640, thumbnail_height: 360 });
    expect(iframeSrc(body.html)).toBe(url);
    expect(body.html).toContain('width="640" height="360"');
    expect(body.html).toContain("d.type!=='reelgate:resize'");
    // Content under no policy keeps the platform's poster URL, as the API does.
    expect(body.thumbnail_url).toMatch(/^https?:\/\//);
    expect(body.thumbnail_url).not.toContain('/api/play/');
  });

  it('turns a playlist embed URL into a rich shelf, and keeps ?player= and an http(s) form of our host', async () => {
    const manual = await playlistOfType(SITE, 'manual');
    const body = await json<OEmbedResponse>(await oembed(`https://localhost/embed/${SITE}/playlists/${manual.id}/?player=RkWDvjNV&utm_source=x`));
    expect(body.type).toBe('rich');
    expect(body.title).toBe(manual.metadata.title);
    expect(iframeSrc(body.html)).toBe(`${ORIGIN}/embed/${SITE}/playlists/${manual.id}?player=RkWDvjNV`);
    expect([body.width, body.height]).toEqual([640, 360 + 420]);
  });

  it('respects maxwidth and maxheight, keeping a player at 16:9', async () => {
    const { id } = await freeMedia();
    const url = `${ORIGIN}/embed/${SITE}/media/${id}`;
    const narrow = await json<OEmbedResponse>(await oembed(url, '&maxwidth=320'));
    expect([narrow.width, narrow.height]).toEqual([320, 180]);
    const low = await json<OEmbedResponse>(await oembed(url, '&maxwidth=1000&maxheight=180'));
    expect([low.width, low.height]).toEqual([320, 180]);
    const manual = await playlistOfType(SITE, 'manual');
    const shelf = await json<OEmbedResponse>(await oembed(`${ORIGIN}/embed/${SITE}/playlists/${manual.id}`, '&maxwidth=480&maxheight=500'));
    expect([shelf.width, shelf.height]).toEqual([480, 500]);
    expect(shelf.html).toContain('width="480" height="500"');
  });

  it('answers format=xml with 501, and bad input with 400 in the v2 error format', async () => {
    const { id } = await freeMedia();
    const url = `${ORIGIN}/embed/${SITE}/media/${id}`;
    await expectError(await oembed(url, '&format=xml'), 501, 'not_implemented');
    await expectError(await oembed(url, '&format=yaml'), 400, 'invalid_request');
    await expectError(await api('/oembed'), 400, 'invalid_request');
    await expectError(await api('/oembed?url='), 400, 'invalid_request');
    await expectError(await oembed('not a url'), 400, 'invalid_request');
    await expectError(await oembed('javascript:alert(1)'), 400, 'invalid_request');
    await expectError(await oembed(url, '&maxwidth=wide'), 400, 'invalid_request');
    await expectError(await oembed(url, '&maxheight=0'), 400, 'invalid_request');
    await expectError(await oembed(url, `&url=${encodeURIComponent(url)}`), 400, 'invalid_request');
    await expectError(await oembed(`${ORIGIN}/embed/${SITE}/media/short`), 400, 'invalid_request');
    await expectError(await oembed(`${ORIGIN}/embed/${SITE}/media/${id}?player=nope`), 400, 'invalid_request');
    await expectError(await oembed(`${ORIGIN}/${'a'.repeat(400)}`), 400, 'invalid_request');
    // Unknown parameters are a consumer's own (the spec lets them be): ignored.
    expect((await oembed(url, '&dnt=1&lang=en')).status).toBe(200);
  });

  it('answers 404 for a URL that is not one of ours, and for content that does not exist', async () => {
    const { id } = await freeMedia();
    await expectError(await oembed(`https://video.example/embed/${SITE}/media/${id}`), 404, 'not_found');
    await expectError(await oembed(`${ORIGIN}/api/sites/${SITE}/media/${id}`), 404, 'not_found');
    await expectError(await oembed(`${ORIGIN}/`), 404, 'not_found');
    await expectError(await oembed(`${ORIGIN}/embed/ZZZZZZZZ/media/${id}`), 404, 'not_found');
    await expectError(await oembed(`${ORIGIN}/embed/${SITE}/media/ZZZZZZZZ`), 404, 'not_found');
    await expectError(await oembed(`${ORIGIN}/embed/${SITE}/playlists/ZZZZZZZZ`), 404, 'not_found');
  });

  it('applies the same policies: 451 to a refused visitor, naming nothing; the worker\'s own poster URL to an allowed one', async () => {
    const { id, title } = await europeMedia();
    const url = `${ORIGIN}/embed/${EUROPE_SITE}/media/${id}`;
    const refused = await oembed(url, '', NEW_YORK);
    const text = await refused.clone().text();
    await expectError(refused, 451, 'geo_blocked');
    expect(text).not.toContain(title);
    expect(text).not.toContain(id);

    const allowed = await oembed(url, '', BERLIN);
    expect(allowed.headers.get('cache-control')).toBe('private, no-store');
    const body = await json<OEmbedResponse>(allowed);
    expect(body.title).toBe(title);
    expect(body.cache_age).toBe(300);
    expect(body.thumbnail_url).toMatch(new RegExp(`^${ORIGIN}/api/play/`));
    // The poster URL opens, for that visitor.
    const poster = await api(new URL(body.thumbnail_url!).pathname, { ip: BERLIN });
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toMatch(/^image\//);
    await poster.body?.cancel();
  });

  it('binds a playlist member by its playlist\'s policy, and refuses a gated playlist', async () => {
    const dynamic = await playlistOfType(SITE, 'dynamic');
    expect(config.sites[SITE]!.playlists![dynamic.id]).toBe('gb-only');
    await expectError(await oembed(`${ORIGIN}/embed/${SITE}/playlists/${dynamic.id}`, '', BERLIN), 451, 'geo_blocked');
    const member = (await json<{ items: Array<{ id: string }> }>(await api(`/api/sites/${SITE}/playlists/${dynamic.id}`))).items[0]!.id;
    await expectError(await oembed(`${ORIGIN}/embed/${SITE}/media/${member}`, '', BERLIN), 451, 'geo_blocked');
    // Manchester (GB) passes: the shelf's poster is a playback URL, never the platform's.
    const body = await json<OEmbedResponse>(await oembed(`${ORIGIN}/embed/${SITE}/playlists/${dynamic.id}`));
    expect(body.thumbnail_url).toMatch(new RegExp(`^${ORIGIN}/api/play/`));
  });
});

describe('embed pages', () => {
  it('serve a media embed: the player from the versioned bundle, discovery, framable by any page', async () => {
    const { id, title } = await freeMedia();
    const response = await api(`/embed/${SITE}/media/${id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=300/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain(`script-src 'self' ${FRAME_SCRIPT_HASH}`);
    expect(csp).toContain("object-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe(null);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(html).toContain(`<reel-player site="${SITE}" media="${id}">`);
    expect(html).toContain(`<title>${title.replace(/&/g, '&amp;').replace(/'/g, '&#39;')}</title>`);
    const versioned = dist.find((f) => /^reelgate\.[A-Za-z0-9_-]+\.js$/.test(f));
    expect(html).toContain(`<script type="module" src="/embed/${versioned ?? 'reelgate.js'}"></script>`);
    expect(html).toContain(`<script>${FRAME_SCRIPT}</script>`);
    const discovery = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    expect(discovery).toBe(`${ORIGIN}/oembed?url=${encodeURIComponent(`${ORIGIN}/embed/${SITE}/media/${id}`)}&format=json`);
    const described = await json<OEmbedResponse>(await api(new URL(discovery).pathname + new URL(discovery).search));
    expect(described.title).toBe(title);
  });

  it('hash-allows exactly the frame script it inlines', async () => {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(FRAME_SCRIPT));
    expect(FRAME_SCRIPT_HASH).toBe(`'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
  });

  it('serve a playlist embed: a shelf and a player following it', async () => {
    const manual = await playlistOfType(SITE, 'manual');
    const response = await api(`/embed/${SITE}/playlists/${manual.id}?player=RkWDvjNV`);
    const html = await response.text();
    expect(response.status, html).toBe(200);
    expect(html).toContain(`<reel-player site="${SITE}" player="RkWDvjNV" for="shelf"></reel-player>`);
    expect(html).toContain(`<reel-playlist id="shelf" site="${SITE}" playlist="${manual.id}">`);
  });

  it('answer a refused visitor with a short 451 page that names nothing of the content, and keep it private', async () => {
    const { id, title } = await europeMedia();
    const refused = await api(`/embed/${EUROPE_SITE}/media/${id}`, { ip: NEW_YORK });
    expect(refused.status).toBe(451);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.headers.get('content-security-policy')).toContain('frame-ancestors *');
    const html = await refused.text();
    expect(html).toContain('not available in your region');
    for (const secret of [title, id, EUROPE_SITE, 'reel-player', 'oembed']) expect(html).not.toContain(secret);

    const allowed = await api(`/embed/${EUROPE_SITE}/media/${id}`, { ip: BERLIN });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('cache-control')).toBe('private, no-store');
    await allowed.body?.cancel();
  });

  it('take DEV_MODE\'s ?dev_ip= as the visitor, and hand it to the elements', async () => {
    const { id } = await europeMedia();
    const refused = await api(`/embed/${EUROPE_SITE}/media/${id}?dev_ip=${NEW_YORK}`, { ip: null });
    expect(refused.status).toBe(451);
    await refused.body?.cancel();
    const allowed = await api(`/embed/${EUROPE_SITE}/media/${id}?dev_ip=${BERLIN}`, { ip: null });
    expect(await allowed.text()).toContain(`<meta name="reelgate-dev-ip" content="${BERLIN}">`);
  });

  it('answer bad input and unknown content with short pages and fitting statuses, never 500', async () => {
    const { id } = await freeMedia();
    const cases: Array<[string, number]> = [
      [`/embed/${SITE}/media/ZZZZZZZZ`, 404],
      [`/embed/ZZZZZZZZ/media/${id}`, 404],
      [`/embed/${SITE}/playlists/ZZZZZZZZ`, 404],
      [`/embed/${SITE}/media/short`, 400],
      [`/embed/${SITE}/media/${id}?autoplay=1`, 400],
      [`/embed/${SITE}/media/${id}?player=bad`, 400],
      [`/embed/${SITE}/media/${id}?dev_ip=<script>`, 400],
    ];
    for (const [path, status] of cases) {
      const response = await api(path);
      const html = await response.text();
      expect(response.status, path).toBe(status);
      expect(response.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(html, path).toMatch(/^<!doctype html>/);
      expect(html).not.toContain('<script>alert');
    }
  });
});
