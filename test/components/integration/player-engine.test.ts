/**
 * `<reel-player>`'s playback engine and kit in real Chromium against the real worker and sandbox: HLS plays
 * through MSE (hls.js), adapts when the network is throttled (DevTools throttling, the `reelgate-throttle` command of
 * web-test-runner.config.mjs), says when it stalls (its segment requests held: the `reelgate-hold` command there),
 * survives its playback URLs expiring mid-play; chapters, preview thumbnails, up next and the playback events. Media are
 * found at run time in the sandbox's deterministic seed by what they carry.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import '../../../components/index.ts';
import type { ReelPlayer } from '../../../components/reel-player/reel-player.ts';
import type { FeedResponse, MediaResponse } from '../../../worker/contract/public-api.ts';
import { $, untilState } from '../support/dom.ts';
import { BERLIN, EUROPE_SITE, FOOD, LIVE_MUSIC, SITE } from '../support/seed.ts';

const HLS = 'application/vnd.apple.mpegurl';

async function getJson<T>(path: string, ip?: string): Promise<T> {
  const response = await fetch(path, { headers: ip ? { 'x-reelgate-dev-ip': ip } : {} });
  expect(response.status, await response.clone().text()).to.equal(200);
  return response.json() as Promise<T>;
}

/** The first media of a playlist whose answer passes `test`. */
async function findMedia(site: string, playlist: string, test: (m: MediaResponse) => boolean, ip?: string)
  : Promise<MediaResponse> {
  const feed = await getJson<FeedResponse>(`/api/sites/${site}/playlists/${playlist}?page_length=50`, ip);
  for (const item of feed.items) {
    const media = await getJson<MediaResponse>(`/api/sites/${site}/media/${item.id}`, ip);
    if (test(media)) return media;
  }
  throw new Error(`no media in ${site}/${playlist} fits`);
}

const longHls = (m: MediaResponse) => m.sources.some((s) => s.type === HLS) && (m.duration ?? 0) >= 60;
const hasKinds = (...kinds: string[]) => (m: MediaResponse) => kinds.every((k) => m.tracks.some((t) => t.kind === k));

async function throttle(download: number | null): Promise<void> {
  await executeServerCommand('reelgate-throttle', { download });
}

/**
 * Holds every later GET of the page whose URL path matches `pattern` (the `reelgate-hold` command of
 * web-test-runner.config.mjs: DevTools' request interception, with the page's HTTP cache off) until `releaseHeld()`:
 * the request waits unanswered, so what it asks for never arrives, however fast the machine.
 */
async function holdRequests(pattern: RegExp): Promise<void> {
  await executeServerCommand('reelgate-hold', { pattern: pattern.source });
}

/** Lets the held requests (and every later one) through; answers how many were held since the hold began. */
async function releaseHeld(): Promise<number> {
  return ((await executeServerCommand('reelgate-hold', { release: true })) as { held: number }).held;
}

/** A player with the toolbar row, where the kit puts its timeline and menus. */
async function mount(site: string, media: string, width = 800): Promise<ReelPlayer> {
  const wrapper = await fixture<HTMLDivElement>(html`
    <div style=${`inline-size: ${width}px`}>
      <reel-player site=${site} media=${media} rows="toolbar title description"></reel-player></div>`);
  const player = wrapper.querySelector('reel-player')!;
  await untilState(player, 'complete');
  return player;
}

/** Every event of `types` the player dispatches, in order. */
function record(player: ReelPlayer, ...types: Array<keyof GlobalEventHandlersEventMap>): Event[] {
  const events: Event[] = [];
  for (const type of types) player.addEventListener(type, (e) => events.push(e));
  return events;
}

/**
 * Plays muted, as a viewer's press would. Under MSE that first play is what attaches hls.js, which reloads the element
 * (so the first play() is aborted) and then plays it again.
 */
async function play(video: HTMLVideoElement): Promise<void> {
  video.muted = true;
  await video.play().catch(() => {});
  await waitUntil(() => !video.paused && video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA,
    `it never played (paused ${video.paused}, readyState ${video.readyState})`, { timeout: 20000 });
}

const height = (e: Event) => (e as GlobalEventHandlersEventMap['reel-rendition']).height;

