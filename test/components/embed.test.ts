import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { FakeWorker, json } from './support/fake-worker.ts';
import { feed } from './support/fixtures.ts';

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
