// URL token signing on the delivery host (demo/sandbox/url-signing.ts, delivery.ts), as the platform documents it:
// legacy `?exp=&sig=` for file paths, `?token=<JWT>` for the Delivery API's /v2/ paths. The seeded signing site
// enforces it with the SIGNED_SITE_SECRET binding; every site refuses what is signed wrongly.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryFeed, DeliveryItem } from '../../worker/contract/delivery-types.ts';
import { callJson, catalog, control, errorShape, ORIGIN, reset, SIGNING_SECRET, sites, type SiteCatalog } from './helpers.ts';

const SEALED_ID = 'nvsLN98U';
const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
const md5 = async (text: string) => hex(await crypto.subtle.digest('MD5', encoder.encode(text)));
const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const now = () => Math.floor(Date.now() / 1000);
const later = () => now() + 3600;

async function hmac(secret: string, text: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
}

/** The legacy scheme: `?exp=&sig=md5("<path without leading slash>:<exp>:<secret>")`. */
async function signed(url: string, exp = later(), secret = SIGNING_SECRET): Promise<string> {
  const target = new URL(url);
  target.searchParams.set('exp', String(exp));
  target.searchParams.set('sig', await md5(`${target.pathname.slice(1)}:${exp}:${secret}`));
  return target.href;
}

async function jwt(claims: Record<string, unknown>, secret = SIGNING_SECRET, header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' }): Promise<string> {
  const head = base64url(encoder.encode(JSON.stringify(header)));
  const body = base64url(encoder.encode(JSON.stringify(claims)));
  return `${head}.${body}.${base64url(await hmac(secret, `${head}.${body}`))}`;
}

/** The JWT scheme: `?token=` with `resource` (the path), `exp` and the URL's query parameters as claims. */
async function tokenized(url: string, exp = later(), secret = SIGNING_SECRET, extra: Record<string, unknown> = {}): Promise<string> {
  const target = new URL(url);
  const claims: Record<string, unknown> = { resource: target.pathname, exp, ...Object.fromEntries(target.searchParams), ...extra };
  target.searchParams.set('token', await jwt(claims, secret));
  return target.href;
}

/** A site's derived secret (every site but the signing one): hex HMAC-SHA-256(SIGNED_SITE_SECRET, "url-signing:<id>"). */
const derivedSecret = async (siteId: string) => hex((await hmac(SIGNING_SECRET, `url-signing:${siteId}`)).buffer as ArrayBuffer);

const get = (url: string, init?: RequestInit) => env.SANDBOX.fetch(url, init);

async function expectForbidden(url: string, init?: RequestInit): Promise<void> {
  const response = await get(url, init);
  expect(response.status, url).toBe(403);
  if (init?.method !== 'HEAD') expect(await response.json()).toEqual(errorShape('access_forbidden'));
  expect(response.headers.get('cache-control')).toBe('no-store');
}

async function expectOk(url: string, init?: RequestInit): Promise<Response> {
  const response = await get(url, init);
  expect(response.status, url).toBe(init?.headers && 'range' in (init.headers as object) ? 206 : 200);
  return response;
}

const uris = (playlist: string) => [...playlist.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!)
  .concat(playlist.split('\n').filter((line) => line && !line.startsWith('#')));

const HLS = 'application/vnd.apple.mpegurl';

let sealed: SiteCatalog;
/**
 * Published video media of the signing site: one with HLS (its Delivery API answer names a manifest first), captions
 * and a storyboard; one delivered as MP4 only (no manifest).
 */
let withHls: string;
let mp4Only: string;
const renditionsOf = async (site: string, id: string) =>
  (await callJson('GET', `/v2/sites/${site}/media/${id}/media_renditions/`)).body.media_renditions as Array<{ id: string; format: string; delivery_url: string }>;
const tracksOf = async (site: string, id: string) =>
  (await callJson('GET', `/v2/sites/${site}/media/${id}/text_tracks/`)).body.text_tracks as Array<{ id: string; delivery_url: string }>;