describe('<reel-player> playback engine against the real worker', function (this: MochaContext) {
  this.timeout(90_000);
  afterEach(async () => {
    await throttle(null);
    await releaseHeld();
    delete window.reelgate;
  });

  it('plays HLS through MSE (never the playlist as the video source) and advances', async () => {
    const media = await findMedia(SITE, FOOD, longHls);
    const player = await mount(SITE, media.id);
    expect(player.engine).to.equal('mse');
    expect(player.getAttribute('engine')).to.equal('mse');
    const video = player.video!;
    // Until the viewer plays, nothing of HLS is fetched: no source, no hls.js chunk, no playlist.
    await player.updateComplete;
    expect(video.hasAttribute('src')).to.equal(false);
    const hlsRequests = () => performance.getEntriesByType('resource').filter((e) => /hls-engine|reelgate-hls\./.test(e.name));
    expect(hlsRequests()).to.deep.equal([]);
    await play(video);
    // The playlist is never the video's source: hls.js gives it a MediaSource (a blob: URL).
    expect(video.src).to.match(/^blob:/);
    await waitUntil(() => video.currentTime > 2, `the video never advanced (at ${video.currentTime})`,
      { timeout: 20000 });
    expect(video.error).to.equal(null);
    expect(hlsRequests(), 'the HLS chunk, once').to.have.length(1);
  });

  it('switches rendition when the network is throttled, and says so in reel-rendition', async () => {
    const media = await findMedia(SITE, FOOD, longHls);
    const player = await mount(SITE, media.id);
    const renditions = record(player, 'reel-rendition');
    const video = player.video!;
    await play(video);
    // On loopback hls.js soon measures a fast network and goes up to the 720p variant.
    await waitUntil(() => renditions.some((e) => height(e) === 720), `never went up to 720p: ${renditions.map(height)}`,
      { timeout: 30000 });
    // Slow as a bad mobile network (20 KB/s), then a jump past what is buffered: the next segments come at 360p.
    await throttle(20_000);
    const buffered = video.buffered.length ? video.buffered.end(video.buffered.length - 1) : 0;
    video.currentTime = Math.min(buffered + 20, (video.duration || media.duration || 60) - 10);
    await waitUntil(() => height(renditions[renditions.length - 1]!) === 360,
      `never switched down under throttling: ${renditions.map(height)}`, { timeout: 45000 });
    const down = renditions[renditions.length - 1] as GlobalEventHandlersEventMap['reel-rendition'];
    expect(down.mediaId).to.equal(media.id);
    expect(down.auto).to.equal(true);
    expect(down.width).to.equal(640);
    expect(down.bitrate).to.be.a('number');
  });

  it('survives its playback URLs expiring mid-play: renews them and plays on from where it was', async () => {
    // The first media answer's URLs live LIFETIME seconds (x-reelgate-dev-token-seconds, DEV_MODE only).
    const LIFETIME = 6;
    const media = await findMedia(EUROPE_SITE, LIVE_MUSIC, longHls, BERLIN);
    window.reelgate = { devIp: BERLIN };
    const original = window.fetch;
    let mediaCalls = 0;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.includes(`/media/${media.id}`)) return original(input, init);
      const headers = new Headers(init?.headers);
      if (++mediaCalls === 1) headers.set('x-reelgate-dev-token-seconds', String(LIFETIME));
      return original(input, { ...init, headers });
    };
    try {
      const player = await mount(EUROPE_SITE, media.id);
      expect(player.engine).to.equal('mse');
      const video = player.video!;
      await play(video);
      await waitUntil(() => video.currentTime > 1, 'the video never advanced', { timeout: 20000 });
      const hls = player.mediaItem!.sources.find((s) => s.type === HLS)!.url;
      await waitUntil(async () => (await original(`${hls}?dev_ip=${BERLIN}`, { method: 'HEAD', cache: 'no-store' }))
        .status === 403, 'the playback URL never expired', { timeout: (LIFETIME + 10) * 1000, interval: 250 });
      // hls.js, loading ahead, may already have met a refusal and renewed; past what is buffered, the next segment
      // needs a URL that opens either way.
      // (It may be re-attaching right now, with nothing buffered and no duration yet.)
      const buffered = video.buffered.length ? video.buffered.end(video.buffered.length - 1) : video.currentTime;
      const target = Math.min(buffered + 15, (media.duration ?? 60) - 10);
      video.currentTime = target;
      await waitUntil(() => mediaCalls === 2, 'the media was never asked for again', { timeout: 20000 });
      await waitUntil(() => !video.paused && video.currentTime > target + 1,
        `playback did not go on from ${target} (at ${video.currentTime})`, { timeout: 30000 });
      expect(player.engine).to.equal('mse');
      expect(mediaCalls, 'renewed once').to.equal(2);
      expect($(player, '[part="playback-error"]')).to.equal(null);
    } finally {
      window.fetch = original;
    }
  });

  it('lists chapters and seeks to one; shows preview thumbnails on hover and on keyboard seeking', async () => {
    const media = await findMedia(SITE, FOOD, (m) => hasKinds('chapters', 'thumbnails')(m) && (m.duration ?? 0) >= 60);
    const player = await mount(SITE, media.id);
    const menu = await waitUntil(() => $(player, '[part="chapter-menu"]'), 'no chapter menu', { timeout: 10000 })
      .then(() => $(player, '[part="chapter-menu"]') as HTMLSelectElement);
    expect(menu.options.length).to.be.greaterThan(1);
    expect(menu.options[1]!.textContent).to.match(/^\d+:\d\d Chapter 2$/);
    const video = player.video!;
    await waitUntil(() => video.readyState >= HTMLMediaElement.HAVE_NOTHING, 'no video');
    menu.value = '1';
    menu.dispatchEvent(new Event('change'));
    const [m, s] = menu.options[1]!.textContent!.split(' ')[0]!.split(':').map(Number);
    expect(Math.floor(video.currentTime)).to.equal(m! * 60 + s!);
    // Chapter marks on the timeline, one per chapter after the first.
    const timeline = await waitUntil(() => $(player, '[part="timeline"]'), 'no timeline')
      .then(() => $(player, '[part="timeline"]') as HTMLInputElement);
    expect(player.shadowRoot!.querySelectorAll('[part="chapter-mark"]').length).to.equal(menu.options.length - 1);

    // Hover: the frame of the time under the pointer.
    const box = timeline.getBoundingClientRect();
    timeline.dispatchEvent(new PointerEvent('pointermove', { clientX: box.left + box.width / 2, clientY: box.top + 2,
      bubbles: true }));
    await waitUntil(() => $(player, '[part="preview"]'), 'no preview on hover', { timeout: 10000 });
    const preview = $(player, '[part="preview"]')!;
    expect(preview.style.backgroundImage).to.match(/^url\(".+"\)$/);
    expect(preview.getAttribute('aria-label')).to.match(/^Preview at \d+:\d\d$/);
    const image = preview.style.backgroundImage.slice(5, -2);
    expect((await fetch(image)).ok, image).to.equal(true);
    timeline.dispatchEvent(new PointerEvent('pointerleave'));
    await waitUntil(() => !$(player, '[part="preview"]'), 'the preview stayed after the pointer left');

    // Keyboard: arrow keys on the focused timeline seek, and show where.
    timeline.focus();
    const before = video.currentTime;
    await sendKeys({ press: 'ArrowRight' });
    await waitUntil(() => video.currentTime > before, 'the arrow key did not seek');
    await waitUntil(() => $(player, '[part="preview"]'), 'no preview on keyboard seeking');
    await expect(player).to.be.accessible();
  });

  it('has a quality menu (automatic, or a pinned rendition) and a captions menu, both operable', async () => {
    const media = await findMedia(SITE, FOOD, (m) => longHls(m) && m.tracks.some((t) => t.kind === 'captions'));
    const player = await mount(SITE, media.id);
    const renditions = record(player, 'reel-rendition');
    const video = player.video!;
    await play(video);
    await waitUntil(() => $(player, '[part="quality-menu"]'), 'no quality menu', { timeout: 15000 });
    const quality = $(player, '[part="quality-menu"]') as HTMLSelectElement;
    expect(quality.getAttribute('aria-label')).to.equal('Quality');
    expect([...quality.options].map((o) => o.value)).to.deep.equal(['-1', '0', '1']);
    expect(quality.options[0]!.textContent).to.match(/^Auto/);
    expect([...quality.options].slice(1).map((o) => o.textContent)).to.deep.equal(['360p', '720p']);
    // Pinned to the other rendition: the stream goes there and says it was the viewer's choice.
    await waitUntil(() => renditions.length > 0, 'no rendition played', { timeout: 15000 });
    const target = height(renditions[renditions.length - 1]!) === 360 ? 720 : 360;
    quality.value = target === 360 ? '0' : '1';
    quality.dispatchEvent(new Event('change'));
    video.currentTime = Math.min((video.buffered.length ? video.buffered.end(video.buffered.length - 1) : 0) + 10,
      video.duration - 10);
    await waitUntil(() => renditions.some((e) => height(e) === target &&
      !(e as GlobalEventHandlersEventMap['reel-rendition']).auto), `never pinned to ${target}p: ${renditions.map(height)}`,
    { timeout: 30000 });
    expect(quality.value).to.equal(target === 360 ? '0' : '1');

    const captions = $(player, '[part="captions-menu"]') as HTMLSelectElement;
    expect(captions, 'no captions menu').to.not.equal(null);
    expect(captions.options[0]!.textContent).to.equal('Captions off');
    const names = [...captions.options].slice(1).map((o) => o.textContent);
    expect(names.length).to.be.greaterThan(0);
    expect(new Set(names).size, 'each caption listed once').to.equal(names.length);
    captions.value = '0';
    captions.dispatchEvent(new Event('change'));
    const showing = [...video.textTracks].filter((t) => t.mode === 'showing');
    expect(showing.map((t) => t.label)).to.deep.equal([names[0]]);
    captions.value = '-1';
    captions.dispatchEvent(new Event('change'));
    expect([...video.textTracks].some((t) => t.mode === 'showing')).to.equal(false);
    await expect(player).to.be.accessible();
  });

  it('never widens its container with the toolbar\'s controls (a phone\'s page must not zoom out)', async () => {
    const media = await findMedia(SITE, FOOD, (m) => longHls(m) && hasKinds('chapters', 'captions')(m));
    // A box as wide as its content's narrowest (min-content): the player's frame and rows take what they are given,
    // so only a control that insisted on its own width could make it wider.
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: min-content"><reel-player site=${SITE} media=${media.id} rows="toolbar"></reel-player></div>`);
    const player = wrapper.querySelector('reel-player')!;
    await untilState(player, 'complete');
    await waitUntil(() => $(player, '[part="chapter-menu"]') && $(player, '[part="timeline"]'), 'no toolbar controls',
      { timeout: 10000 });
    expect(wrapper.getBoundingClientRect().width).to.be.below(50);
  });

  it('fires each playback event once, with its documented fields', async () => {
    const media = await findMedia(SITE, FOOD, longHls);
    const player = await mount(SITE, media.id);
    const events = record(player, 'reel-play', 'reel-pause', 'reel-ended', 'reel-progress', 'reel-rendition');
    const video = player.video!;
    await play(video);
    await waitUntil(() => video.currentTime > 0.5, 'never advanced', { timeout: 20000 });
    video.pause();
    await waitUntil(() => events.some((e) => e.type === 'reel-pause'), 'no reel-pause');
    // To the end: every quarter is passed on the way.
    video.currentTime = video.duration - 1.5;
    await play(video);
    await waitUntil(() => events.some((e) => e.type === 'reel-ended'), 'no reel-ended', { timeout: 30000 });
    const types = events.map((e) => e.type).filter((t) => t !== 'reel-rendition');
    expect(types).to.deep.equal(['reel-play', 'reel-pause', 'reel-play', 'reel-progress', 'reel-progress',
      'reel-progress', 'reel-progress', 'reel-ended']);
    const quartiles = events.filter((e) => e.type === 'reel-progress')
      .map((e) => (e as GlobalEventHandlersEventMap['reel-progress']).quartile);
    expect(quartiles).to.deep.equal([25, 50, 75, 100]);
    for (const event of events) {
      const e = event as GlobalEventHandlersEventMap['reel-play'];
      expect(e.mediaId, e.type).to.equal(media.id);
      expect(e.currentTime, e.type).to.be.a('number');
      expect(e.bubbles && e.composed, e.type).to.equal(true);
    }
    const first = events.find((e) => e.type === 'reel-rendition') as GlobalEventHandlersEventMap['reel-rendition'];
    expect(first.height).to.be.oneOf([360, 720]);
    expect(first.auto).to.equal(true);
  });

  it('says when playback stalls and when it goes on (reel-stall)', async () => {
    const media = await findMedia(SITE, FOOD, longHls);
    const player = await mount(SITE, media.id);
    const stalls = record(player, 'reel-stall') as Array<GlobalEventHandlersEventMap['reel-stall']>;
    const video = player.video!;
    // Starve it, by the test server and not by the machine's speed or the network's: the sandbox's segments are 5 s
    // each (seg-<n>.ts, demo/sandbox/assets.ts), and every request for one past the first two (in any rendition) is
    // held unanswered (`reelgate-hold`, web-test-runner.config.mjs; the page's HTTP cache off meanwhile, so no segment
    // an earlier test fetched under the same URL comes from the cache). The player has 10 s to play, then nothing: a
    // stall, however fast or slow it gets there (a 60 s or longer video does not end there).
    await holdRequests(/\/seg-(?:[2-9]|[1-9][0-9]+)\.ts$/);
    await play(video);
    await waitUntil(() => video.currentTime > 0.5, 'never advanced', { timeout: 20000 });
    // What is buffered plays fast, so the wait is short.
    video.playbackRate = 8;
    await waitUntil(() => stalls.length === 1, 'no stall while starved', { timeout: 60000 });
    expect(stalls[0]!.stalled).to.equal(true);
    expect(video.paused, 'a stall, not a pause').to.equal(false);
    expect(video.currentTime, 'it stalled where its segments ran out').to.be.at.most(10.5);
    expect(await releaseHeld(), 'segment requests held while it stalled').to.be.greaterThan(0);
    await waitUntil(() => stalls.length === 2, 'no end of the stall once the segments came', { timeout: 30000 });
    expect(stalls[1]!.stalled).to.equal(false);
    expect(stalls[1]!.duration).to.be.greaterThan(0);
    expect(stalls.every((e) => e.mediaId === media.id)).to.equal(true);
  });
});

