import { expect, fixture } from '@open-wc/testing';
import '../../components/reel-geo-gate/define.ts';
import '../../components/reel-playlist/define.ts';
import type { ReelGeoGate } from '../../components/reel-geo-gate/reel-geo-gate.ts';
import { FakeWorker, apiError, hold, json } from './support/fake-worker.ts';
import { SITE, feed, gate } from './support/fixtures.ts';
import { $, nextEvent, untilState } from './support/dom.ts';

const ENDPOINT = 'https://worker.example.test';
const GATE_PATH = /^\/api\/gate\/[^/]+$/;
const FEED_PATH = /^\/api\/sites\/[^/]+\/playlists\/[^/]+$/;

async function mount(fail?: 'open' | 'closed') {
  // A string, not a lit template: lit refuses expressions inside <template>, and pages write it as plain HTML anyway.
  const wrapper = await fixture<HTMLDivElement>(`
    <div lang="en">
      <reel-geo-gate policy="europe" endpoint="${ENDPOINT}" fail="${fail ?? 'closed'}">
        <p class="always">Plain gated text.</p>
        <p slot="denied">Sorry, this shelf is for European readers.</p>
        <template><reel-playlist site="${SITE}" playlist="iREdEiCK" endpoint="${ENDPOINT}"></reel-playlist></template>
      </reel-geo-gate>
    </div>`);
  return wrapper.querySelector('reel-geo-gate')!;
}

const visible = (el: Element) => (el as HTMLElement).offsetParent !== null || el.getClientRects().length > 0;
const stamped = (el: ReelGeoGate) => el.querySelector(':scope > reel-playlist');

