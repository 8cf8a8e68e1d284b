import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../components/reel-player/define.ts';
import '../../components/reel-playlist/define.ts';
import type { ReelPlayer } from '../../components/reel-player/reel-player.ts';
import { pickPlayback } from '../../components/reel-player/pick-source.ts';
import { playerOptions } from '../../components/shared/setup-config.ts';
import type { MediaSource } from '../../worker/contract/public-api.ts';
import { FakeWorker, apiError, hold, json } from './support/fake-worker.ts';
import { SITE, feed, media, player } from './support/fixtures.ts';
import { $, $$, nextEvent, untilState } from './support/dom.ts';

const ENDPOINT = 'https://worker.example.test';
const MEDIA_PATH = /^\/api\/sites\/[^/]+\/media\/[^/]+$/;
const PLAYER_PATH = /^\/api\/sites\/[^/]+\/players\/[^/]+$/;
const FEED_PATH = /^\/api\/sites\/[^/]+\/playlists\/[^/]+$/;

function serveMedia(worker: FakeWorker) {
  worker.on(MEDIA_PATH, (url) => json(media(url.pathname.split('/').pop()!)));
}

async function mount(width: number, attrs: { media?: string; player?: string } = {}) {
  const wrapper = await fixture<HTMLDivElement>(html`
    <div style="inline-size: ${width}px">
      <reel-player site=${SITE} media=${attrs.media ?? 'media001'} player=${attrs.player ?? ''} endpoint=${ENDPOINT}>
      </reel-player>
    </div>`);
  return wrapper.querySelector('reel-player')!;
}

/** A small picture, inline so the suite needs no image server. */
const POSTER = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"><rect width="16" height="9" fill="#b3261e"/></svg>')}`;

const video = (el: ReelPlayer) => $(el, 'video') as HTMLVideoElement;

/** Whether the playback kit (a chunk of its own) has come: it adds its stylesheet to the player's shadow root. */
const hasKit = (el: ReelPlayer) => el.shadowRoot!.adoptedStyleSheets.some((sheet) =>
  [...sheet.cssRules].some((rule) => rule.cssText.startsWith('.up-next')));

describe('setup_config → player options', () => {
  it('maps every documented option', () => {
    expect(playerOptions({
      aspectratio: '1:1', autostart: 'viewable', mute: false, repeat: true, preload: 'auto', stretching: 'fill',
      playbackRateControls: [2, 0.5, 1.5], displaytitle: false, displaydescription: false,
    })).to.deep.equal({
      aspectRatio: '1 / 1', autostart: 'viewable', muted: true, repeat: true, preload: 'auto', fit: 'cover',
      rates: [0.5, 1, 1.5, 2], showTitle: false, showDescription: false,
    });
  });

  it('uses the platform defaults when options are missing or malformed', () => {
    expect(playerOptions({ aspectratio: 'wide', preload: 'everything', autostart: 'soon' })).to.deep.equal({
      aspectRatio: null, autostart: false, muted: false, repeat: false, preload: 'metadata', fit: 'contain',
      rates: null, showTitle: true, showDescription: true,
    });
  });

  it('maps stretching names to object-fit', () => {
    const fit = (stretching: string) => playerOptions({ stretching }).fit;
    expect(['uniform', 'fill', 'exactfit', 'none', 'cover'].map(fit))
      .to.deep.equal(['contain', 'cover', 'fill', 'none', 'cover']);
  });

  it('gives a default speed menu for playbackRateControls: true, none for false', () => {
    expect(playerOptions({ playbackRateControls: true }).rates).to.deep.equal([0.5, 0.75, 1, 1.25, 1.5, 2]);
    expect(playerOptions({ playbackRateControls: false }).rates).to.equal(null);
  });
});