describe('<reel-player> up next against the real worker', function (this: MochaContext) {
  this.timeout(60_000);

  async function shelf(upnext: string): Promise<{ player: ReelPlayer; playlist: HTMLElementTagNameMap['reel-playlist'] }> {
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: 640px">
        <reel-player site=${SITE} for="shelf" upnext=${upnext} upnext-delay="2"></reel-player>
        <reel-playlist id="shelf" site=${SITE} playlist=${FOOD} page-size="4"></reel-playlist>
      </div>`);
    const player = wrapper.querySelector('reel-player')!;
    const playlist = wrapper.querySelector('reel-playlist')!;
    await untilState(playlist, 'complete');
    await untilState(player, 'complete');
    return { player, playlist };
  }

  async function toTheEnd(player: ReelPlayer): Promise<void> {
    const video = player.video!;
    await play(video);
    await waitUntil(() => video.duration > 0 && video.currentTime > 0, 'never started', { timeout: 20000 });
    video.currentTime = video.duration - 0.5;
    await waitUntil(() => video.ended, 'never ended', { timeout: 20000 });
  }

  it('counts down to the next shelf item, cancellable, and plays it, marking it on the shelf', async () => {
    const { player, playlist } = await shelf('play');
    const [first, second] = playlist.items;
    expect(player.media).to.equal(first!.id);
    await toTheEnd(player);
    const card = await waitUntil(() => $(player, '[part="up-next"]'), 'no up-next card', { timeout: 5000 })
      .then(() => $(player, '[part="up-next"]')!);
    expect(card.getAttribute('role')).to.equal('status');
    expect(card.textContent).to.contain(second!.title);
    expect(card.textContent).to.match(/plays in [12] s/);
    await expect(player).to.be.accessible();
    await waitUntil(() => player.media === second!.id, 'the next item never came', { timeout: 10000 });
    expect(playlist.selected).to.equal(second!.id);
    await untilState(player, 'complete');
    await waitUntil(() => player.video && !player.video.paused, 'the next item did not play', { timeout: 15000 });
    expect($(player, '[part="up-next"]')).to.equal(null);
  });

  it('keeps the current item when the viewer cancels the countdown', async () => {
    const { player, playlist } = await shelf('play');
    const first = playlist.items[0]!;
    await toTheEnd(player);
    await waitUntil(() => $(player, '[part="up-next-cancel"]'), 'no cancel button', { timeout: 5000 });
    ($(player, '[part="up-next-cancel"]') as HTMLButtonElement).click();
    await player.updateComplete;
    expect($(player, '[part="up-next"]')).to.equal(null);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(player.media).to.equal(first.id);
  });

  it('with upnext="off" offers nothing', async () => {
    const { player, playlist } = await shelf('off');
    await toTheEnd(player);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect($(player, '[part="up-next"]')).to.equal(null);
    expect(player.media).to.equal(playlist.items[0]!.id);
  });
});
