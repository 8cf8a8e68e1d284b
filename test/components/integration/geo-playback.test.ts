/**
 * Geo-bound playback in real Chromium against the real worker and sandbox (test/run-browser-tests.mjs, DEV_MODE on:
 * `x-reelgate-dev-ip`, or `?dev_ip=` on a playback URL, names the visitor; `x-reelgate-dev-now` the time expiry is
 * judged at). A gated item of the europe site plays for a Berlin visitor through the worker's playback URLs only (MP4
 * and HLS, poster and captions); the same URLs replayed from New York, after expiry, or with one character changed are
 * refused. Ids come from the sandbox's deterministic seed; addresses from its geo fixtures.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../components/index.ts';
import type { ErrorResponse, FeedResponse, MediaResponse } from '../../../worker/contract/public-api.ts';
import { $, untilState } from '../support/dom.ts';

const EUROPE_SITE = '93QufRA9';
const LIVE_MUSIC = 'TwZWDpHr';
const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';
const HLS = 'application/vnd.apple.mpegurl';
const PLAYBACK = /^\/api\/play\/[A-Za-z0-9_-]+\/[A-Za-z0-9._~/-]+$/;

function get(path: string, ip: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  // Past the browser's cache: the same URL is asked again as another visitor (playback bytes are `private, max-age`).
  return fetch(path, { cache: 'no-store', ...init, headers: { 'x-reelgate-dev-ip': ip, ...init.headers } });
}

async function json<T>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).to.equal(200);
  return response.json() as Promise<T>;
}

async function expectRefused(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).to.equal(status);
  const body = (await response.json()) as ErrorResponse;
  expect(body.errors[0]!.code).to.equal(code);
}

/** A gated video of the europe site with MP4 and HLS renditions, captions and a poster, as a Berlin visitor gets it. */
async function gatedMedia(): Promise<MediaResponse> {
  const feed = await json<FeedResponse>(await get(`/api/sites/${EUROPE_SITE}/playlists/${LIVE_MUSIC}?page_length=50`, BERLIN));
  for (const item of feed.items) {
    const media = await json<MediaResponse>(await get(`/api/sites/${EUROPE_SITE}/media/${item.id}`, BERLIN));
    if (media.tracks.length && media.poster && media.sources.some((s) => s.type === HLS) &&
      media.sources.some((s) => s.type === 'video/mp4')) return media;
  }
  throw new Error('no gated video with captions, HLS and MP4 in the europe site');
}

const withDevIp = (path: string, ip: string) => `${path}?dev_ip=${ip}`;

/** The test server's gate (test/components/support/playback-gate.mjs): arm it (`''`), or `'/drop'` its connection. */
async function gate(control: '' | '/drop', body: unknown = {}): Promise<void> {
  const response = await fetch(`/__reelgate-test/gate${control}`, { method: 'POST', body: JSON.stringify(body) });
  expect(response.ok, `gate${control}`).to.equal(true);
}
const uris = (playlist: string) => playlist.split('\n').filter((line) => line && !line.startsWith('#'));

/** Plays a media element muted until it has advanced, or fails with its error code. */
async function playsFor(video: HTMLVideoElement, seconds = 0.3): Promise<void> {
  video.muted = true;
  let failed: number | null = null;
  video.addEventListener('error', () => { failed = video.error?.code ?? -1; });
  await video.play().catch(() => {});
  await waitUntil(() => failed !== null || video.currentTime > seconds, 'the video never advanced', { timeout: 15000 });
  expect(failed, `media error ${failed}`).to.equal(null);
}

/** Resolves true when the element loads, false when it errors. */
function loads(el: HTMLImageElement | HTMLVideoElement, src: string): Promise<boolean> {
  return new Promise((resolve) => {
    el.addEventListener(el instanceof HTMLImageElement ? 'load' : 'loadeddata', () => resolve(true), { once: true });
    el.addEventListener('error', () => resolve(false), { once: true });
    el.src = src;
  });
}

