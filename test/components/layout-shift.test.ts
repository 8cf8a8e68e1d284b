/**
 * The elements contribute no layout shift. Each one is mounted above a paragraph, walked through its
 * states with held answers (a frame painted between steps), and the page's `layout-shift` entries since mounting
 * (less those right after input, as CLS counts them) must add up to exactly 0.
 */
import { expect, fixture, waitUntil } from '@open-wc/testing';
import '../../components/reel-geo-gate/define.ts';
import '../../components/reel-player/define.ts';
import '../../components/reel-player-config/define.ts';
import '../../components/reel-playlist/define.ts';
import { FakeWorker, hold, json, type Held } from './support/fake-worker.ts';
import type { ReelPlayer } from '../../components/reel-player/reel-player.ts';
import { SITE, feed, gate, media, player } from './support/fixtures.ts';
import { untilState } from './support/dom.ts';
import { painted, watchShifts } from './support/shifts.ts';

const ENDPOINT = 'https://worker.example.test';
const MEDIA_PATH = /^\/api\/sites\/[^/]+\/media\/[^/]+$/;
const PLAYER_PATH = /^\/api\/sites\/[^/]+\/players\/[^/]+$/;
const FEED_PATH = /^\/api\/sites\/[^/]+\/playlists\/[^/]+$/;
const GATE_PATH = /^\/api\/gate\/[^/]+$/;

/** `html` (one element) in a column (412 px: a phone) with a paragraph under it, all in view. */
async function mount<T extends HTMLElement>(html: string, width = 412): Promise<T> {
  const wrapper = await fixture<HTMLDivElement>(`
    <div class="shift-fixture" lang="en" style="inline-size: ${width}px">${html}<p class="below">The article goes on under the widget.</p></div>`);
  await painted();
  return wrapper.firstElementChild as T;
}

async function release(held: Held, body: unknown): Promise<void> {
  held.release(json(body));
  await painted();
}

/** A 16:9 picture, inline so the suite needs no image server. */
const POSTER = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="90"><rect width="160" height="90" fill="#b3261e"/></svg>')}`;

const CONFIG = {
  aspectratio: '4:3', playbackRateControls: true, displaytitle: true, displaydescription: true,
};
const LONG = media('m1', {
  title: 'A rather long title for a video that will not fit on one line of a narrow column',
  description: 'A description long enough to wrap over several lines in a column of this width, as editors write '
    + 'them: who is in it, where it was filmed, and why it matters to the reader of this article.',
});

