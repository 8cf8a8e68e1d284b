/**
 * The elements against the real edge worker and sandbox (started by test/run-browser-tests.mjs with DEV_MODE on; this
 * page reaches them through the test server's /api proxy, so the elements use their default endpoint: the origin
 * their module was loaded from). Ids are the sandbox's deterministic seed (demo/sandbox/seed.ts); addresses are its
 * geo fixtures (demo/sandbox/geo-fixtures.ts).
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../components/index.ts';
import { $, $$, nextEvent, untilState } from '../support/dom.ts';
import { BERLIN, EUROPE_SITE, FOOD, LIVE_MUSIC, NEW_YORK, SITE } from '../support/seed.ts';

const ARTICLE_PLAYER = 'RkWDvjNV';
const AUTOPLAY_PLAYER = 'YPi7CmXG';
const TOR_EXIT = '198.51.100.13';

/** Every URL the page fetched, the real fetch still answering. */
function spyOnFetch(): { urls: string[]; restore(): void } {
  const original = window.fetch;
  const urls: string[] = [];
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return original(input, init);
  };
  return { urls, restore: () => { window.fetch = original; } };
}

describe('elements against the real worker and sandbox', () => {
  let spy: ReturnType<typeof spyOnFetch>;
  beforeEach(() => {
    spy = spyOnFetch();
  });
  afterEach(() => {
    spy.restore();
    delete window.reelgate;
  });

  it('pages through a sandbox playlist with "Load more" until every item is shown', async () => {
    const el = await fixture<HTMLElementTagNameMap['reel-playlist']>(html`
      <reel-playlist site=${SITE} playlist=${FOOD} page-size="5"></reel-playlist>`);
    await untilState(el, 'complete');
    expect(spy.urls[0]).to.equal(`${location.origin}/api/sites/${SITE}/playlists/${FOOD}?page=1&page_length=5`);
    expect($(el, '[part="title"]')!.textContent).to.equal('Food & Recipes');
    const total = el.feed!.total;
    expect(total).to.be.greaterThan(5);
    expect($$(el, '[part="card"]')).to.have.length(5);
    while ($(el, '[part="load-more"]')) {
      const loaded = nextEvent(el, 'reel-load');
      $(el, '[part="load-more"]')!.click();
      await loaded;
      await el.updateComplete;
    }
    expect($$(el, '[part="card"]')).to.have.length(total);
    expect(new Set(el.items.map((item) => item.id)).size).to.equal(total);
    await expect(el).to.be.accessible();
  });

  it('plays the card chosen in a linked playlist, with a sandbox rendition and the player configuration', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: 640px">
        <reel-player site=${SITE} player=${ARTICLE_PLAYER} for="shelf"></reel-player>
        <reel-playlist id="shelf" site=${SITE} playlist=${FOOD} page-size="4"></reel-playlist>
      </div>`);
    const player = wrapper.querySelector('reel-player')!;
    const playlist = wrapper.querySelector('reel-playlist')!;
    await untilState(playlist, 'complete');
    await untilState(player, 'complete');
    expect(player.media).to.equal(playlist.items[0]!.id);
    const chosen = playlist.items[2]!;
    $$(playlist, '[part="card"]')[2]!.click();
    await player.updateComplete;
    await untilState(player, 'complete');
    expect(player.media).to.equal(chosen.id);
    const video = $(player, 'video') as HTMLVideoElement;
    // Every sandbox media has HLS, which this Chromium plays through MSE: hls.js loads the sandbox's master playlist.
    expect(player.engine).to.equal('mse');
    const master = `/manifests/${chosen.id}.m3u8`;
    await waitUntil(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith(master)),
      `hls.js never loaded ${master}`, { timeout: 10000 });
    expect($(player, '[part="title"]')!.textContent).to.equal(chosen.title);
    // The Article player: a speed menu (playbackRateControls: true), 16:9, no autostart.
    await waitUntil(() => $(player, '[part="rate-menu"]'), 'no speed menu');
    expect(($(player, '[part="rate-menu"]') as HTMLSelectElement).options).to.have.length(6);
    expect(video.autoplay).to.equal(false);
    await expect(player).to.be.accessible();
  });

  it('describes a sandbox player configuration in plain words', async () => {
    const el = await fixture<HTMLElementTagNameMap['reel-player-config']>(html`
      <reel-player-config site=${SITE} player=${AUTOPLAY_PLAYER}></reel-player-config>`);
    await untilState(el, 'complete');
    expect($(el, '[part="name"]')!.textContent).to.equal('Homepage autoplay (muted)');
    expect($(el, '[part="channel"]')!.textContent).to.equal('Release channel: preview');
    const values = Object.fromEntries($$(el, 'dt').map((dt, i) => [dt.querySelector('code')!.textContent,
      $$(el, 'dd')[i]!.textContent!.trim()]));
    expect(values.autostart).to.equal('When scrolled into view, muted');
    expect(values.stretching).to.equal('Fills the frame, cropping the edges');
    expect(values.related).to.equal('{"oncomplete":"autoplay","displayMode":"shelf"}');
    await expect(el).to.be.accessible();
  });

  it('opens the europe gate for a Berlin visitor and stamps the gated playlist', async () => {
    window.reelgate = { devIp: BERLIN };
    const decided = nextEvent(document, 'reel-gate-decision');
    const el = await fixture<HTMLElementTagNameMap['reel-geo-gate']>(`
      <reel-geo-gate policy="europe">
        <template><reel-playlist site="${EUROPE_SITE}" playlist="${LIVE_MUSIC}"></reel-playlist></template>
      </reel-geo-gate>`);
    const event = await decided;
    expect([event.allowed, event.reason, event.country]).to.deep.equal([true, 'allowed', 'DE']);
    await untilState(el, 'allowed');
    const playlist = el.querySelector('reel-playlist')!;
    await untilState(playlist, 'complete');
    expect($(playlist, '[part="title"]')!.textContent).to.equal('Live Music');
    expect($$(playlist, '[part="card"]').length).to.be.greaterThan(0);
    await expect(el).to.be.accessible();
  });

  it('keeps the europe gate closed for a New York visitor: reason shown, gated playlist never fetched', async () => {
    window.reelgate = { devIp: NEW_YORK };
    const el = await fixture<HTMLElementTagNameMap['reel-geo-gate']>(`
      <reel-geo-gate policy="europe">
        <p slot="denied">Europe only.</p>
        <template><reel-playlist site="${EUROPE_SITE}" playlist="${LIVE_MUSIC}"></reel-playlist></template>
      </reel-geo-gate>`);
    await untilState(el, 'denied');
    expect(el.reason).to.equal('continent_not_allowed');
    expect($(el, '[part="reason"]')!.textContent!.trim())
      .to.equal('Only available in some parts of the world, not in United States.');
    expect(el.querySelector('reel-playlist')).to.equal(null);
    expect(spy.urls.filter((url) => url.includes('/playlists/'))).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('keeps the europe gate closed for a Tor exit in Europe', async () => {
    window.reelgate = { devIp: TOR_EXIT };
    const el = await fixture<HTMLElementTagNameMap['reel-geo-gate']>(html`<reel-geo-gate policy="europe"></reel-geo-gate>`);
    await untilState(el, 'denied');
    expect(el.reason).to.equal('proxy_denied');
  });

  it('shows the worker’s own refusal (451) when a gated feed is asked for without the gate', async () => {
    window.reelgate = { devIp: NEW_YORK };
    const el = await fixture<HTMLElementTagNameMap['reel-playlist']>(html`
      <reel-playlist site=${EUROPE_SITE} playlist=${LIVE_MUSIC}></reel-playlist>`);
    const error = nextEvent(el, 'reel-error');
    await untilState(el, 'error');
    expect((await error).status).to.equal(451);
    expect($(el, '[part="error"] p')!.textContent).to.equal('This content isn’t available where you are.');
  });
});