describe('rendition choice', () => {
  const sources: MediaSource[] = [
    { url: 'hls', type: 'application/vnd.apple.mpegurl', width: null, height: null, filesize: 1, label: 'HLS' },
    ...[1920, 1280, 640].map((width) => ({ url: `mp4-${width}`, type: 'video/mp4', width, height: null,
      filesize: width, label: `${width}p` })),
  ];

  /** The source picked in a browser with no MSE: native HLS when it can play it, else a progressive file. */
  const pickWithoutMse = (list: MediaSource[], width: number, canPlay: (type: string) => boolean) =>
    pickPlayback(list, width, { canPlay, mse: false, managed: false })?.source ?? null;

  it('takes the narrowest progressive rendition at least as wide as needed', () => {
    const mp4Only = (type: string) => type === 'video/mp4';
    expect(pickWithoutMse(sources, 600, mp4Only)!.url).to.equal('mp4-640');
    expect(pickWithoutMse(sources, 641, mp4Only)!.url).to.equal('mp4-1280');
    expect(pickWithoutMse(sources, 4000, mp4Only)!.url).to.equal('mp4-1920');
  });

  it('prefers HLS only where the browser plays it natively', () => {
    expect(pickWithoutMse(sources, 600, () => true)!.url).to.equal('hls');
    expect(pickWithoutMse(sources.slice(0, 1), 600, (type) => type === 'video/mp4')).to.equal(null);
  });

  it('trusts native HLS only with ManagedMediaSource or without MSE; plays HLS through MSE elsewhere', () => {
    const all = () => true;
    const mp4Only = (type: string) => type === 'video/mp4';
    const engine = (canPlay: (type: string) => boolean, mse: boolean, managed: boolean) => {
      const pick = pickPlayback(sources, 600, { canPlay, mse, managed });
      return pick && `${pick.engine}:${pick.source.url}`;
    };
    // Safari 17+ (macOS, iOS 17.1+): native HLS, the platform's own.
    expect(engine(all, true, true)).to.equal('native:hls');
    // Older iPhones: native HLS is the only way.
    expect(engine(all, false, false)).to.equal('native:hls');
    // Chrome answers `maybe` for HLS and has MSE: hls.js, not its new native path.
    expect(engine(all, true, false)).to.equal('mse:hls');
    // Firefox: no native HLS, MSE.
    expect(engine(mp4Only, true, false)).to.equal('mse:hls');
    // Neither: the progressive file that fits.
    expect(engine(mp4Only, false, false)).to.equal('progressive:mp4-640');
    expect(engine(() => false, false, false)).to.equal(null);
  });
});

