import arabic from '../../components/shared/i18n/packs/ar.ts';
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../components/reel-playlist/define.ts';
import type { ReelPlaylist } from '../../components/reel-playlist/reel-playlist.ts';
import { FakeWorker, apiError, hold, json } from './support/fake-worker.ts';
import { PLAYLIST, SITE, feed } from './support/fixtures.ts';
import { $, $$, nextEvent, untilState } from './support/dom.ts';

const ENDPOINT = 'https://worker.example.test';
const FEED_PATH = /^\/api\/sites\/[^/]+\/playlists\/[^/]+$/;

/** Answers feeds of `total` items, honouring page and page_length like the worker. */
function serveFeed(worker: FakeWorker, total: number, title?: string) {
  worker.on(FEED_PATH, (url) => {
    const page = Number(url.searchParams.get('page'));
    const length = Number(url.searchParams.get('page_length'));
    const playlist = url.pathname.split('/').pop()!;
    return json(feed(page, length, total, title ?? `Playlist ${playlist}`, playlist));
  });
}

async function mount(attrs: { pageSize?: number; layout?: string; lang?: string } = {}) {
  const wrapper = await fixture<HTMLDivElement>(html`
    <div lang=${attrs.lang ?? 'en'} style="inline-size: 900px">
      <reel-playlist site=${SITE} playlist=${PLAYLIST} endpoint=${ENDPOINT} page-size=${attrs.pageSize ?? 6}
        layout=${attrs.layout ?? 'grid'}></reel-playlist>
    </div>`);
  return wrapper.querySelector('reel-playlist')!;
}

const cards = (el: ReelPlaylist) => $$(el, '[part="card"]');
const titles = (el: ReelPlaylist) => $$(el, '[part="card-title"]').map((t) => t.textContent!.trim());