/** A media's item in its Delivery API answer, asked for signed (the signing site enforces): its files come signed too. */
async function deliveryItemOf(id: string): Promise<DeliveryItem> {
  const response = await get(await tokenized(`${ORIGIN}/v2/media/${id}`));
  expect(response.status, id).toBe(200);
  return (await response.json<DeliveryFeed>()).playlist[0]!;
}
/** A URL without its query (a signed answer's file, bare). */
const bare = (url: string) => `${new URL(url).origin}${new URL(url).pathname}`;

beforeEach(async () => {
  await reset({ rate_limit_per_minute: 10_000 });
  sealed = (await catalog()).sites.find((s) => s.id === SEALED_ID)!;
  const all = (await callJson('GET', `/v2/sites/${SEALED_ID}/media/?page_length=50&sort=created:asc`)).body.media as Array<{ id: string; status: string; media_type: string }>;
  const published = new Set(sealed.media.published);
  withHls = '';
  mp4Only = '';
  for (const m of all.filter((m) => published.has(m.id) && m.media_type === 'video')) {
    const hls = (await deliveryItemOf(m.id)).sources[0]?.type === HLS;
    if (!withHls && hls && (await tracksOf(SEALED_ID, m.id)).length > 0) withHls = m.id;
    if (!mp4Only && !hls) mp4Only = m.id;
  }
});

describe('the signing site', () => {
  it('is seeded third, after the other two, enforcing with the SIGNED_SITE_SECRET binding; no answer names a secret', async () => {
    const list = (await catalog()).sites;
    expect(list.map((s) => s.id)).toEqual(['vbQmzoYd', '93QufRA9', SEALED_ID]);
    expect(sealed).toMatchObject({ name: 'Sealed Origin Studio', media_total: 12, url_signing: { enforce: true, secret_source: 'SIGNED_SITE_SECRET' } });
    for (const other of list.slice(0, 2)) expect(other.url_signing).toEqual({ enforce: false, secret_source: 'derived' });
    expect(sealed.playlists.manual).toHaveLength(1);
    expect(sealed.players).toHaveLength(1);
    const manual = (await callJson('GET', `/v2/sites/${SEALED_ID}/playlists/${sealed.playlists.manual![0]}/manual_playlist/`)).body;
    expect(manual.metadata.media_filter.include.values.length).toBeGreaterThanOrEqual(4);
    expect(withHls).not.toBe('');
    expect(mp4Only).not.toBe('');
    // An MP4-only media has no manifest (signed, its path is 404), and its Delivery API answer names its MP4 files alone.
    const mp4Types = new Set((await deliveryItemOf(mp4Only)).sources.map((source) => source.type));
    expect([...mp4Types]).toEqual(['video/mp4']);
    const noManifest = await get(await signed(`${ORIGIN}/manifests/${mp4Only}.m3u8`));
    expect(noManifest.status).toBe(404);
    await noManifest.body?.cancel();
    expect(sealed.media.with_subtitles.length).toBeGreaterThan(0);
    const texts = [JSON.stringify(await catalog()), await (await control('GET', `sites/${SEALED_ID}/url-signing`)).text(),
      await (await control('GET', 'sites/vbQmzoYd/url-signing')).text()];
    for (const text of texts) {
      expect(text).not.toContain(SIGNING_SECRET);
      expect(text).not.toContain(await derivedSecret('vbQmzoYd'));
    }
  });
});

