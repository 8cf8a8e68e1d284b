/**
 * How `<reel-geo-gate>` holds reelgate's elements put inside it directly: their loads (components/shared/load.ts) ask
 * the closest element around them that holds what it contains (`HELD`), never a tag name. This page defines no element
 * until its first test does, so that test sees the embed's own order: the entry points define `<reel-playlist>` before
 * `<reel-geo-gate>` (in one step), and the elements already on the page are upgraded in that order.
 */
import { expect, fixture } from '@open-wc/testing';
import type { ReelGeoGate } from '../../components/reel-geo-gate/reel-geo-gate.ts';
import type { ReelPlaylist } from '../../components/reel-playlist/reel-playlist.ts';
import { FakeWorker, hold, json, type Held } from './support/fake-worker.ts';
import { SITE, feed, gate } from './support/fixtures.ts';
import { untilState } from './support/dom.ts';

const ENDPOINT = 'https://worker.example.test';
const GATE_PATH = /^\/api\/gate\/[^/]+$/;
const FEED_PATH = /^\/api\/sites\/[^/]+\/playlists\/[^/]+$/;

const playlist = (id: string) => `<reel-playlist site="${SITE}" playlist="${id}" endpoint="${ENDPOINT}"></reel-playlist>`;
const waitABit = () => new Promise((resolve) => setTimeout(resolve, 50));
/** The playlist ids the feed was asked for. */
const asked = (worker: FakeWorker) => worker.callsTo(FEED_PATH).map((call) => call.url.pathname.split('/').pop()).sort();

describe('<reel-geo-gate> holding the elements inside it', () => {
  let worker: FakeWorker;
  let answers: Map<string, Held>;
  beforeEach(() => {
    worker = new FakeWorker().install();
    worker.on(FEED_PATH, () => json(feed(1, 12, 3)));
    answers = new Map();
    worker.on(GATE_PATH, (url) => {
      const policy = url.pathname.split('/').pop()!;
      if (!answers.has(policy)) answers.set(policy, hold());
      return answers.get(policy)!.promise;
    });
  });
  afterEach(() => worker.restore());
  // Each test asks about its own policies: the elements share a call in flight to the same URL (shared/api.ts), so a
  // question one test leaves unanswered must not answer another's.

  const allow = (policy: string) => answers.get(policy)!.release(json(gate(true, 'allowed', 'DE', policy)));

  it('holds elements already on the page when the entry point defines them before the gate', async () => {
    expect(customElements.get('reel-geo-gate'), 'defined too early: this page must import no element first').to.equal(undefined);
    const wrapper = await fixture<HTMLDivElement>(`
      <div lang="en">
        <reel-geo-gate policy="europe" endpoint="${ENDPOINT}">
          ${playlist('direct')}
          <div class="nested"><section>${playlist('nested')}</section></div>
        </reel-geo-gate>
        ${playlist('outside')}
      </div>`);
    await import('../../components/index.ts');
    const el = wrapper.querySelector<ReelGeoGate>('reel-geo-gate')!;
    const [direct, nested, outside] = [...wrapper.querySelectorAll<ReelPlaylist>('reel-playlist')];
    await untilState(outside!, 'complete');
    await waitABit();
    expect(el.getAttribute('state')).to.equal('pending');
    expect(asked(worker)).to.deep.equal(['outside']);
    expect([direct!.getAttribute('state'), nested!.getAttribute('state')]).to.deep.equal(['idle', 'idle']);
    allow('europe');
    await untilState(el, 'allowed');
    await untilState(direct!, 'complete');
    await untilState(nested!, 'complete');
    expect(asked(worker)).to.deep.equal(['direct', 'nested', 'outside']);
  });

  it('an element added to a gate that has not allowed waits; one added to an open gate loads at once', async () => {
    const el = await fixture<ReelGeoGate>(`<reel-geo-gate policy="emea" endpoint="${ENDPOINT}"></reel-geo-gate>`);
    el.insertAdjacentHTML('beforeend', playlist('early'));
    await waitABit();
    expect(asked(worker)).to.deep.equal([]);
    expect(el.querySelector('reel-playlist')!.getAttribute('state')).to.equal('idle');
    allow('emea');
    await untilState(el, 'allowed');
    await untilState(el.querySelector('reel-playlist')!, 'complete');
    const late = document.createElement('div');
    late.innerHTML = playlist('late');
    el.append(late);
    await untilState(late.firstElementChild!, 'complete');
    expect(asked(worker)).to.deep.equal(['early', 'late']);
  });

  it('the closest gate decides: a gate inside one that has not allowed asks nothing until it allows', async () => {
    const outer = await fixture<ReelGeoGate>(`
      <reel-geo-gate policy="world" endpoint="${ENDPOINT}">
        <reel-geo-gate policy="nordics" endpoint="${ENDPOINT}">${playlist('inner')}</reel-geo-gate>
      </reel-geo-gate>`);
    const inner = outer.querySelector<ReelGeoGate>('reel-geo-gate')!;
    await waitABit();
    expect(worker.callsTo(GATE_PATH).map((call) => call.url.pathname)).to.deep.equal(['/api/gate/world']);
    expect(inner.getAttribute('state')).to.equal('idle');
    allow('world');
    await untilState(outer, 'allowed');
    await untilState(inner, 'pending');
    await waitABit();
    expect(asked(worker)).to.deep.equal([]);
    allow('nordics');
    await untilState(inner, 'allowed');
    await untilState(inner.querySelector('reel-playlist')!, 'complete');
    expect(asked(worker)).to.deep.equal(['inner']);
  });
});
