/**
 * Sealed origin (signed delivery URLs) in real Chromium against the real worker and sandbox
 * (test/run-browser-tests.mjs, DEV_MODE on). The sandbox's signing site enforces URL token signing: its delivery host
 * (the sandbox's own origin) answers 403 to a file or picture URL that is unsigned, wrongly signed or expired. The
 * worker, configured with `url_signing` for that site (wrangler.toml), signs every platform URL it hands out about
 * content under no policy. Here every element works for an allowed visitor all the same: the shelf's pictures, the
 * player (MP4, HLS, poster, captions, storyboard), the player configuration, the server-rendered demo page, oEmbed;
 * URLs asked to expire do; and the same files asked for without a signature are refused; and a signed URL that expires
 * mid-play is renewed unnoticed.
 *
 * Ids come from the sandbox's /_sandbox/catalog (forwarded by the test server); which media play HLS or MP4 only, or
 * carry captions, from the worker's own answers. What the browser's network did (statuses a page cannot read: a media
 * element's own requests) comes from its DevTools
 * connection (`reelgate-network`, web-test-runner.config.mjs).
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import '../../../components/index.ts';
import type { ReelPlayer } from '../../../components/reel-player/reel-player.ts';
import type { FeedResponse, MediaResponse, PlayerResponse } from '../../../worker/contract/public-api.ts';
import { $, $$, untilState } from '../support/dom.ts';

/** The site wrangler.toml configures with `url_signing` (the sandbox seeds it as its signing site). */
const SITE = 'nvsLN98U';
/** The worker's demo page (`/`), through the test server (web-test-runner.config.mjs): it sends no CORS headers. */
const DEMO_PAGE = '/__reelgate-test/worker/';
const HLS = 'application/vnd.apple.mpegurl';
/** What the worker promises (worker/docs/sealed-origin.md): expiries at least an hour away, on 5-minute windows. */
const LIFETIME_SECONDS = 3600;
const WINDOW_SECONDS = 300;
/** Slack for the time between the worker's answer and this check (a feed page is held rendered within its window). */
const ANSWER_AGE_SECONDS = 600;

interface CatalogSite {
  id: string;
  name: string;
  playlists: Record<string, string[]>;
  players: string[];
  media: Record<string, string[]>;
  url_signing: { enforce: boolean; secret_source: string };
}
interface NetworkEntry {
  id: string;
  url: string;
  method: string;
  type: string | null;
  /** DevTools timestamps, in seconds. */
  sent: number;
  ended: number | null;
  status: number | null;
  failed: string | null;
}
interface OEmbed { type: string; title: string; thumbnail_url?: string }

const network = async (action: 'start' | 'read' | 'stop') =>
  (await executeServerCommand<{ entries: NetworkEntry[] }, { action: string }>('reelgate-network', { action })).entries;

/**
 * A worker answer, waiting out a busy budget as the elements do (a fresh worker answers a burst of first loads with
 * 429 and a Retry-After of a second or two).
 */
async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(path, init);
    const wait = Number(response.headers.get('retry-after'));
    if ((response.status === 429 || response.status === 503) && attempt < 5 && wait > 0 && wait <= 10) {
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      continue;
    }
    expect(response.status, `${path}: ${await response.clone().text()}`).to.equal(200);
    return response.json() as Promise<T>;
  }
}

function base64urlJson(part: string): Record<string, unknown> {
  return JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
}

/** The URL without its signature (`exp`, `sig`, `token`), as anyone who knows a media id can write it. */
function unsigned(url: string): string {
  const plain = new URL(url);
  for (const name of ['exp', 'sig', 'token']) plain.searchParams.delete(name);
  return plain.href;
}

/** When a signed URL expires (unix seconds), by its scheme. */
function expiryOf(url: string): number {
  const parsed = new URL(url);
  if (parsed.pathname.startsWith('/v2/')) return Number(base64urlJson(parsed.searchParams.get('token')!.split('.')[1]!).exp);
  return Number(parsed.searchParams.get('exp'));
}