describe('legacy signing of file paths (?exp=&sig=)', () => {
  it('MP4: unsigned, another secret, an altered path or exp, expired and malformed are 403; signed plays, with ranges', async () => {
    const [first, second] = (await renditionsOf(SEALED_ID, mp4Only)).filter((r) => r.format === 'mp4');
    const url = first!.delivery_url;
    expect(url).toBe(`${ORIGIN}/videos/${mp4Only}-${first!.id}.mp4`);
    await expectForbidden(url);
    await expectForbidden(url, { method: 'HEAD' });
    await expectForbidden(await signed(url, later(), 'another-secret'));
    // The signature of another file on this path, and this file's signature with another exp.
    const other = new URL(await signed(second!.delivery_url));
    await expectForbidden(`${url}${other.search}`);
    const good = new URL(await signed(url));
    const exp = Number(good.searchParams.get('exp'));
    await expectForbidden(`${url}?exp=${exp + 1}&sig=${good.searchParams.get('sig')}`);
    await expectForbidden(await signed(url, now() - 5));
    await expectForbidden(`${url}?exp=${exp}`);
    await expectForbidden(`${url}?sig=${good.searchParams.get('sig')}`);
    await expectForbidden(`${url}?exp=${exp}&sig=${good.searchParams.get('sig')!.toUpperCase()}`);
    await expectForbidden(`${good.href}&exp=${exp}`);

    const whole = await expectOk(good.href);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(4, 8))).toBe('ftyp');
    const part = await expectOk(good.href, { headers: { range: 'bytes=100-199' } });
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(100, 200));
    const head = await expectOk(good.href, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
  });

  it('HLS: a signed master names its variants and subtitles signed; a signed variant its segments; unsigned segments are 403', async () => {
    // The manifest, as the media's signed Delivery API answer names it first: signed, it opens as it is.
    const [source] = (await deliveryItemOf(withHls)).sources;
    expect(source!.type).toBe(HLS);
    const manifest = bare(source!.file);
    expect(manifest).toBe(`${ORIGIN}/manifests/${withHls}.m3u8`);
    expect(new URL(source!.file).searchParams.get('sig')).toMatch(/^[0-9a-f]{32}$/);
    await (await expectOk(source!.file)).body?.cancel();
    await expectForbidden(manifest);
    const exp = later();
    const master = await (await expectOk(await signed(manifest, exp))).text();
    const named = uris(master);
    expect(named.length).toBeGreaterThan(2);
    for (const uri of named) {
      // Relative, in the media's folder, and signed for its own path with the master's exp.
      const url = new URL(uri, manifest);
      expect(url.pathname.startsWith(`/manifests/${withHls}/`)).toBe(true);
      expect(url.searchParams.get('exp')).toBe(String(exp));
      expect(url.searchParams.get('sig')).toBe(await md5(`${url.pathname.slice(1)}:${exp}:${SIGNING_SECRET}`));
      await expectForbidden(`${url.origin}${url.pathname}`);
    }
    const variant = new URL(named.find((uri) => uri.includes('/360p/'))!, manifest);
    const playlist = await (await expectOk(variant.href)).text();
    const segments = uris(playlist);
    expect(segments.length).toBeGreaterThanOrEqual(3);
    for (const segment of segments) expect(segment).toMatch(new RegExp(`^seg-\\d+\\.ts\\?exp=${exp}&sig=[0-9a-f]{32}$`));
    const segment = new URL(segments[1]!, variant);
    const ts = new Uint8Array(await (await expectOk(segment.href)).arrayBuffer());
    expect([ts.length % 188, ts[0]]).toEqual([0, 0x47]);
    await expectForbidden(`${segment.origin}${segment.pathname}`);
    // Another segment's signature, or the variant's own, does not open this segment.
    await expectForbidden(`${segment.origin}${segment.pathname}${new URL(segments[0]!, variant).search}`);
    await expectForbidden(`${segment.origin}${segment.pathname}${variant.search}`);
    // The subtitles rendition and its WebVTT file, followed the same way.
    const subs = new URL(named.find((uri) => uri.includes('/subs/'))!, manifest);
    const subsPlaylist = await (await expectOk(subs.href)).text();
    const vtt = await expectOk(new URL(uris(subsPlaylist)[0]!, subs).href);
    expect((await vtt.text()).startsWith('WEBVTT')).toBe(true);
  });

  it('text tracks and storyboards: 403 unsigned; signed they open, and a signed storyboard names its sheet signed', async () => {
    const [track] = await tracksOf(SEALED_ID, withHls);
    expect(track!.delivery_url).toBe(`${ORIGIN}/tracks/${track!.id}.vtt`);
    await expectForbidden(track!.delivery_url);
    await expectForbidden(await signed(track!.delivery_url, now() - 1));
    const vtt = await expectOk(await signed(track!.delivery_url));
    expect(vtt.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect((await vtt.text()).startsWith('WEBVTT\n')).toBe(true);

    const strip = `${ORIGIN}/strips/${withHls}-120.vtt`;
    await expectForbidden(strip);
    await expectForbidden(`${ORIGIN}/strips/${withHls}-120.svg`);
    const exp = later();
    const storyboard = await (await expectOk(await signed(strip, exp))).text();
    const cue = storyboard.split('\n').find((line) => line.includes('#xywh='))!;
    expect(cue).toMatch(new RegExp(`^${withHls}-120\\.svg\\?exp=${exp}&sig=[0-9a-f]{32}#xywh=0,0,120,68$`));
    const sheet = await expectOk(new URL(cue, strip).href);
    expect(sheet.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });
});