describe('layout shift: the elements contribute none', () => {
  let worker: FakeWorker;
  beforeEach(() => {
    worker = new FakeWorker().install();
  });
  afterEach(() => worker.restore());

  for (const order of ['media first', 'configuration first'] as const) {
    it(`<reel-player>: none while the media and then the configuration arrive (${order})`, async () => {
      const mediaAnswer = hold();
      const configAnswer = hold();
      worker.on(MEDIA_PATH, () => mediaAnswer.promise).on(PLAYER_PATH, () => configAnswer.promise);
      const shifts = watchShifts();
      const el = await mount(
        `<reel-player site="${SITE}" media="m1" player="p1" ratio="4:3" endpoint="${ENDPOINT}"></reel-player>`);
      if (order === 'media first') {
        await release(mediaAnswer, LONG);
        await release(configAnswer, player(CONFIG));
      } else {
        await release(configAnswer, player(CONFIG));
        await release(mediaAnswer, LONG);
      }
      await untilState(el, 'complete');
      // The speed menu comes with the playback kit, a chunk loaded once the player has media and is near: its arrival
      // counts too.
      await waitUntil(() => el.shadowRoot!.querySelector('[part="rate-menu"]'), 'the speed menu (the playback kit) never came',
        { timeout: 10000 });
      expect(el.shadowRoot!.querySelector('[part="description"]')).to.not.equal(null);
      expect(await shifts.total()).to.equal(0);
    });
  }

  it('<reel-player>: none when the configuration\'s shape differs from `ratio` (the picture is letterboxed)', async () => {
    const configAnswer = hold();
    worker.on(MEDIA_PATH, () => json(LONG)).on(PLAYER_PATH, () => configAnswer.promise);
    const shifts = watchShifts();
    const el = await mount<ReelPlayer>(
      `<reel-player site="${SITE}" media="m1" player="p1" ratio="16:9" endpoint="${ENDPOINT}"></reel-player>`);
    await untilState(el, 'complete');
    await painted();
    await release(configAnswer, player({ ...CONFIG, aspectratio: '9:16' }));
    await el.updateComplete;
    const frame = el.shadowRoot!.querySelector('[part="frame"]')!.getBoundingClientRect();
    const video = el.shadowRoot!.querySelector('video')!.getBoundingClientRect();
    expect(Math.round(frame.height)).to.equal(Math.round(412 * 9 / 16));
    expect(Math.round(video.width)).to.equal(Math.round(frame.height * 9 / 16));
    expect(await shifts.total()).to.equal(0);
  });

  it('<reel-player poster>: the picture from first paint, before the media answers; the video covers it; none', async () => {
    const mediaAnswer = hold();
    worker.on(MEDIA_PATH, () => mediaAnswer.promise);
    const shifts = watchShifts();
    const el = await mount<ReelPlayer>(
      `<reel-player site="${SITE}" media="m7" poster="${POSTER}" endpoint="${ENDPOINT}"></reel-player>`);
    const frame = el.shadowRoot!.querySelector('[part="frame"]')!;
    const img = frame.querySelector<HTMLImageElement>('img[part="poster"]');
    expect(img, 'the poster, while the media is still asked for').to.not.equal(null);
    await img!.decode();
    await painted();
    expect(el.state).to.equal('loading');
    expect(img!.naturalWidth).to.equal(160);
    expect(img!.checkVisibility()).to.equal(true);
    const box = (e: Element) => {
      const { x, y, width, height } = e.getBoundingClientRect();
      return [x, y, width, height].map(Math.round);
    };
    expect(box(img!)).to.deep.equal(box(frame));
    // The picture is not the pulsing skeleton, and screen readers hear the loading status, not an image.
    expect(frame.classList.contains('skeleton')).to.equal(false);
    expect(img!.alt).to.equal('');

    await release(mediaAnswer, media('m7', { poster: POSTER }));
    await untilState(el, 'complete');
    const video = el.video!;
    expect(video.getAttribute('poster')).to.equal(POSTER);
    // Still there, under the video: until the video's own poster (the same picture) is drawn, it shows through.
    expect(frame.querySelector('img[part="poster"]')).to.equal(img);
    expect(img!.compareDocumentPosition(video) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    expect(box(video)).to.deep.equal(box(img!));
    video.dispatchEvent(new Event('playing'));
    await el.updateComplete;
    expect(frame.querySelector('img'), 'gone once the video plays').to.equal(null);
    expect(await shifts.total()).to.equal(0);
  });

  it('<reel-player>: none without a configuration (title and description by default)', async () => {
    const mediaAnswer = hold();
    worker.on(MEDIA_PATH, () => mediaAnswer.promise);
    const shifts = watchShifts();
    const el = await mount(`<reel-player site="${SITE}" media="m1" endpoint="${ENDPOINT}"></reel-player>`);
    await release(mediaAnswer, LONG);
    await untilState(el, 'complete');
    expect(await shifts.total()).to.equal(0);
  });

  for (const [name, answer] of [
    ['denied', gate(false, 'continent_not_allowed', 'US')],
    ['allowed', gate(true, 'allowed', 'DE')],
  ] as const) {
    it(`<reel-geo-gate>: none from pending to ${name}`, async () => {
      const held = hold();
      worker.on(GATE_PATH, () => held.promise);
      const shifts = watchShifts();
      const el = await mount(`
        <reel-geo-gate policy="europe" endpoint="${ENDPOINT}">
          <p>Gated text, put in directly.</p>
        </reel-geo-gate>`);
      await untilState(el, 'pending');
      await painted();
      await release(held, answer);
      await untilState(el, name);
      expect(await shifts.total()).to.equal(0);
    });
  }

  // Small pages, so the paragraph under the list is in view (a shift out of view is no shift).
  for (const [layout, width, size, total] of [['grid', 640, 2, 9], ['list', 412, 3, 9], ['list', 412, 3, 2]] as const) {
    it(`<reel-playlist>: none from the skeleton to the cards (${layout}, page of ${size}, ${total} in all)`, async () => {
      const held = hold();
      worker.on(FEED_PATH, () => held.promise);
      const shifts = watchShifts();
      const el = await mount(`<reel-playlist site="${SITE}" playlist="iREdEiCK" layout="${layout}" page-size="${size}"
        endpoint="${ENDPOINT}"></reel-playlist>`, width);
      expect(el.nextElementSibling!.getBoundingClientRect().bottom).to.be.below(innerHeight);
      await release(held, feed(1, size, total));
      await untilState(el, 'complete');
      expect(await shifts.total()).to.equal(0);
    });
  }

  it('<reel-player-config>: none from the skeleton to the panel', async () => {
    const held = hold();
    worker.on(PLAYER_PATH, () => held.promise);
    const shifts = watchShifts();
    const el = await mount(`<reel-player-config site="${SITE}" player="p1" endpoint="${ENDPOINT}"></reel-player-config>`);
    await release(held, player(CONFIG));
    await untilState(el, 'complete');
    expect(await shifts.total()).to.equal(0);
  });
});