/**
 * Fails unless `url` is an absolute URL of the delivery host signed by the scheme its path takes: `exp` and a 32-hex
 * `sig` (once each) for files; for `/v2/` pictures a JWT naming the path as its `resource`, whose claims hold every
 * other query parameter with the same value. With `lifetime`, `exp` is on a window and at least the lifetime away.
 */
function expectSigned(url: string, delivery: string, what: string, lifetime = true): void {
  expect(url, `${what}: absolute`).to.match(/^https?:\/\//);
  const parsed = new URL(url);
  expect(parsed.origin, `${what}: on the delivery host`).to.equal(delivery);
  let exp: number;
  if (parsed.pathname.startsWith('/v2/')) {
    const tokens = parsed.searchParams.getAll('token');
    expect(tokens, `${what}: one token`).to.have.length(1);
    const [header, payload, signature] = tokens[0]!.split('.');
    expect(signature, `${what}: a JWT`).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(base64urlJson(header!)).to.deep.equal({ alg: 'HS256', typ: 'JWT' });
    const claims = base64urlJson(payload!);
    expect(claims.resource, `${what}: the token's resource`).to.equal(parsed.pathname);
    for (const [name, value] of parsed.searchParams) if (name !== 'token') expect(String(claims[name]), `${what}: claim ${name}`).to.equal(value);
    exp = Number(claims.exp);
  } else {
    expect(parsed.searchParams.getAll('exp'), `${what}: one exp`).to.have.length(1);
    expect(parsed.searchParams.getAll('sig'), `${what}: one sig`).to.have.length(1);
    expect(parsed.searchParams.get('sig'), `${what}: sig`).to.match(/^[0-9a-f]{32}$/);
    exp = Number(parsed.searchParams.get('exp'));
  }
  expect(Number.isInteger(exp), `${what}: exp`).to.equal(true);
  if (lifetime) {
    expect(exp % WINDOW_SECONDS, `${what}: exp on a ${WINDOW_SECONDS}-second window`).to.equal(0);
    expect(exp - Date.now() / 1000, `${what}: exp an hour away`).to.be.greaterThan(LIFETIME_SECONDS - ANSWER_AGE_SECONDS);
  }
}

/** The natural width of the image at `url` once loaded in this page, 0 when it fails. */
function imageWidth(url: string): Promise<number> {
  return new Promise((resolve) => {
    const image = new Image();
    image.addEventListener('load', () => resolve(image.naturalWidth), { once: true });
    image.addEventListener('error', () => resolve(0), { once: true });
    image.src = url;
  });
}

/** Every platform URL of a media answer (the storyboard included, as a `thumbnails` track). */
function urlsOf(media: MediaResponse): string[] {
  return [media.poster!, media.thumbnail!, ...media.thumbnails.map((t) => t.url), ...media.sources.map((s) => s.url),
    ...media.tracks.map((t) => t.url)];
}

/** A request the server has answered (not one still waiting, nor one the page cancelled before any answer). */
const answered = (entry: NetworkEntry) => entry.status !== null || (entry.failed !== null && entry.failed !== 'net::ERR_ABORTED');

/**
 * The network log once `ready` holds for it: DevTools' events reach the test server on their own connection, so they
 * may trail what the page has already seen.
 */
async function networkWhen(ready: (entries: NetworkEntry[]) => boolean, what: string): Promise<NetworkEntry[]> {
  let entries: NetworkEntry[] = [];
  try {
    await waitUntil(async () => ready(entries = await network('read')), what, { timeout: 10000, interval: 100 });
  } catch (error) {
    throw new Error(`${(error as Error).message}; the log: ${JSON.stringify(entries.map((e) => `${e.status} ${e.failed ?? ''} ${e.url}`))}`);
  }
  return entries;
}

/** The statuses the server answered each URL with, in the order asked, once each has `count` answers. */
async function statusesOf(urls: string[], count = 1): Promise<Map<string, Array<number | null>>> {
  const of = (entries: NetworkEntry[], url: string) => entries.filter((e) => e.url === url && answered(e))
    .sort((a, b) => a.sent - b.sent).map((e) => e.status);
  const entries = await networkWhen((all) => urls.every((url) => of(all, url).length >= count), `${count} answer(s) for each URL`);
  return new Map(urls.map((url) => [url, of(entries, url)]));
}

const uris = (playlist: string) => playlist.split('\n').filter((line) => line && !line.startsWith('#'));

/** A player with the toolbar row (the timeline, its storyboard previews), as wide as a page's column. */
async function mount(media: string, width = 640): Promise<ReelPlayer> {
  const wrapper = await fixture<HTMLDivElement>(html`
    <div style=${`inline-size: ${width}px`}><reel-player site=${SITE} media=${media} rows="toolbar title"></reel-player></div>`);
  const player = wrapper.querySelector('reel-player')!;
  await untilState(player, 'complete');
  return player;
}

/** Plays muted, as a viewer's press would (under MSE that first play attaches hls.js, which plays it again). */
async function play(video: HTMLVideoElement, past = 1): Promise<void> {
  video.muted = true;
  await video.play().catch(() => {});
  await waitUntil(() => !video.paused && video.currentTime > past,
    `it never played past ${past} s (paused ${video.paused}, at ${video.currentTime}, error ${video.error?.code ?? null})`,
    { timeout: 20000 });
}

/** A `<track>` of the video loaded (its file fetched and parsed): its cues. */
async function loadedCues(track: HTMLTrackElement): Promise<number> {
  track.track.mode = 'hidden';
  await waitUntil(() => track.readyState === HTMLTrackElement.LOADED || track.readyState === HTMLTrackElement.ERROR,
    `the ${track.kind} track never loaded`, { timeout: 10000 });
  expect(track.readyState, `${track.kind} ${track.src}`).to.equal(HTMLTrackElement.LOADED);
  return track.track.cues?.length ?? 0;
}

describe('sealed origin: the signing site through the real worker, with the sandbox enforcing signing', function () {
  this.timeout(90_000);
  let worker: string;
  let delivery: string;
  let site: CatalogSite;
  /** The site's manual playlist (the catalog's first). */
  let playlist: string;
  let feed: FeedResponse;
  /** The worker's answer for each of the playlist's media, in playlist order. */
  let media: MediaResponse[];
  const isVideo = (m: MediaResponse) => m.media_type === 'video';
  const hasHls = (m: MediaResponse) => m.sources.some((s) => s.type === HLS);
  const hasText = (m: MediaResponse) => m.tracks.some((t) => t.kind === 'captions' || t.kind === 'subtitles');
  /** The first video of the playlist that passes `test`. */
  const find = (what: string, test: (m: MediaResponse) => boolean): MediaResponse => {
    const found = media.find((m) => isVideo(m) && test(m));
    if (!found) throw new Error(`no ${what} in the signing site's playlist`);
    return found;
  };

  before(async () => {
    const servers = await executeServerCommand<{ worker: string | null; sandbox: string | null }, undefined>('reelgate-worker');
    expect(servers.worker, 'the integration suite needs the worker (REELGATE_TEST_WORKER)').to.be.a('string');
    expect(servers.sandbox, 'and the sandbox (REELGATE_TEST_SANDBOX)').to.be.a('string');
    worker = servers.worker!;
    delivery = new URL(servers.sandbox!).origin;
    const catalog = await getJson<{ sites: CatalogSite[] }>('/_sandbox/catalog');
    site = catalog.sites.find((s) => s.id === SITE)!;
    expect(site, `${SITE} in the catalog`).to.not.equal(undefined);
    expect(site.url_signing).to.deep.equal({ enforce: true, secret_source: 'SIGNED_SITE_SECRET' });
    expect(site.playlists.manual, 'a manual playlist').to.have.length.greaterThan(0);
    playlist = site.playlists.manual![0]!;
    feed = await getJson<FeedResponse>(`/api/sites/${SITE}/playlists/${playlist}?page_length=50`);
    expect(feed.items.length).to.equal(feed.total);
    media = [];
    for (const item of feed.items) media.push(await getJson<MediaResponse>(`/api/sites/${SITE}/media/${item.id}`));
  });
  afterEach(async () => {
    await network('stop');
  });

  it('hands out only signed delivery URLs: every picture, source and track of the playlist and its media', () => {
    for (const item of feed.items) {
      expectSigned(item.thumbnail!, delivery, `${item.id} feed thumbnail`);
      for (const t of item.thumbnails) expectSigned(t.url, delivery, `${item.id} feed thumbnail ${t.width}`);
    }
    for (const m of media) for (const url of urlsOf(m)) expectSigned(url, delivery, `${m.id} ${new URL(url).pathname}`);
    // Both kinds this suite plays are there.
    find('video with HLS', hasHls);
    find('video with MP4 files only', (m) => !hasHls(m));
  });

  it('<reel-playlist> shows the manual playlist; each card\'s signed picture loads', async () => {
    const el = await fixture<HTMLElementTagNameMap['reel-playlist']>(html`
      <reel-playlist site=${SITE} playlist=${playlist} page-size="50"></reel-playlist>`);
    await untilState(el, 'complete');
    expect($(el, '[part="title"]')!.textContent).to.equal(feed.playlist.title);
    const cards = $$(el, '[part="card"]');
    expect(cards.map((c) => c.dataset.media)).to.deep.equal(feed.items.map((i) => i.id));
    for (const card of cards) {
      const image = card.querySelector('img')!;
      expect(image, `${card.dataset.media} has a picture`).to.not.equal(null);
      // Lazy: a card loads its picture once it is near the viewport.
      card.scrollIntoView({ block: 'center' });
      await waitUntil(() => image.complete && image.currentSrc !== '', `${card.dataset.media}'s picture never finished`,
        { timeout: 10000 });
      expect(image.naturalWidth, `${card.dataset.media}'s picture ${image.currentSrc}`).to.be.greaterThan(0);
      expectSigned(image.currentSrc, delivery, `${card.dataset.media} card picture`);
    }
  });

  it('<reel-player> plays an MP4-only video: signed file, poster, captions and storyboard previews all load', async () => {
    const chosen = media.find((m) => isVideo(m) && !hasHls(m) && hasText(m)) ?? find('video with MP4 files only', (m) => !hasHls(m));
    await network('start');
    const player = await mount(chosen.id);
    expect(player.engine).to.equal('progressive');
    const video = player.video!;
    expectSigned(video.currentSrc || video.src, delivery, 'the video\'s file');
    // The poster the video shows: the worker's signed URL, and it loads.
    expectSigned(video.poster, delivery, 'poster');
    expect(await imageWidth(video.poster), `poster ${video.poster}`).to.be.greaterThan(0);
    await play(video);
    expect(video.error).to.equal(null);
    // Captions or subtitles: the <track> loads its signed file (cross-origin, so CORS on the delivery host) and has cues.
    const text = [...video.querySelectorAll('track')].find((t) => t.kind === 'captions' || t.kind === 'subtitles');
    if (hasText(chosen)) {
      expect(text, 'a captions track').to.not.equal(undefined);
      expectSigned(text!.src, delivery, 'captions');
      expect(await loadedCues(text!)).to.be.greaterThan(0);
    }
    // The storyboard: its WebVTT is read by the kit (fetch), and its previews show on the timeline: a frame of the
    // sheet that storyboard names, signed by the delivery host with the same expiry, which loads.
    const storyboard = chosen.tracks.find((t) => t.kind === 'thumbnails')!;
    expect(storyboard, 'a storyboard').to.not.equal(undefined);
    await waitUntil(() => $(player, '[part="timeline"]'), 'no timeline (chapters or storyboard never loaded)', { timeout: 10000 });
    const timeline = $(player, '[part="timeline"]') as HTMLInputElement;
    const box = timeline.getBoundingClientRect();
    timeline.dispatchEvent(new PointerEvent('pointermove', { clientX: box.left + box.width / 3, clientY: box.top + 2, bubbles: true }));
    await waitUntil(() => $(player, '[part="preview"]'), 'no storyboard preview on hover (its WebVTT never loaded)', { timeout: 10000 });
    const sheet = /^url\("(.+)"\)/.exec($(player, '[part="preview"]')!.style.backgroundImage)?.[1];
    expect(sheet, 'the preview names its sheet').to.be.a('string');
    expect(new URL(sheet!).pathname).to.match(new RegExp(`^/strips/${chosen.id}-\\d+\\.svg$`));
    expectSigned(sheet!, delivery, 'storyboard sheet', false);
    expect(expiryOf(sheet!)).to.equal(expiryOf(storyboard.url));
    expect(await imageWidth(sheet!), `sheet ${sheet}`).to.be.greaterThan(0);
    // Everything the page asked of the delivery host was signed and served.
    const onDelivery = (entries: NetworkEntry[]) => entries.filter((e) => new URL(e.url).origin === delivery);
    const asked = onDelivery(await networkWhen((all) => onDelivery(all).some((e) => e.url === storyboard.url && answered(e)),
      'the storyboard in the network log'));
    for (const entry of asked.filter(answered)) {
      expect([200, 206, 304], `${entry.url}: ${entry.status} ${entry.failed ?? ''}`).to.include(entry.status);
      expect(unsigned(entry.url), `${entry.url} was signed`).to.not.equal(entry.url);
    }
  });

  it('<reel-player> plays an HLS video through MSE: signed playlists and segments, captions load', async () => {
    const chosen = media.find((m) => hasHls(m) && hasText(m)) ?? find('video with HLS', hasHls);
    await network('start');
    const player = await mount(chosen.id);
    expect(player.engine).to.equal('mse');
    const video = player.video!;
    expect(await imageWidth(video.poster), `poster ${video.poster}`).to.be.greaterThan(0);
    await play(video, 2);
    expect(video.src).to.match(/^blob:/);
    expect(video.error).to.equal(null);
    if (hasText(chosen)) {
      const text = [...video.querySelectorAll('track')].find((t) => t.kind === 'captions' || t.kind === 'subtitles')!;
      expect(text, 'a captions track').to.not.equal(undefined);
      expect(await loadedCues(text)).to.be.greaterThan(0);
    }
    // hls.js followed the master's signed variants and the variants' signed segments; the delivery host served them all.
    const master = new URL(chosen.sources.find((s) => s.type === HLS)!.url);
    const onDelivery = (entries: NetworkEntry[]) => entries.filter((e) => new URL(e.url).origin === delivery && answered(e))
      .map((e) => ({ ...e, path: new URL(e.url).pathname }));
    const asked = onDelivery(await networkWhen((all) => {
      const paths = onDelivery(all).map((e) => e.path);
      return paths.includes(master.pathname) && paths.some((p) => /\/seg-\d+\.ts$/.test(p)) &&
        paths.some((p) => p.startsWith(`/manifests/${chosen.id}/`) && p.endsWith('/index.m3u8'));
    }, 'the master, a variant and a segment in the network log'));
    for (const entry of asked) {
      expect([200, 206, 304], `${entry.url}: ${entry.status} ${entry.failed ?? ''}`).to.include(entry.status);
      expectSigned(entry.url, delivery, entry.url, false);
    }
  });

  it('<reel-player-config> shows the site\'s player', async () => {
    const [id] = site.players;
    const answer = await getJson<PlayerResponse>(`/api/sites/${SITE}/players/${id}`);
    const el = await fixture<HTMLElementTagNameMap['reel-player-config']>(html`
      <reel-player-config site=${SITE} player=${id!}></reel-player-config>`);
    await untilState(el, 'complete');
    expect($(el, '[part="name"]')!.textContent).to.equal(answer.name);
    const keys = $$(el, 'dt').map((dt) => dt.querySelector('code')!.textContent);
    expect(keys).to.have.members(Object.keys(answer.setup_config));
  });

  it('renders the demo page it serves with signed, absolute platform URLs (poster, JSON-LD) that load', async () => {
    // The demo page (demo/index.html, served by the worker from dist/) has a section of the signing site: a shelf and
    // the player that follows it. Asked for as a crawler asks (no page origin), through the test server.
    const response = await fetch(DEMO_PAGE);
    expect(response.status, await response.clone().text()).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');

    // The shelf: rendered with the titles of its first page-size items, as the API answers them.
    const shelf = page.querySelector(`reel-playlist[site="${SITE}"]`)!;
    expect(shelf, `the demo page has a shelf of ${SITE}`).to.not.equal(null);
    const shown = shelf.getAttribute('playlist')!;
    expect(site.playlists.manual).to.include(shown);
    const size = Number(shelf.getAttribute('page-size') ?? 12);
    const items = (await getJson<FeedResponse>(`/api/sites/${SITE}/playlists/${shown}?page_length=${size}`)).items;
    const rendered = shelf.querySelector(':scope > .reel-fallback[data-reelgate-rendered="playlist"]')!;
    expect(rendered, 'the shelf rendered').to.not.equal(null);
    expect([...rendered.querySelectorAll('li a')].map((a) => a.textContent)).to.deep.equal(items.map((i) => i.title));

    // The player: its media's poster, as the element and its video will load it.
    const player = page.querySelector(`reel-player[site="${SITE}"]`)!;
    expect(player, `the demo page has a player of ${SITE}`).to.not.equal(null);
    const featured = player.getAttribute('media')!;
    expect(site.media.published).to.include(featured);
    expect(site.players).to.include(player.getAttribute('player'));
    expect(player.querySelector('[data-reelgate-rendered="player"]'), 'the player rendered').to.not.equal(null);
    const poster = player.getAttribute('poster')!;
    expect(new URL(poster).pathname).to.equal(`/v2/media/${featured}/poster.jpg`);
    expectSigned(poster, delivery, 'rendered poster');

    // JSON-LD: a VideoObject per video of the site the page names, each picture a signed, absolute platform URL.
    const ld = JSON.parse(page.querySelector('script[type="application/ld+json"]')!.textContent!) as
      { '@graph': Array<{ name: string; embedUrl: string; thumbnailUrl?: string[] }> };
    const videos = ld['@graph'].filter((v) => v.embedUrl.startsWith(`${worker}/embed/${SITE}/media/`));
    const featuredTitle = (await getJson<MediaResponse>(`/api/sites/${SITE}/media/${featured}`)).title;
    expect(videos.map((v) => v.name)).to.have.members([...new Set([featuredTitle, ...items.map((i) => i.title)])]);
    const pictures: string[] = [poster];
    for (const video of videos) {
      expect(video.thumbnailUrl, `${video.name} has pictures`).to.have.length.greaterThan(0);
      for (const url of video.thumbnailUrl!) {
        expect(new URL(url).href, 'absolute').to.equal(url);
        expectSigned(url, delivery, `JSON-LD ${video.name}`);
        pictures.push(url);
      }
    }
    const widths = await Promise.all(pictures.map(imageWidth));
    expect(pictures.filter((_, i) => widths[i] === 0), 'pictures that did not load').to.deep.equal([]);
  });

  it('answers oEmbed for a media of the site with a signed thumbnail_url that loads', async () => {
    const [item] = feed.items;
    const url = `${worker}/embed/${SITE}/media/${item!.id}`;
    const answer = await getJson<OEmbed>(`/oembed?url=${encodeURIComponent(url)}&format=json&maxwidth=560`);
    expect([answer.type, answer.title]).to.deep.equal(['video', item!.title]);
    expect(answer.thumbnail_url, 'a thumbnail_url').to.be.a('string');
    expectSigned(answer.thumbnail_url!, delivery, 'oEmbed thumbnail_url');
    expect(await imageWidth(answer.thumbnail_url!), answer.thumbnail_url).to.be.greaterThan(0);
  });

  it('refuses the same media\'s files to a direct browser request without a signature (403)', async () => {
    const chosen = find('video with HLS', hasHls);
    const master = chosen.sources.find((s) => s.type === HLS)!.url;
    // The signed master names signed variants, which name signed segments: a segment of the first variant.
    const variant = new URL(uris(await (await fetch(master)).text())[0]!, master).href;
    const segment = new URL(uris(await (await fetch(variant)).text())[0]!, variant).href;
    const signed = [...new Set([...urlsOf(chosen), variant, segment])];
    const mp4 = chosen.sources.find((s) => s.type === 'video/mp4')!.url;
    const tampered = mp4.replace(/sig=([0-9a-f]{31})([0-9a-f])/, (_, head: string, last: string) => `sig=${head}${last === '0' ? '1' : '0'}`);
    expect(tampered).to.not.equal(mp4);
    await network('start');
    // As any page could ask: no CORS, nothing cached (the statuses are read from the browser's network log).
    const ask = (url: string) => fetch(url, { mode: 'no-cors', cache: 'no-store' }).then((r) => r.arrayBuffer());
    for (const url of signed) await ask(url);
    for (const url of signed) await ask(unsigned(url));
    await ask(tampered);
    const statuses = await statusesOf([...signed, ...signed.map(unsigned), tampered]);
    for (const url of signed) {
      expect(statuses.get(url), `signed ${url}`).to.deep.equal([200]);
      expect(statuses.get(unsigned(url)), `unsigned ${unsigned(url)}`).to.deep.equal([403]);
    }
    expect(statuses.get(tampered), `wrongly signed ${tampered}`).to.deep.equal([403]);
    // And as the elements would load them: the unsigned poster is no picture.
    expect(await imageWidth(unsigned(chosen.poster!))).to.equal(0);
  });

  it('names URLs that expire when asked to (x-reelgate-dev-token-seconds): served until then, 403 after', async () => {
    // What the renewal below relies on: one media and one feed answer whose signed URLs live LIFETIME seconds.
    const LIFETIME = 10;
    const chosen = find('video with HLS and tracks', (m) => hasHls(m) && m.tracks.length > 0);
    const short = { headers: { 'x-reelgate-dev-token-seconds': String(LIFETIME) }, cache: 'no-store' as const };
    const answer = await getJson<MediaResponse>(`/api/sites/${SITE}/media/${chosen.id}`, short);
    const page = await getJson<FeedResponse>(`/api/sites/${SITE}/playlists/${playlist}?page_length=50`, short);
    // Each answer's URLs share one expiry, LIFETIME seconds from when it was answered.
    const shortened = [urlsOf(answer), page.items.flatMap((i) => [i.thumbnail!, ...i.thumbnails.map((t) => t.url)])];
    for (const urls of shortened) {
      for (const url of urls) expectSigned(url, delivery, `shortened ${url}`, false);
      expect(new Set(urls.map(expiryOf)).size, 'one expiry per answer').to.equal(1);
      expect(expiryOf(urls[0]!) - Date.now() / 1000).to.be.within(0, LIFETIME + 1);
    }
    const expiry = Math.max(...shortened.map((urls) => expiryOf(urls[0]!)));
    await network('start');
    const ask = (url: string) => fetch(url, { mode: 'no-cors', cache: 'no-store' }).then((r) => r.arrayBuffer());
    // A picture, the HLS master and a track of the media answer, and a card's picture of another media in the feed's.
    const card = page.items.find((i) => i.id !== chosen.id)!;
    const sample = [answer.poster!, answer.sources.find((s) => s.type === HLS)!.url, answer.tracks[0]!.url, card.thumbnail!];
    for (const url of sample) await ask(url);
    expect(Date.now() / 1000, 'asked before the expiry').to.be.below(Math.min(...shortened.map((urls) => expiryOf(urls[0]!))));
    await waitUntil(() => Date.now() / 1000 > expiry + 1, 'the clock never passed the expiry', { timeout: (LIFETIME + 5) * 1000 });
    for (const url of sample) await ask(url);
    const statuses = await statusesOf(sample, 2);
    for (const url of sample) expect(statuses.get(url), `before and after expiry: ${url}`).to.deep.equal([200, 403]);
  });

  // An ungated video's signed platform URL expires mid-play: the delivery host's 403 (CORS-open, so hls.js reads it)
  // makes the player ask the worker again (`renew`: a signed URL expires like a playback URL), and it plays on.
  it('renews a signed URL that expires mid-play: an ungated HLS video plays on, and the delivery host\'s 403 is what asked', async () => {
    // The first media answer's URLs live LIFETIME seconds (x-reelgate-dev-token-seconds, DEV_MODE only); the renewal
    // is a plain answer. Both skip the browser's cache: an earlier test of this page may hold this media's answer (it
    // may be kept five minutes), while in real life a renewal comes after the hour a URL lives, long after that.
    const LIFETIME = 8;
    const chosen = find('video with HLS', (m) => hasHls(m) && (m.duration ?? 0) >= 120);
    const original = window.fetch;
    const calls: number[] = [];
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.includes(`/api/sites/${SITE}/media/${chosen.id}`)) return original(input, init);
      const headers = new Headers(init?.headers);
      calls.push(Date.now());
      if (calls.length === 1) headers.set('x-reelgate-dev-token-seconds', String(LIFETIME));
      return original(input, { ...init, headers, cache: 'no-store' });
    };
    await network('start');
    try {
      const player = await mount(chosen.id);
      expect(player.engine).to.equal('mse');
      const first = player.mediaItem!.sources.find((s) => s.type === HLS)!.url;
      const expiry = expiryOf(first);
      expect(expiry - Date.now() / 1000, 'the first answer\'s URLs are shortened').to.be.at.most(LIFETIME + 1);
      const video = player.video!;
      await play(video);
      // The URL is past its expiry: from now on the delivery host refuses it, and everything it names.
      await waitUntil(() => Date.now() / 1000 > expiry + 1, 'the clock never passed the expiry', { timeout: (LIFETIME + 5) * 1000 });
      const atExpiry = video.currentTime;
      // No seek, no click: playback goes on by itself; hls.js soon needs a segment past what it has buffered.
      const state = async () => JSON.stringify({ calls: calls.length, at: video.currentTime, paused: video.paused,
        error: video.error?.code ?? null, playbackError: Boolean($(player, '[part="playback-error"]')),
        refused: (await network('read')).filter((e) => (e.status ?? 0) >= 400 || e.failed).map((e) => `${e.status} ${e.failed ?? ''} ${e.url}`) });
      try {
        await waitUntil(() => calls.length === 2, 'the media was never asked for again', { timeout: 60000 });
      } catch (error) {
        throw new Error(`${(error as Error).message}: ${await state()}`);
      }
      await waitUntil(() => !video.paused && video.currentTime > atExpiry + 3,
        `playback did not go on past ${atExpiry} s`, { timeout: 30000 });
      expect(calls, 'renewed once').to.have.length(2);
      expect($(player, '[part="playback-error"]'), 'the viewer was told nothing').to.equal(null);
      expect(player.engine).to.equal('mse');
      // What asked: the delivery host refused a URL of the first answer (its expiry) before the worker was asked again.
      const mediaAsked = (all: NetworkEntry[]) => all.filter((e) => e.url.includes(`/api/sites/${SITE}/media/${chosen.id}`))
        .sort((a, b) => a.sent - b.sent);
      // Every 403 was for the expired URLs: the fresh ones (asked after the renewal, not of the first answer's expiry)
      // opened. A request still in flight when the log is read, or one hls.js aborted, has no status and says nothing.
      const freshOf = (all: NetworkEntry[]) => {
        const renewal = mediaAsked(all)[1];
        return renewal ? all.filter((e) => new URL(e.url).origin === delivery && e.sent > renewal.sent && answered(e) &&
          new URL(e.url).searchParams.get('exp') !== String(expiry)) : [];
      };
      const entries = await networkWhen((all) => freshOf(all).length > 0, 'the renewal and a fresh URL answered in the network log');
      const again = mediaAsked(entries)[1]!;
      const refusals = entries.filter((e) => new URL(e.url).origin === delivery && e.status === 403 &&
        new URL(e.url).searchParams.get('exp') === String(expiry));
      expect(refusals.length, 'the delivery host refused an expired URL').to.be.greaterThan(0);
      expect(refusals.some((e) => (e.ended ?? Infinity) <= again!.sent), 'that refusal came before the renewal').to.equal(true);
      const fresh = freshOf(entries);
      for (const entry of fresh) expect([200, 206, 304], `${entry.url}: ${entry.status} ${entry.failed ?? ''}`).to.include(entry.status);
    } finally {
      window.fetch = original;
    }
  });
});