describe('JWT signing of the Delivery API paths (?token=)', () => {
  it('the poster: unsigned, a legacy signature, another secret, resource, algorithm or an expired token are 403', async () => {
    const poster = `${ORIGIN}/v2/media/${withHls}/poster.jpg`;
    await expectForbidden(poster);
    await expectForbidden(await signed(poster));
    await expectForbidden(await tokenized(poster, later(), 'another-secret'));
    await expectForbidden(await tokenized(poster, now() - 5));
    await expectForbidden(`${poster}?token=${await jwt({ resource: `/v2/media/${mp4Only}/poster.jpg`, exp: later() })}`);
    await expectForbidden(`${poster}?token=${await jwt({ resource: new URL(poster).pathname })}`);
    const unsigned = `${base64url(encoder.encode('{"alg":"none","typ":"JWT"}'))}.${base64url(encoder.encode(JSON.stringify({ resource: new URL(poster).pathname, exp: later() })))}.`;
    await expectForbidden(`${poster}?token=${unsigned}`);
    await expectForbidden(`${poster}?token=${await jwt({ resource: new URL(poster).pathname, exp: later() }, SIGNING_SECRET, { alg: 'HS384', typ: 'JWT' })}`);
    await expectForbidden(`${poster}?token=not-a-token`);

    const image = await expectOk(await tokenized(poster));
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await image.text()).toMatch(/^<svg [^>]*width="720" height="405"/);
  });

  it('query parameters are claims: a width the token carries applies; one it does not carry, or another one, is 403', async () => {
    const poster = `${ORIGIN}/v2/media/${withHls}/poster.jpg`;
    const small = await expectOk(await tokenized(`${poster}?width=320`));
    expect(await small.text()).toMatch(/^<svg [^>]*width="320" height="180"/);
    // The width in the token alone.
    const claimed = await expectOk(await tokenized(poster, later(), SIGNING_SECRET, { width: 480 }));
    expect(await claimed.text()).toMatch(/^<svg [^>]*width="480" height="270"/);
    const token = new URL(await tokenized(`${poster}?width=320`)).searchParams.get('token');
    await expectForbidden(`${poster}?width=640&token=${token}`);
    await expectForbidden(`${poster}?width=320&width=640&token=${token}`);
    const bare = new URL(await tokenized(poster)).searchParams.get('token');
    await expectForbidden(`${poster}?width=320&token=${bare}`);
  });

  it('a thumbnail: /v2/media/<media>/thumbnails/<id>.jpg takes a token too, its width a claim', async () => {
    const created = await callJson('POST', `/v2/sites/${SEALED_ID}/thumbnails/`, {
      body: { relationships: { media: [{ id: withHls }] }, upload: { source_type: 'thumbstrip_image', source_media_id: withHls, video_position: 3 } },
    });
    expect(created.status).toBe(201);
    const url = created.body.delivery_url as string;
    expect(url).toBe(`${ORIGIN}/v2/media/${withHls}/thumbnails/${created.body.id}.jpg`);
    await expectForbidden(url);
    await expectForbidden(`${url}?width=320`);
    await expectForbidden(await tokenized(url, later(), 'another-secret'));
    await expectForbidden(await tokenized(url, now() - 1));
    const image = await expectOk(await tokenized(`${url}?width=320`));
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await image.text()).toMatch(/^<svg [^>]*width="320" height="180"/);
  });
});

