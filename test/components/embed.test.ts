import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { FakeWorker, json } from './support/fake-worker.ts';
import { feed, gate, media, PLAYLIST, player, SITE } from './support/fixtures.ts';
import { $, $$ } from './support/dom.ts';

// The built bundle (npm run build runs before the suites), loaded the way a publisher's page loads it.
const BUNDLE = '/dist/reelgate.js';
const TAGS = ['reel-playlist', 'reel-player', 'reel-player-config', 'reel-geo-gate'];

function addScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.type = 'module';
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${src} failed to load`));
    document.head.append(script);
  });
}

describe('the embed bundle', () => {
  let worker: FakeWorker;
  const errors: string[] = [];
  const onError = (event: ErrorEvent) => errors.push(event.message);
  before(() => window.addEventListener('error', onError));
  after(() => window.removeEventListener('error', onError));
  beforeEach(() => {
    worker = new FakeWorker().install();
    worker.on(/\/playlists\//, () => json(feed(1, 12, 2)));
  });
  afterEach(() => {
    worker.restore();
    delete window.reelgate;
  });

  it('defines every element, and loading it twice (two separate copies) is harmless', async () => {
    await addScript(`${BUNDLE}?copy=1`);
    const first = TAGS.map((tag) => customElements.get(tag));
    expect(first.every(Boolean)).to.equal(true);
    // A second copy of the module (different URL, so the browser evaluates it again) finds the tags taken.
    await addScript(`${BUNDLE}?copy=2`);
    await addScript(`${BUNDLE}?copy=1`);
    expect(TAGS.map((tag) => customElements.get(tag))).to.deep.equal(first);
    expect(errors).to.deep.equal([]);
    const el = await fixture(html`<reel-playlist site="vbQmzoYd" playlist="JwMCDvZA"></reel-playlist>`);
    await waitUntil(() => el.getAttribute('state') === 'complete', 'the playlist never loaded');
    expect(el.shadowRoot!.querySelectorAll('[part="card"]')).to.have.length(2);
  });

  it('talks to the worker it was loaded from when no endpoint is given', async () => {
    await addScript(`${BUNDLE}?copy=1`);
    await fixture(html`<reel-playlist site="vbQmzoYd" playlist="JwMCDvZA"></reel-playlist>`);
    await waitUntil(() => worker.calls.length > 0, 'no request was made');
    expect(worker.calls[0]!.url.origin).to.equal(new URL(BUNDLE, location.href).origin);
  });

  it('calls the page-wide endpoint (window.reelgate.endpoint) when one is set, an element\'s own attribute first', async () => {
    await addScript(`${BUNDLE}?copy=1`);
    window.reelgate = { endpoint: 'https://video.publisher.example/' };
    try {
      await fixture(html`<reel-playlist site="vbQmzoYd" playlist="JwMCDvZA"></reel-playlist>`);
      await waitUntil(() => worker.calls.length === 1, 'no request was made');
      expect(worker.calls[0]!.url.origin).to.equal('https://video.publisher.example');
      await fixture(html`<reel-playlist site="vbQmzoYd" playlist="DGRTLuft" endpoint="https://other.example"></reel-playlist>`);
      await waitUntil(() => worker.calls.length === 2, 'no second request was made');
      expect(worker.calls[1]!.url.origin).to.equal('https://other.example');
    } finally {
      delete window.reelgate;
    }
  });

  it('sends the dev address only when the page opts in through window.reelgate.devIp', async () => {
    await addScript(`${BUNDLE}?copy=1`);
    await fixture(html`<reel-playlist site="vbQmzoYd" playlist="JwMCDvZA"></reel-playlist>`);
    await waitUntil(() => worker.calls.length === 1, 'no request was made');
    expect(worker.calls[0]!.headers.has('x-reelgate-dev-ip')).to.equal(false);
    window.reelgate = { devIp: '192.0.2.30' };
    await fixture(html`<reel-playlist site="vbQmzoYd" playlist="DGRTLuft"></reel-playlist>`);
    await waitUntil(() => worker.calls.length === 2, 'no second request was made');
    expect(worker.calls[1]!.headers.get('x-reelgate-dev-ip')).to.equal('192.0.2.30');
  });
});

// The bundle is minified with our private members renamed (components/build-options.mjs), so the suites that test
// the sources cannot vouch for it: this drives each element through the shipped file.
describe('every element from the embed bundle', () => {
  let worker: FakeWorker;
  beforeEach(() => {
    worker = new FakeWorker().install();
  });
  afterEach(() => worker.restore());

  it('pages a playlist, plays what is chosen, shows a player configuration and opens a gate', async () => {
    await addScript(`${BUNDLE}?copy=1`);
    worker.on(/\/playlists\//, (url) => json(feed(Number(url.searchParams.get('page')), 2, 3)));
    worker.on(/\/media\//, (url) => json(media(url.pathname.split('/').pop()!)));
    worker.on(/\/players\//, () => json(player({ aspectratio: '4:3', playbackRateControls: true })));
    worker.on(/\/gate\//, () => json(gate(true, 'allowed', 'DE')));
    const wrapper = await fixture<HTMLDivElement>(html`<div style="inline-size: 640px">
      <reel-player site=${SITE} player="RkWDvjNV" for="shelf"></reel-player>
      <reel-playlist id="shelf" site=${SITE} playlist=${PLAYLIST} page-size="2"></reel-playlist>
      <reel-player-config site=${SITE} player="RkWDvjNV"></reel-player-config>
      <reel-geo-gate policy="europe"><template><p class="gated">Gated</p></template></reel-geo-gate>
    </div>`);
    const [el, list, config, gateEl] = ['reel-player', 'reel-playlist', 'reel-player-config', 'reel-geo-gate']
      .map((tag) => wrapper.querySelector(tag)!);

    await waitUntil(() => list!.getAttribute('state') === 'complete', 'the playlist never loaded');
    expect($$(list!, '[part="card"]')).to.have.length(2);
    $(list!, '[part="load-more"]')!.click();
    await waitUntil(() => $$(list!, '[part="card"]').length === 3, '"Load more" never added the last card');

    await waitUntil(() => el!.getAttribute('state') === 'complete', 'the player never cued the first item');
    expect(el!.getAttribute('media')).to.equal('media001');
    ($$(list!, '[part="card"]')[2] as HTMLElement).click();
    await waitUntil(() => ($(el!, 'video') as HTMLVideoElement | null)?.getAttribute('aria-label') === 'Video: Video number 3',
      'the player never switched to the chosen card');
    expect(Math.round($(el!, '[part="frame"]')!.getBoundingClientRect().height)).to.equal(480);
    // The speed menu comes with the playback kit, a chunk the bundle loads once a player with media is near.
    await waitUntil(() => $(el!, '[part="rate-menu"]'), 'the speed menu (the playback kit) never came');

    await waitUntil(() => config!.getAttribute('state') === 'complete', 'the config panel never loaded');
    expect($(config!, '[part="name"]')!.textContent).to.equal('Article player');

    await waitUntil(() => gateEl!.getAttribute('state') === 'allowed', 'the gate never opened');
    await waitUntil(() => gateEl!.querySelector('.gated') !== null, 'the gate never stamped its template');
  });
});