describe('geo-bound playback against the real worker', () => {
  let media: MediaResponse;
  before(async () => {
    media = await gatedMedia();
  });
  afterEach(() => {
    delete window.reelgate;
  });

  it('hands a Berlin visitor only playback URLs of this worker: sources, HLS, poster and captions', () => {
    const urls = [media.poster!, ...media.sources.map((s) => s.url), ...media.tracks.map((t) => t.url)];
    for (const url of urls) expect(url).to.match(PLAYBACK);
    for (const path of ['/videos/', '/manifests/', '/tracks/', '/strips/', '/v2/media/']) expect(JSON.stringify(media)).not.to.contain(path);
  });

  it('<reel-player> plays the gated item for a Berlin visitor through playback URLs, with poster and captions', async () => {
    window.reelgate = { devIp: BERLIN };
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: 640px"><reel-player site=${EUROPE_SITE} media=${media.id}></reel-player></div>`);
    const player = wrapper.querySelector('reel-player')!;
    await untilState(player, 'complete');
    const video = $(player, 'video') as HTMLVideoElement;
    // HLS through MSE: hls.js asks for the master, variants and segments, all playback URLs of this worker.
    expect(player.engine).to.equal('mse');
    expect(new URL(video.getAttribute('poster')!).pathname).to.equal(media.poster);
    const track = video.querySelector('track')!;
    expect(new URL(track.getAttribute('src')!).pathname).to.match(PLAYBACK);
    await playsFor(video);
    const master = media.sources.find((s) => s.type === HLS)!.url;
    const played = performance.getEntriesByType('resource').map((e) => new URL(e.name))
      .filter((url) => url.pathname.startsWith('/api/play/'));
    expect(played.map((url) => url.pathname)).to.include(master);
    expect(played.length).to.be.greaterThan(2);
    for (const url of played) {
      expect(url.origin).to.equal(location.origin);
      expect(url.pathname).to.match(PLAYBACK);
      expect(url.searchParams.get('dev_ip')).to.equal(BERLIN);
    }
    // The captions load through their playback URL.
    track.track.mode = 'hidden';
    await waitUntil(() => track.readyState === HTMLTrackElement.LOADED || track.readyState === HTMLTrackElement.ERROR,
      'the captions never loaded', { timeout: 10000 });
    expect(track.readyState).to.equal(HTMLTrackElement.LOADED);
    expect(track.track.cues!.length).to.be.greaterThan(0);
    expect(await loads(new Image(), withDevIp(media.poster!, BERLIN))).to.equal(true);
  });

  it('plays the gated MP4 for a Berlin visitor, and the same URL refuses to load as a New York visitor', async () => {
    const mp4 = media.sources.find((s) => s.type === 'video/mp4')!.url;
    const allowed = document.createElement('video');
    document.body.append(allowed);
    try {
      allowed.src = withDevIp(mp4, BERLIN);
      await playsFor(allowed);
      const denied = document.createElement('video');
      expect(await loads(denied, withDevIp(mp4, NEW_YORK))).to.equal(false);
      expect(denied.error?.code).to.equal(MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED);
    } finally {
      allowed.remove();
    }
  });

  it('plays the gated HLS item for a Berlin visitor: every variant, segment and subtitle URI is a playback URL', async () => {
    const master = media.sources.find((s) => s.type === HLS)!.url;
    const text = await (await get(master, BERLIN)).text();
    const variants = uris(text);
    expect(variants.length).to.be.greaterThanOrEqual(2);
    const subtitles = [...text.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!);
    for (const uri of [...variants, ...subtitles]) expect(uri).to.match(PLAYBACK);
    for (const variant of variants) {
      const segments = uris(await (await get(variant, BERLIN)).text());
      expect(segments.length).to.be.greaterThanOrEqual(3);
      for (const segment of segments) expect(segment).to.match(PLAYBACK);
      // The first, a middle and the last segment play (every one would spend a minute of the visitor limit).
      for (const segment of [segments[0]!, segments[segments.length >> 1]!, segments[segments.length - 1]!]) {
        expect(segment).to.match(PLAYBACK);
        const bytes = new Uint8Array(await (await get(segment, BERLIN)).arrayBuffer());
        expect([bytes[0], bytes[188]]).to.deep.equal([0x47, 0x47]);
      }
    }
    // Where this Chromium plays HLS itself, it plays it through the same URLs.
    const video = document.createElement('video');
    if (video.canPlayType(HLS)) {
      document.body.append(video);
      try {
        video.src = withDevIp(master, BERLIN);
        await playsFor(video);
      } finally {
        video.remove();
      }
    }
  });

  it('refuses the same URLs replayed as a New York visitor, after expiry, and with one character changed', async () => {
    const hls = media.sources.find((s) => s.type === HLS)!.url;
    const segment = uris(await (await get(uris(await (await get(hls, BERLIN)).text())[0]!, BERLIN)).text())[0]!;
    const urls = [media.sources.find((s) => s.type === 'video/mp4')!.url, hls, segment, media.poster!, media.tracks[0]!.url];
    const later = String(Math.floor(Date.now() / 1000) + 24 * 3600);
    for (const url of urls) {
      const ok = await get(url, BERLIN);
      expect(ok.status, url).to.equal(200);
      await ok.arrayBuffer();
      await expectRefused(await get(url, NEW_YORK), 451, 'playback_denied');
      await expectRefused(await get(url, BERLIN, { headers: { 'x-reelgate-dev-now': later } }), 403, 'playback_expired');
      const [, token, rest] = /^\/api\/play\/([^/]+)\/(.+)$/.exec(url)!;
      const i = Math.floor(token!.length / 2);
      const tampered = `/api/play/${token!.slice(0, i)}${token![i] === 'A' ? 'B' : 'A'}${token!.slice(i + 1)}/${rest}`;
      await expectRefused(await get(tampered, BERLIN), 403, 'playback_invalid');
    }
    // The poster and the captions as elements load them: refused to New York.
    expect(await loads(new Image(), withDevIp(media.poster!, NEW_YORK))).to.equal(false);
    const response = await fetch(withDevIp(media.tracks[0]!.url, NEW_YORK));
    expect(response.status).to.equal(451);
  });

  it('<reel-player> renews a playback URL that expires mid-playback and resumes at the same position', async () => {
    // The first media answer's URLs live LIFETIME seconds (x-reelgate-dev-token-seconds, DEV_MODE only). The MP4's
    // first request is held part-way by the test server's gate (test/components/support/playback-gate.mjs) until the
    // URL has expired, then dropped as a failing network would: the element asks the worker for the rest with a range
    // and gets the worker's real 403 playback_expired. HLS is left out of the answers: this is about one long
    // progressive file (a native HLS player would fetch segment by segment).
    const LIFETIME = 6;
    window.reelgate = { devIp: BERLIN };
    const original = window.fetch;
    let mediaCalls = 0;
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.includes(`/media/${media.id}`)) return original(input, init);
      const headers = new Headers(init?.headers);
      if (++mediaCalls === 1) headers.set('x-reelgate-dev-token-seconds', String(LIFETIME));
      const response = await original(input, { ...init, headers });
      const body = (await response.json()) as MediaResponse;
      const mp4Only: MediaResponse = { ...body, sources: body.sources.filter((s) => s.type === 'video/mp4') };
      if (mediaCalls === 1) await gate('', { paths: mp4Only.sources.map((s) => s.url), fraction: 0.6 });
      return new Response(JSON.stringify(mp4Only), { status: response.status, headers: response.headers });
    };
    try {
      const wrapper = await fixture<HTMLDivElement>(html`
        <div style="inline-size: 640px"><reel-player site=${EUROPE_SITE} media=${media.id}></reel-player></div>`);
      const player = wrapper.querySelector('reel-player')!;
      await untilState(player, 'complete');
      const video = $(player, 'video') as HTMLVideoElement;
      const first = new URL(video.getAttribute('src')!).pathname;
      let errorCode: number | null = null;
      video.addEventListener('error', () => { errorCode = video.error?.code ?? -1; }, { once: true });
      let reloaded = false;
      video.addEventListener('emptied', () => { reloaded = true; }, { once: true });

      // Playing from the part that arrived, while the URL is still good.
      video.muted = true;
      await video.play().catch(() => {});
      await waitUntil(() => video.currentTime > 0.5, 'the video never advanced', { timeout: 15000 });
      // The URL expires for real: the worker's own answer says so.
      await waitUntil(async () => (await get(first, BERLIN, { method: 'HEAD' })).status === 403,
        'the playback URL never expired', { timeout: (LIFETIME + 10) * 1000, interval: 250 });
      const position = video.currentTime;
      expect(mediaCalls).to.equal(1);
      await gate('/drop');

      await waitUntil(() => mediaCalls === 2, 'the media was never asked for again', { timeout: 15000 });
      await waitUntil(() => reloaded && video.readyState >= HTMLMediaElement.HAVE_METADATA && !video.paused &&
        video.currentTime >= position, 'playback did not resume where it was', { timeout: 15000 });
      // The element's own request for the rest of the file was refused by the worker, and that is what it reported.
      const log = (await (await fetch('/__reelgate-test/gate/log')).json()) as
        Array<{ method: string; range: string | null; status: number; code: string | null }>;
      const refused = log.filter((r) => r.method === 'GET' && r.status === 403);
      expect(refused.length, JSON.stringify(log)).to.be.greaterThan(0);
      expect(refused.every((r) => r.code === 'playback_expired' && /^bytes=[1-9]\d*-/.test(r.range ?? '')), JSON.stringify(log))
        .to.equal(true);
      expect(errorCode).to.equal(MediaError.MEDIA_ERR_NETWORK);
      expect($(player, '[part="playback-error"]')).to.equal(null);
      const renewed = new URL(video.currentSrc).pathname;
      expect(renewed).to.match(PLAYBACK);
      expect(renewed).not.to.equal(first);
    } finally {
      window.fetch = original;
      await gate('/drop');
    }
  });
});