describe('the controls', () => {
  const signing = (site: string, body?: unknown) => control(body === undefined ? 'GET' : 'PUT', `sites/${site}/url-signing`, body);

  it('GET and PUT /_sandbox/sites/<site>/url-signing read and switch enforcement, until the next reset', async () => {
    expect(await (await signing(SEALED_ID)).json()).toEqual({ site: SEALED_ID, enforce: true, secret_source: 'SIGNED_SITE_SECRET' });
    const mp4 = (await renditionsOf(SEALED_ID, mp4Only)).find((r) => r.format === 'mp4')!.delivery_url;
    await expectForbidden(mp4);

    const off = await signing(SEALED_ID, { enforce: false });
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ site: SEALED_ID, enforce: false, secret_source: 'SIGNED_SITE_SECRET' });
    expect((await catalog()).sites.find((s) => s.id === SEALED_ID)!.url_signing).toEqual({ enforce: false, secret_source: 'SIGNED_SITE_SECRET' });
    await (await expectOk(mp4)).body?.cancel();
    await (await expectOk(`${ORIGIN}/v2/media/${mp4Only}/poster.jpg`)).body?.cancel();
    // Not enforced, a URL signed wrongly is still refused and one signed rightly still plays.
    await expectForbidden(await signed(mp4, later(), 'another-secret'));
    await expectForbidden(await signed(mp4, now() - 1));
    await (await expectOk(await signed(mp4))).body?.cancel();

    expect(await (await signing(SEALED_ID, { enforce: true })).json()).toMatchObject({ enforce: true });
    await expectForbidden(mp4);
    await signing(SEALED_ID, { enforce: false });
    await reset({ rate_limit_per_minute: 10_000 });
    expect(await (await signing(SEALED_ID)).json()).toMatchObject({ enforce: true });
    await expectForbidden(mp4);
  });

  it('another site enforces with its derived secret once switched on; unsigned before, as it always was', async () => {
    const { big } = await sites();
    const id = big.media.published[0]!;
    const mp4 = (await renditionsOf(big.id, id)).find((r) => r.format === 'mp4')!.delivery_url;
    const poster = `${ORIGIN}/v2/media/${id}/poster.jpg`;
    expect(await (await signing(big.id)).json()).toEqual({ site: big.id, enforce: false, secret_source: 'derived' });
    await (await expectOk(mp4)).body?.cancel();
    await (await expectOk(poster)).body?.cancel();
    const secret = await derivedSecret(big.id);
    await (await expectOk(await signed(mp4, later(), secret))).body?.cancel();
    await expectForbidden(await signed(mp4, later(), SIGNING_SECRET));

    await signing(big.id, { enforce: true });
    await expectForbidden(mp4);
    await expectForbidden(poster);
    await expectForbidden(await signed(mp4, later(), SIGNING_SECRET));
    await (await expectOk(await signed(mp4, later(), secret))).body?.cancel();
    await (await expectOk(await tokenized(poster, later(), secret))).body?.cancel();
    // The signing site is untouched by another's switch, and the small site still delivers unsigned.
    expect(await (await signing(SEALED_ID)).json()).toMatchObject({ enforce: true });
    const { small } = await sites();
    await (await expectOk(`${ORIGIN}/v2/media/${small.media.published[0]}/poster.jpg`)).body?.cancel();
  });

  it('refuses a bad body (400), an unknown site (404) and another method (405)', async () => {
    for (const body of [{}, { enforce: 'yes' }, { enforce: true, secret: 'x' }]) {
      const response = await signing(SEALED_ID, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual(errorShape('invalid_parameter'));
    }
    const unknown = await signing('zzzzzzzz');
    expect(unknown.status).toBe(404);
    await unknown.body?.cancel();
    const post = await control('POST', `sites/${SEALED_ID}/url-signing`, { enforce: false });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, PUT');
    await post.body?.cancel();
    expect(await (await signing(SEALED_ID)).json()).toMatchObject({ enforce: true });
  });
});
