// The elements in a pseudo-locale (every message accented and 40 % longer: support/pseudo-locale.ts), in a phone's
// column: what a wordy language does to them. Walked through their states with held answers, they must keep CLS at
// 0 and keep every piece of text inside their own box (nothing overflows the column).
import { expect, fixture, waitUntil } from '@open-wc/testing';
import '../../components/reel-geo-gate/define.ts';
import '../../components/reel-player-config/define.ts';
import '../../components/reel-player/define.ts';
import '../../components/reel-playlist/define.ts';
import { FakeWorker, hold, json } from './support/fake-worker.ts';
import { SITE, feed, gate, media, player } from './support/fixtures.ts';
import { untilState } from './support/dom.ts';
import { PSEUDO, pseudo, usePseudoLocale } from './support/pseudo-locale.ts';
import { painted, watchShifts } from './support/shifts.ts';

const ENDPOINT = 'https://worker.example.test';
const MEDIA_PATH = /^\/api\/sites\/[^/]+\/media\/[^/]+$/;
const PLAYER_PATH = /^\/api\/sites\/[^/]+\/players\/[^/]+$/;
const FEED_PATH = /^\/api\/sites\/[^/]+\/playlists\/[^/]+$/;
const GATE_PATH = /^\/api\/gate\/[^/]+$/;
const WIDTH = 360;

async function mount<T extends HTMLElement>(markup: string): Promise<T> {
  const wrapper = await fixture<HTMLDivElement>(`
    <div class="shift-fixture" lang="${PSEUDO}" style="inline-size: ${WIDTH}px">${markup}<p>The article goes on.</p></div>`);
  await painted();
  return wrapper.firstElementChild as T;
}

/** What of `el`'s shadow tree reaches out of its box, sideways: text that did not wrap, a control wider than it. */
function overflowing(el: HTMLElement): string[] {
  const box = el.getBoundingClientRect();
  const out: string[] = [];
  for (const node of el.shadowRoot!.querySelectorAll<HTMLElement>('*')) {
    if (node.closest('.visually-hidden') || !node.checkVisibility({ visibilityProperty: true })) continue;
    const rect = node.getBoundingClientRect();
    if (rect.width === 0) continue;
    if (rect.left < box.left - 1 || rect.right > box.right + 1) out.push(`${node.localName}.${node.className || node.getAttribute('part')}`);
  }
  return out;
}

describe('a pseudo-locale 40 % longer, accented: no overflow, no layout shift', () => {
  let worker: FakeWorker;
  let restore: () => void;
  beforeEach(() => {
    worker = new FakeWorker().install();
    restore = usePseudoLocale();
  });
  afterEach(() => {
    worker.restore();
    restore();
  });

  it('<reel-playlist>: the skeleton, the cards, the count and "load more", in its words', async () => {
    const held = hold();
    worker.on(FEED_PATH, () => held.promise);
    const shifts = watchShifts();
    const el = await mount(`<reel-playlist site="${SITE}" playlist="p1" page-size="4" endpoint="${ENDPOINT}"></reel-playlist>`);
    held.release(json(feed(1, 4, 9)));
    await untilState(el, 'complete');
    expect(el.shadowRoot!.querySelector('[part="load-more"]')!.textContent!.trim()).to.equal(pseudo('Load more'));
    expect(overflowing(el)).to.deep.equal([]);
    expect(await shifts.total()).to.equal(0);
  });

  it('<reel-geo-gate>: pending, then refused with the longest reason, in its words', async () => {
    const held = hold();
    worker.on(GATE_PATH, () => held.promise);
    const shifts = watchShifts();
    const el = await mount(`<reel-geo-gate policy="europe" endpoint="${ENDPOINT}"><p>Gated text.</p></reel-geo-gate>`);
    await untilState(el, 'pending');
    await painted();
    held.release(json(gate(false, 'location_unknown', null)));
    await untilState(el, 'denied');
    await waitUntil(() => el.shadowRoot!.querySelector('[part="reason"]')!.textContent!.trim(), 'no reason');
    expect(overflowing(el)).to.deep.equal([]);
    expect(await shifts.total()).to.equal(0);
  });

  it('<reel-player> with its configuration: the frame, the title and the playback kit\'s menus, in its words', async () => {
    worker.on(MEDIA_PATH, () => json(media('m1'))).on(PLAYER_PATH, () => json(player({ playbackRateControls: true })));
    const shifts = watchShifts();
    const el = await mount(`<reel-player site="${SITE}" media="m1" player="p1" endpoint="${ENDPOINT}"></reel-player>`);
    await untilState(el, 'complete');
    await waitUntil(() => el.shadowRoot!.querySelector('[part="rate-menu"]'), 'the playback kit never came', { timeout: 10000 });
    await painted();
    expect(overflowing(el)).to.deep.equal([]);
    expect(await shifts.total()).to.equal(0);
  });

  it('<reel-player-config>: the panel\'s names and values, in its words', async () => {
    const held = hold();
    worker.on(PLAYER_PATH, () => held.promise);
    const shifts = watchShifts();
    const el = await mount(`<reel-player-config site="${SITE}" player="p1" endpoint="${ENDPOINT}"></reel-player-config>`);
    held.release(json(player({ aspectratio: '16:9', autostart: 'viewable', preload: 'auto', stretching: 'uniform' })));
    await untilState(el, 'complete');
    await painted();
    expect(overflowing(el)).to.deep.equal([]);
    expect(await shifts.total()).to.equal(0);
  });
});