describe('<reel-geo-gate>', () => {
  let worker: FakeWorker;
  beforeEach(() => {
    worker = new FakeWorker().install();
    worker.on(FEED_PATH, () => json(feed(1, 12, 3)));
  });
  afterEach(() => worker.restore());

  it('shows its content and stamps the template when allowed', async () => {
    worker.on(GATE_PATH, () => json(gate(true, 'allowed', 'DE')));
    const decision = nextEvent(document, 'reel-gate-decision');
    const el = await mount();
    const event = await decision;
    expect([event.policy, event.allowed, event.reason, event.country, event.failed])
      .to.deep.equal(['europe', true, 'allowed', 'DE', false]);
    await untilState(el, 'allowed');
    expect(worker.callsTo(GATE_PATH)[0]!.url.href).to.equal(`${ENDPOINT}/api/gate/europe`);
    expect(visible(el.querySelector('.always')!)).to.equal(true);
    expect(visible(el.querySelector('[slot="denied"]')!)).to.equal(false);
    const playlist = stamped(el)!;
    expect(playlist).to.not.equal(null);
    await untilState(playlist, 'complete');
    expect(worker.callsTo(FEED_PATH)).to.have.length(1);
  });

  it('shows the denied slot and the reason in words, and never stamps the template (no feed fetch)', async () => {
    worker.on(GATE_PATH, () => json(gate(false, 'continent_not_allowed', 'US')));
    const decision = nextEvent(document, 'reel-gate-decision');
    const el = await mount();
    expect((await decision).allowed).to.equal(false);
    await untilState(el, 'denied');
    expect(el.getAttribute('reason')).to.equal('continent_not_allowed');
    expect(visible(el.querySelector('[slot="denied"]')!)).to.equal(true);
    expect(visible(el.querySelector('.always')!)).to.equal(false);
    expect($(el, '[part="reason"]')!.textContent!.trim())
      .to.equal('Only available in some parts of the world, not in United States.');
    expect(stamped(el)).to.equal(null);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(worker.callsTo(FEED_PATH)).to.have.length(0);
  });

  // React and Vue put a <template>'s children into the live DOM, so the gate must hold elements given directly too.
  async function mountDirect() {
    const wrapper = await fixture<HTMLDivElement>(`
      <div lang="en">
        <reel-geo-gate policy="europe" endpoint="${ENDPOINT}">
          <reel-playlist site="${SITE}" playlist="iREdEiCK" endpoint="${ENDPOINT}"></reel-playlist>
        </reel-geo-gate>
      </div>`);
    return wrapper.querySelector('reel-geo-gate')!;
  }

  it('holds elements put inside it directly (no template) until it allows, then they load', async () => {
    const answer = hold();
    worker.on(GATE_PATH, () => answer.promise);
    const el = await mountDirect();
    const playlist = el.querySelector('reel-playlist')!;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(el.getAttribute('state')).to.equal('pending');
    expect(worker.callsTo(FEED_PATH)).to.have.length(0);
    expect(playlist.getAttribute('state')).to.equal('idle');
    answer.release(json(gate(true, 'allowed', 'DE')));
    await untilState(el, 'allowed');
    await untilState(playlist, 'complete');
    expect(worker.callsTo(FEED_PATH)).to.have.length(1);
    expect(visible(playlist)).to.equal(true);
  });

  it('a refused visitor\'s browser never asks for what is gated inside it directly', async () => {
    worker.on(GATE_PATH, () => json(gate(false, 'continent_not_allowed', 'US')));
    const el = await mountDirect();
    await untilState(el, 'denied');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(worker.callsTo(FEED_PATH)).to.have.length(0);
    expect(visible(el.querySelector('reel-playlist')!)).to.equal(false);
  });

  it('explains a proxy refusal', async () => {
    worker.on(GATE_PATH, () => json(gate(false, 'proxy_denied', 'NL')));
    const el = await mount();
    await untilState(el, 'denied');
    expect($(el, '[part="reason"]')!.textContent!.trim()).to.match(/^Not available through a VPN, proxy/);
  });

  it('shows the pending slot while asking', async () => {
    const held = hold();
    worker.on(GATE_PATH, () => held.promise);
    const el = await mount();
    expect(el.getAttribute('state')).to.equal('pending');
    expect($(el, '[part="pending"]')!.textContent!.trim()).to.equal('Checking availability…');
    expect(stamped(el)).to.equal(null);
    held.release(json(gate(true, 'allowed')));
    await untilState(el, 'allowed');
  });

  it('fails closed by default when the worker cannot be reached', async () => {
    worker.on(GATE_PATH, () => Promise.reject(new TypeError('Failed to fetch')));
    const decision = nextEvent(document, 'reel-gate-decision');
    const el = await mount();
    const event = await decision;
    expect([event.allowed, event.reason, event.failed]).to.deep.equal([false, 'gate_unreachable', true]);
    await untilState(el, 'denied');
    expect(stamped(el)).to.equal(null);
    expect(worker.callsTo(FEED_PATH)).to.have.length(0);
  });

  it('fails open on a 5xx when fail="open"', async () => {
    worker.on(GATE_PATH, () => apiError(503, 'upstream_unavailable', 'Down.'));
    const el = await mount('open');
    await untilState(el, 'allowed');
    expect(el.reason).to.equal('gate_unreachable');
    expect(stamped(el)).to.not.equal(null);
  });

  it('stays closed on a refused question (unknown policy) even with fail="open"', async () => {
    worker.on(GATE_PATH, () => apiError(404, 'not_found', 'No such policy.'));
    const el = await mount('open');
    await untilState(el, 'denied');
    expect(el.reason).to.equal('gate_refused');
    expect(stamped(el)).to.equal(null);
  });

  it('removes stamped content when a recheck denies', async () => {
    let allowed = true;
    worker.on(GATE_PATH, () => json(allowed ? gate(true, 'allowed') : gate(false, 'country_denied', 'FR')));
    const el = await mount();
    await untilState(el, 'allowed');
    expect(stamped(el)).to.not.equal(null);
    allowed = false;
    await el.recheck();
    await untilState(el, 'denied');
    expect(stamped(el)).to.equal(null);
    expect($(el, '[part="reason"]')!.textContent!.trim()).to.equal('Not available in France.');
  });

  it('passes an axe accessibility audit allowed and denied', async () => {
    worker.on(GATE_PATH, () => json(gate(false, 'country_denied', 'US')));
    const el = await mount();
    await untilState(el, 'denied');
    await expect(el).to.be.accessible();
    worker.on(GATE_PATH, () => json(gate(true, 'allowed')));
    await el.recheck();
    await untilState(el, 'allowed');
    await untilState(stamped(el)!, 'complete');
    await expect(el).to.be.accessible();
  });
});