describe('<reel-playlist>', () => {
  let worker: FakeWorker;
  beforeEach(() => {
    worker = new FakeWorker().install();
  });
  afterEach(() => worker.restore());

  it('asks the worker for the first page of the playlist with its page size', async () => {
    serveFeed(worker, 20);
    const el = await mount({ pageSize: 6 });
    await untilState(el, 'complete');
    const [call] = worker.callsTo(FEED_PATH);
    expect(call!.url.origin).to.equal(ENDPOINT);
    expect(call!.url.pathname).to.equal(`/api/sites/${SITE}/playlists/${PLAYLIST}`);
    expect(call!.url.searchParams.get('page')).to.equal('1');
    expect(call!.url.searchParams.get('page_length')).to.equal('6');
    expect(call!.signal).to.be.instanceOf(AbortSignal);
  });

  it('renders a card per item with title, localised duration and a lazy thumbnail of fixed aspect', async () => {
    serveFeed(worker, 3, "Editors' Picks");
    const el = await mount();
    await untilState(el, 'complete');
    expect(titles(el)).to.deep.equal(['Video number 1', 'Video number 2', 'Video number 3']);
    expect($(el, '[part="title"]')!.textContent).to.equal("Editors' Picks");
    expect($(el, '[part="count"]')!.textContent).to.equal('3 videos');
    const badge = $(el, '[part="duration"]')!;
    expect(badge.textContent!.replace(/\s+/g, ' ').trim()).to.equal('4:06, 4 minutes 6 seconds');
    const img = $(el, '[part="thumbnail"] img') as HTMLImageElement;
    expect(img.loading).to.equal('lazy');
    expect(img.alt).to.equal('');
    // The box has its size before the image arrives: no layout shift.
    const box = $(el, '[part="thumbnail"]')!.getBoundingClientRect();
    expect(Math.round(box.height)).to.equal(Math.round((box.width * 9) / 16));
  });

  it('formats numbers and durations in the language of the closest [lang] ancestor, in its words', async () => {
    serveFeed(worker, 3);
    const el = await mount({ lang: 'ar-EG' });
    await untilState(el, 'complete');
    const badge = $(el, '[part="duration"] [aria-hidden="true"]')!;
    expect(badge.textContent).to.equal('٤:٠٦');
    // Egyptian Arabic: Arabic-Indic digits, and the Arabic pack's plural form for three (`few`).
    const count = (arabic.videoCount as { few: string }).few.replace('{count}', '٣');
    // In English until the Arabic pack has come (a moment after the first render).
    await waitUntil(() => $(el, '[part="count"]')!.textContent === count, 'the count never came in Arabic');
  });

  it('shows a loading skeleton while the first page is on its way', async () => {
    const held = hold();
    worker.on(FEED_PATH, () => held.promise);
    const el = await mount({ pageSize: 4 });
    expect(el.getAttribute('state')).to.equal('loading');
    expect($$(el, '.skeleton-card')).to.have.length(4);
    expect($(el, '[role="status"]')!.textContent).to.equal('Loading videos…');
    held.release(json(feed(1, 4, 2)));
    await untilState(el, 'complete');
    expect($$(el, '.skeleton-card')).to.have.length(0);
  });

  it('shows the empty state, with the page’s own message when given', async () => {
    serveFeed(worker, 0);
    const wrapper = await fixture<HTMLDivElement>(html`
      <div><reel-playlist site=${SITE} playlist=${PLAYLIST} endpoint=${ENDPOINT}>
        <p slot="empty">Nothing on the menu today.</p></reel-playlist></div>`);
    const el = wrapper.querySelector('reel-playlist')!;
    await untilState(el, 'empty');
    const slot = $(el, 'slot[name="empty"]') as HTMLSlotElement;
    expect(slot.assignedElements()[0]!.textContent).to.equal('Nothing on the menu today.');
    expect(cards(el)).to.have.length(0);
  });

  it('shows an error with a retry that loads the playlist again', async () => {
    let fail = true;
    worker.on(FEED_PATH, (url) => (fail ? apiError(503, 'upstream_unavailable', 'Upstream is down.')
      : json(feed(Number(url.searchParams.get('page')), 6, 2))));
    const error = nextEvent(document, 'reel-error');
    const el = await mount();
    await untilState(el, 'error');
    expect((await error).status).to.equal(503);
    expect($(el, '[part="error"]')!.getAttribute('role')).to.equal('alert');
    expect($(el, '[part="error"] p')!.textContent).to.equal('The video service is having trouble. Please try again.');
    fail = false;
    $(el, '[part="retry"]')!.click();
    await untilState(el, 'complete');
    expect(titles(el)).to.have.length(2);
    expect(worker.callsTo(FEED_PATH)).to.have.length(2);
  });

  it('explains a geo block (451) in words, without a pointless retry', async () => {
    worker.on(FEED_PATH, () => apiError(451, 'geo_blocked', 'Not available in your region.'));
    const el = await mount();
    await untilState(el, 'error');
    expect($(el, '[part="error"] p')!.textContent).to.equal('This content isn’t available where you are.');
    expect($(el, '[part="retry"]')).to.equal(null);
  });

  it('pages with "Load more" until the last page', async () => {
    serveFeed(worker, 14);
    const el = await mount({ pageSize: 6 });
    await untilState(el, 'complete');
    expect(cards(el)).to.have.length(6);
    $(el, '[part="load-more"]')!.click();
    await nextEvent(el, 'reel-load');
    await el.updateComplete;
    expect(cards(el)).to.have.length(12);
    expect(worker.callsTo(FEED_PATH).map((c) => c.url.searchParams.get('page'))).to.deep.equal(['1', '2']);
    $(el, '[part="load-more"]')!.click();
    const last = await nextEvent(el, 'reel-load');
    await el.updateComplete;
    expect(last.items).to.have.length(14);
    expect(titles(el).at(-1)).to.equal('Video number 14');
    expect($(el, '[part="load-more"]')).to.equal(null);
    expect($(el, '[role="status"]')!.textContent).to.equal('2 more videos loaded.');
  });

  it('offers a retry when "Load more" fails, keeping the cards it has', async () => {
    let fail = true;
    worker.on(FEED_PATH, (url) => {
      const page = Number(url.searchParams.get('page'));
      if (page === 2 && fail) return apiError(502, 'upstream_error', 'Bad gateway.');
      return json(feed(page, 6, 10));
    });
    const el = await mount({ pageSize: 6 });
    await untilState(el, 'complete');
    $(el, '[part="load-more"]')!.click();
    await nextEvent(el, 'reel-error');
    await el.updateComplete;
    expect(cards(el)).to.have.length(6);
    expect($(el, '[part="load-more"]')!.textContent).to.equal('Try again');
    fail = false;
    $(el, '[part="load-more"]')!.click();
    await nextEvent(el, 'reel-load');
    await el.updateComplete;
    expect(cards(el)).to.have.length(10);
  });

  it('drops a "Load more" still on its way when a new first page is asked for', async () => {
    const more = hold();
    worker.on(FEED_PATH, (url) => {
      const page = Number(url.searchParams.get('page'));
      const playlist = url.pathname.split('/').pop()!;
      return page === 2 ? more.promise : json(feed(page, 6, 10, `Playlist ${playlist}`, playlist));
    });
    const el = await mount({ pageSize: 6 });
    await untilState(el, 'complete');
    const loads: Event[] = [];
    el.addEventListener('reel-load', (event) => loads.push(event));
    $(el, '[part="load-more"]')!.click();
    await el.updateComplete;
    expect($(el, '[part="load-more"]')!.textContent).to.equal('Loading…');
    el.playlist = 'other';
    await untilState(el, 'complete');
    const pageTwo = worker.callsTo(FEED_PATH).find((c) => c.url.searchParams.get('page') === '2')!;
    expect(pageTwo.signal!.aborted).to.equal(true);
    more.release(json(feed(2, 6, 10)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await el.updateComplete;
    expect(loads).to.have.length(1);
    expect($(el, '[part="title"]')!.textContent).to.equal('Playlist other');
    expect(cards(el)).to.have.length(6);
    expect($(el, '[part="load-more"]')!.textContent).to.equal('Load more');
  });

  it('emits reel-select (bubbling, composed) with the media id when a card is clicked', async () => {
    serveFeed(worker, 3);
    const el = await mount();
    await untilState(el, 'complete');
    const selected = nextEvent(document, 'reel-select');
    cards(el)[1]!.click();
    const event = await selected;
    expect(event.mediaId).to.equal('media002');
    expect(event.item.title).to.equal('Video number 2');
    expect(event.bubbles && event.composed).to.equal(true);
    await el.updateComplete;
    expect(el.selected).to.equal('media002');
    expect(cards(el).map((c) => c.getAttribute('aria-selected'))).to.deep.equal(['false', 'true', 'false']);
  });

  it('moves focus across cards with the arrow keys, Home and End, as one tab stop', async () => {
    serveFeed(worker, 5);
    const el = await mount({ layout: 'list' });
    await untilState(el, 'complete');
    expect(cards(el).map((c) => c.tabIndex)).to.deep.equal([0, -1, -1, -1, -1]);
    cards(el)[0]!.focus();
    await sendKeys({ press: 'ArrowDown' });
    expect(el.shadowRoot!.activeElement).to.equal(cards(el)[1]);
    await sendKeys({ press: 'ArrowRight' });
    expect(el.shadowRoot!.activeElement).to.equal(cards(el)[2]);
    await sendKeys({ press: 'End' });
    expect(el.shadowRoot!.activeElement).to.equal(cards(el)[4]);
    await sendKeys({ press: 'ArrowDown' });
    expect(el.shadowRoot!.activeElement).to.equal(cards(el)[4]);
    await sendKeys({ press: 'Home' });
    expect(el.shadowRoot!.activeElement).to.equal(cards(el)[0]);
    await sendKeys({ press: 'ArrowUp' });
    expect(el.shadowRoot!.activeElement).to.equal(cards(el)[0]);
    await el.updateComplete;
    expect(cards(el).map((c) => c.tabIndex)).to.deep.equal([0, -1, -1, -1, -1]);
  });

  it('moves by a whole row with ArrowDown in the grid layout', async () => {
    serveFeed(worker, 8);
    const el = await mount({ pageSize: 8 });
    el.style.setProperty('--reel-card-min-width', '200px');
    await untilState(el, 'complete');
    const list = cards(el);
    const columns = list.filter((c) => c.offsetTop === list[0]!.offsetTop).length;
    expect(columns).to.be.greaterThan(1);
    list[0]!.focus();
    await sendKeys({ press: 'ArrowDown' });
    expect(el.shadowRoot!.activeElement).to.equal(list[columns]);
  });

  it('reverses ArrowLeft and ArrowRight in right-to-left pages', async () => {
    serveFeed(worker, 3);
    const wrapper = await fixture<HTMLDivElement>(html`
      <div dir="rtl"><reel-playlist site=${SITE} playlist=${PLAYLIST} endpoint=${ENDPOINT}></reel-playlist></div>`);
    const el = wrapper.querySelector('reel-playlist')!;
    await untilState(el, 'complete');
    cards(el)[0]!.focus();
    await sendKeys({ press: 'ArrowLeft' });
    expect(el.shadowRoot!.activeElement).to.equal(cards(el)[1]);
  });

  it('chooses the focused card with Enter and with Space', async () => {
    serveFeed(worker, 3);
    const el = await mount();
    await untilState(el, 'complete');
    cards(el)[0]!.focus();
    await sendKeys({ press: 'ArrowRight' });
    let selected = nextEvent(el, 'reel-select');
    await sendKeys({ press: 'Enter' });
    expect((await selected).mediaId).to.equal('media002');
    await sendKeys({ press: 'ArrowRight' });
    selected = nextEvent(el, 'reel-select');
    await sendKeys({ press: 'Space' });
    expect((await selected).mediaId).to.equal('media003');
  });

  it('never lets a stale answer overwrite a newer one, and aborts the stale request', async () => {
    const first = hold();
    const second = hold();
    worker.on(FEED_PATH, (url) => (url.pathname.endsWith('/old') ? first.promise : second.promise));
    const wrapper = await fixture<HTMLDivElement>(html`
      <div><reel-playlist site=${SITE} playlist="old" endpoint=${ENDPOINT}></reel-playlist></div>`);
    const el = wrapper.querySelector('reel-playlist')!;
    await el.updateComplete;
    el.playlist = 'new';
    await el.updateComplete;
    const [oldCall, newCall] = worker.callsTo(FEED_PATH);
    expect(oldCall!.signal!.aborted).to.equal(true);
    second.release(json(feed(1, 6, 2, 'The new one', 'new')));
    await untilState(el, 'complete');
    first.release(json(feed(1, 6, 5, 'The old one', 'old')));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await el.updateComplete;
    expect($(el, '[part="title"]')!.textContent).to.equal('The new one');
    expect(cards(el)).to.have.length(2);
    expect(newCall!.signal!.aborted).to.equal(false);
  });

  it('passes an axe accessibility audit when loaded, empty and failed', async () => {
    serveFeed(worker, 4);
    const el = await mount();
    await untilState(el, 'complete');
    await expect(el).to.be.accessible();

    worker.on(FEED_PATH, () => apiError(500, 'server_error', 'Broken.'));
    el.playlist = 'other';
    await untilState(el, 'error');
    await expect(el).to.be.accessible();
  });
});