describe('<reel-player>', () => {
  let worker: FakeWorker;
  beforeEach(() => {
    worker = new FakeWorker().install();
  });
  afterEach(() => worker.restore());

  it('loads the rendition that fits its width on this screen, with poster and text tracks', async () => {
    serveMedia(worker);
    const el = await mount(Math.ceil(600 / devicePixelRatio));
    await untilState(el, 'complete');
    const v = video(el);
    expect(v.getAttribute('src')).to.equal('https://cdn.example.test/videos/media001/640.mp4');
    expect(v.getAttribute('poster')).to.equal('https://cdn.example.test/thumbs/media001.jpg');
    expect(v.controls).to.equal(true);
    expect(v.getAttribute('aria-label')).to.equal('Video: Video number 1');
    const tracks = [...v.querySelectorAll('track')];
    expect(tracks.map((t) => [t.kind, t.srclang, t.label, t.default])).to.deep.equal([
      ['captions', 'en', 'English', true], ['subtitles', 'fr', 'Français', false]]);
    expect(v.crossOrigin).to.equal('anonymous');
  });

  it('preloads nothing while far from view, then what the configuration says; HLS never', async () => {
    serveMedia(worker);
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <div style="block-size: 5000px"></div>
      <reel-player site=${SITE} media="media001" endpoint=${ENDPOINT}></reel-player></div>`);
    const el = wrapper.querySelector('reel-player')!;
    await untilState(el, 'complete');
    await el.updateComplete;
    expect(video(el).preload, 'far below the fold').to.equal('none');
    el.scrollIntoView();
    await waitUntil(() => video(el).preload === 'metadata', 'the preload never came once in view');

    worker.on(MEDIA_PATH, (url) => json(media(url.pathname.split('/').pop()!, { sources: [{
      url: 'https://cdn.example.test/hls/media002/master.m3u8', type: 'application/vnd.apple.mpegurl', width: null,
      height: null, filesize: 0, label: 'Auto' }] })));
    const hls = await mount(400, { media: 'media002' });
    await untilState(hls, 'complete');
    await hls.updateComplete;
    // Chromium answers `maybe` for HLS but has no ManagedMediaSource: HLS plays through MSE (hls.js), never as the
    // video's own src, and preloads nothing, though in view.
    expect(hls.engine).to.equal('mse');
    expect(video(hls).hasAttribute('src')).to.equal(false);
    expect(video(hls).preload).to.equal('none');
  });

  it('loads the playback kit only once it comes near the viewport or a pointer goes over it', async () => {
    serveMedia(worker);
    // In a scroller of its own, so where earlier tests left the page's scroll does not matter: what it clips is out
    // of view.
    const wrapper = await fixture<HTMLDivElement>(html`<div style="block-size: 300px; overflow: auto">
      <div style="block-size: 5000px"></div>
      <reel-player site=${SITE} media="media001" endpoint=${ENDPOINT}></reel-player>
      <div style="block-size: 5000px"></div>
      <reel-player site=${SITE} media="media002" endpoint=${ENDPOINT}></reel-player></div>`);
    wrapper.scrollIntoView();
    const [pointed, scrolled] = [...wrapper.querySelectorAll('reel-player')];
    for (const el of [pointed!, scrolled!]) await untilState(el, 'complete');
    // Two frames: the observers have delivered their first, not-intersecting, entries.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    expect(hasKit(pointed!), 'far below').to.equal(false);
    expect(hasKit(scrolled!), 'far below').to.equal(false);
    $(pointed!, '[part="frame"]')!.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true }));
    await waitUntil(() => hasKit(pointed!), 'the kit never came for a pointer over the player', { timeout: 10000 });
    expect(hasKit(scrolled!), 'still far below').to.equal(false);
    scrolled!.scrollIntoView();
    await waitUntil(() => hasKit(scrolled!), 'the kit never came once the player was near', { timeout: 10000 });
  });

  it('loads a wider rendition in a wider player', async () => {
    serveMedia(worker);
    const el = await mount(Math.ceil(1000 / devicePixelRatio));
    await untilState(el, 'complete');
    expect(video(el).getAttribute('src')).to.equal('https://cdn.example.test/videos/media001/1280.mp4');
  });

  it('applies the player configuration to the video', async () => {
    serveMedia(worker);
    worker.on(PLAYER_PATH, () => json(player({
      aspectratio: '4:3', autostart: true, repeat: true, preload: 'none', stretching: 'exactfit',
      playbackRateControls: [1, 2], displaytitle: true, displaydescription: false,
    })));
    const el = await mount(400, { player: 'RkWDvjNV' });
    await untilState(el, 'complete');
    await el.updateComplete;
    const v = video(el);
    expect(v.loop).to.equal(true);
    expect(v.autoplay).to.equal(true);
    expect(v.muted).to.equal(true);
    expect(v.preload).to.equal('none');
    expect(getComputedStyle(v).objectFit).to.equal('fill');
    const frame = $(el, '[part="frame"]')!.getBoundingClientRect();
    expect(Math.round(frame.height)).to.equal(300);
    expect($(el, '[part="title"]')!.textContent).to.equal('Video number 1');
    expect($(el, '[part="description"]')).to.equal(null);
    // The speed menu comes with the playback kit, a chunk loaded once the player has media and is near.
    await waitUntil(() => $(el, '[part="rate-menu"]'), 'no speed menu');
    const menu = $(el, '[part="rate-menu"]') as HTMLSelectElement;
    expect([...menu.options].map((o) => o.textContent)).to.deep.equal(['1×', '2×']);
    menu.value = '2';
    menu.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(v.playbackRate).to.equal(2);
  });

  it('without a player configuration: controls, no autoplay, no loop, title and description shown', async () => {
    serveMedia(worker);
    const el = await mount(400);
    await untilState(el, 'complete');
    const v = video(el);
    expect([v.autoplay, v.loop, v.muted]).to.deep.equal([false, false, false]);
    expect(getComputedStyle(v).objectFit).to.equal('contain');
    expect($(el, '[part="description"]')!.textContent).to.equal('About video 1.');
    expect($(el, '[part="rate-menu"]')).to.equal(null);
    expect(worker.callsTo(PLAYER_PATH)).to.have.length(0);
  });

  it('plays what is chosen in the playlist it is linked to', async () => {
    serveMedia(worker);
    worker.on(FEED_PATH, () => json(feed(1, 6, 3)));
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: 640px">
        <reel-player site=${SITE} for="shelf" endpoint=${ENDPOINT}></reel-player>
        <reel-playlist id="shelf" site=${SITE} playlist="JwMCDvZA" endpoint=${ENDPOINT}></reel-playlist>
      </div>`);
    const el = wrapper.querySelector('reel-player')!;
    const playlist = wrapper.querySelector('reel-playlist')!;
    // While the playlist loads, the player shows a loading frame rather than asking for a choice.
    if (playlist.getAttribute('state') === 'loading') expect($(el, '.frame.skeleton')).to.not.equal(null);
    await untilState(playlist, 'complete');
    // Cued with the first item until something is chosen.
    await untilState(el, 'complete');
    expect(el.media).to.equal('media001');
    $$(playlist, '[part="card"]')[2]!.click();
    await el.updateComplete;
    expect(el.media).to.equal('media003');
    await untilState(el, 'complete');
    expect(video(el).getAttribute('src')).to.contain('/media003/');
    expect(worker.callsTo(MEDIA_PATH).map((c) => c.url.pathname.split('/').pop())).to.deep.equal(['media001', 'media003']);
  });

  it('keeps a `poster` with the media it came with: a choice in the playlist drops it, a media given with one keeps it', async () => {
    serveMedia(worker);
    worker.on(FEED_PATH, () => json(feed(1, 6, 3)));
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: 640px">
        <reel-player site=${SITE} media="media001" poster=${POSTER} for="shelf" endpoint=${ENDPOINT}></reel-player>
        <reel-playlist id="shelf" site=${SITE} playlist="JwMCDvZA" endpoint=${ENDPOINT}></reel-playlist>
      </div>`);
    const el = wrapper.querySelector('reel-player')!;
    const playlist = wrapper.querySelector('reel-playlist')!;
    const poster = () => $(el, 'img[part="poster"]')?.getAttribute('src') ?? null;
    expect(poster()).to.equal(POSTER);
    await untilState(playlist, 'complete');
    await untilState(el, 'complete');
    expect(poster(), 'under the video until it plays').to.equal(POSTER);
    $$(playlist, '[part="card"]')[2]!.click();
    await el.updateComplete;
    expect(el.media).to.equal('media003');
    expect(el.poster).to.equal('');
    expect(poster()).to.equal(null);
    // Both at once (a page switching the player itself): the new poster shows while the new media loads.
    const other = POSTER.replace('%23b3261e', '%230b5fd6');
    el.media = 'media002';
    el.poster = other;
    await el.updateComplete;
    expect(poster()).to.equal(other);
  });

  it('comes into view when a card far below it starts it (a phone), and stays put when it is on screen', async () => {
    serveMedia(worker);
    worker.on(FEED_PATH, () => json(feed(1, 6, 3)));
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: 360px">
        <reel-player site=${SITE} for="far-shelf" endpoint=${ENDPOINT}></reel-player>
        <div style="block-size: 3000px"></div>
        <reel-playlist id="far-shelf" site=${SITE} playlist="JwMCDvZA" endpoint=${ENDPOINT}></reel-playlist>
      </div>`);
    const el = wrapper.querySelector('reel-player')!;
    const playlist = wrapper.querySelector('reel-playlist')!;
    await untilState(playlist, 'complete');
    playlist.scrollIntoView();
    expect(el.getBoundingClientRect().bottom, 'the player starts out of view').to.be.below(0);
    $$(playlist, '[part="card"]')[1]!.click();
    // A bound on a busy machine's smooth scroll, not a speed target.
    await waitUntil(() => el.getBoundingClientRect().top >= -1 && el.getBoundingClientRect().bottom <= innerHeight + 1,
      'the player never came into view', { timeout: 15_000 });
    // On screen already: choosing another card scrolls nothing.
    const before = scrollY;
    $$(playlist, '[part="card"]')[2]!.click();
    await untilState(el, 'complete');
    expect(scrollY).to.equal(before);
  });

  it('invites a choice when its linked playlist turns out empty', async () => {
    worker.on(FEED_PATH, () => json(feed(1, 6, 0)));
    const wrapper = await fixture<HTMLDivElement>(html`
      <div>
        <reel-player site=${SITE} for="shelf" endpoint=${ENDPOINT}></reel-player>
        <reel-playlist id="shelf" site=${SITE} playlist="JwMCDvZA" endpoint=${ENDPOINT}></reel-playlist>
      </div>`);
    const el = wrapper.querySelector('reel-player')!;
    await untilState(wrapper.querySelector('reel-playlist')!, 'empty');
    await el.updateComplete;
    expect($(el, '.frame.skeleton')).to.equal(null);
    expect($(el, '.placeholder')!.textContent!.trim()).to.equal('Choose a video to play.');
    expect(worker.callsTo(MEDIA_PATH)).to.have.length(0);
  });

  it('shows an error with retry, and reports it', async () => {
    let fail = true;
    worker.on(MEDIA_PATH, (url) => (fail ? apiError(503, 'upstream_unavailable', 'Down.')
      : json(media(url.pathname.split('/').pop()!))));
    const error = nextEvent(document, 'reel-error');
    const el = await mount(400);
    await untilState(el, 'error');
    expect((await error).code).to.equal('upstream_unavailable');
    fail = false;
    $(el, '[part="retry"]')!.click();
    await untilState(el, 'complete');
    expect(video(el)).to.not.equal(null);
  });

  it('waits out a short Retry-After on 429 and asks again by itself, with no error shown or reported', async () => {
    // A freshly started worker's first page views: the budget answers "in a second" rather than spend past its limit.
    let refusals = 1;
    worker.on(MEDIA_PATH, (url) => {
      if (refusals-- > 0) {
        const busy = apiError(429, 'rate_limited', 'Busy.');
        busy.headers.set('retry-after', '1');
        return busy;
      }
      return json(media(url.pathname.split('/').pop()!));
    });
    const errors: Event[] = [];
    const listen = (event: Event) => errors.push(event);
    document.addEventListener('reel-error', listen);
    try {
      const el = await mount(400);
      await untilState(el, 'complete');
      expect(worker.callsTo(MEDIA_PATH)).to.have.length(2);
      expect(errors).to.have.length(0);
      expect(video(el)).to.not.equal(null);
    } finally {
      document.removeEventListener('reel-error', listen);
    }
  });

  it('shows a 429 whose wait is long (the visitor limit\'s minute) at once, with its retry', async () => {
    worker.on(MEDIA_PATH, () => {
      const limited = apiError(429, 'rate_limited', 'Slow down.');
      limited.headers.set('retry-after', '60');
      return limited;
    });
    const el = await mount(400);
    await untilState(el, 'error');
    expect(worker.callsTo(MEDIA_PATH)).to.have.length(1);
    expect($(el, '[part="retry"]')).to.not.equal(null);
  });

  it('says the video is not available where the visitor is on 451', async () => {
    worker.on(MEDIA_PATH, () => apiError(451, 'geo_blocked', 'Blocked.'));
    const el = await mount(400);
    await untilState(el, 'error');
    expect($(el, '[part="error"] p')!.textContent).to.equal('This content isn’t available where you are.');
  });

  it('says so when the browser cannot play the video file', async () => {
    serveMedia(worker);
    const el = await mount(400);
    await untilState(el, 'complete');
    // The fixture's delivery host does not exist, so the browser's own load fails as a missing file would. That can
    // happen before the data's render is awaited here (a browser that already knows the host is missing fails at once):
    // wait for the failure only when it has not happened yet, and check no message is shown before it.
    const v = video(el);
    if (!v.error) {
      expect($(el, '[part="playback-error"]')).to.equal(null);
      await nextEvent(v, 'error');
    }
    await el.updateComplete;
    expect(v.error, 'the browser reports the failed load').to.not.equal(null);
    expect($(el, '[part="playback-error"]')!.textContent).to.equal('This video could not be played.');
  });

  it('shows a placeholder with nothing to play', async () => {
    const el = await mount(400, { media: '' });
    expect(el.getAttribute('state')).to.equal('idle');
    expect($(el, '.placeholder')!.textContent!.trim()).to.equal('Choose a video to play.');
    expect(worker.calls).to.have.length(0);
  });

  it('never lets a stale media answer overwrite a newer one', async () => {
    const first = hold();
    worker.on(MEDIA_PATH, (url) => (url.pathname.endsWith('media001') ? first.promise
      : json(media(url.pathname.split('/').pop()!))));
    const el = await mount(400);
    await el.updateComplete;
    el.media = 'media002';
    await untilState(el, 'complete');
    first.release(json(media('media001')));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await el.updateComplete;
    expect(video(el).getAttribute('src')).to.contain('/media002/');
    expect(worker.callsTo(MEDIA_PATH)[0]!.signal!.aborted).to.equal(true);
  });

  it('passes an axe accessibility audit', async () => {
    serveMedia(worker);
    worker.on(PLAYER_PATH, () => json(player({ playbackRateControls: true })));
    const el = await mount(400, { player: 'RkWDvjNV' });
    el.poster = POSTER;
    await untilState(el, 'complete');
    await el.updateComplete;
    expect($(el, 'img[part="poster"]')).to.not.equal(null);
    await expect(el).to.be.accessible();
  });
});

describe('<reel-player> starting playback', () => {
  let worker: FakeWorker;
  let plays: HTMLMediaElement[];
  const originalPlay = HTMLMediaElement.prototype.play;
  beforeEach(() => {
    worker = new FakeWorker().install();
    serveMedia(worker);
    plays = [];
    // Records who asked to play; the fixture's files do not exist, so real playback could not start anyway.
    HTMLMediaElement.prototype.play = function play(this: HTMLMediaElement) {
      plays.push(this);
      return Promise.resolve();
    };
  });
  afterEach(() => {
    HTMLMediaElement.prototype.play = originalPlay;
    worker.restore();
  });

  it('autostart "viewable" starts muted only once the player is scrolled into view', async () => {
    worker.on(PLAYER_PATH, () => json(player({ autostart: 'viewable' })));
    const wrapper = await fixture<HTMLDivElement>(html`
      <div>
        <div style="block-size: 3000px"></div>
        <div style="inline-size: 400px">
          <reel-player site=${SITE} media="media001" player="YPi7CmXG" endpoint=${ENDPOINT}></reel-player>
        </div>
      </div>`);
    const el = wrapper.querySelector('reel-player')!;
    await untilState(el, 'complete');
    await waitUntil(() => el.options.autostart === 'viewable', 'the configuration never applied');
    await el.updateComplete;
    // Autostart is the playback kit's, loaded at once for a player that autostarts: once it is there, nothing plays
    // out of view.
    await waitUntil(() => hasKit(el), 'the playback kit never loaded', { timeout: 10000 });
    // Two frames: the observer has delivered its first, not-intersecting, entry.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    expect(plays).to.have.length(0);
    expect(video(el).autoplay).to.equal(false);
    el.scrollIntoView();
    await waitUntil(() => plays.length === 1, 'never started when scrolled into view', { timeout: 5000 });
    expect(plays[0]).to.equal(video(el));
    expect(video(el).muted).to.equal(true);
  });

  it('starts playing what is chosen in a linked playlist (but not what it merely cues)', async () => {
    worker.on(FEED_PATH, () => json(feed(1, 6, 3)));
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: 640px">
        <reel-player site=${SITE} for="shelf" endpoint=${ENDPOINT}></reel-player>
        <reel-playlist id="shelf" site=${SITE} playlist="JwMCDvZA" endpoint=${ENDPOINT}></reel-playlist>
      </div>`);
    const el = wrapper.querySelector('reel-player')!;
    const playlist = wrapper.querySelector('reel-playlist')!;
    await untilState(playlist, 'complete');
    await untilState(el, 'complete');
    expect(plays).to.have.length(0);
    $$(playlist, '[part="card"]')[1]!.click();
    await waitUntil(() => plays.length === 1, 'the chosen video never started');
    expect(plays[0]!.getAttribute('src')).to.contain('/media002/');
  });
});
