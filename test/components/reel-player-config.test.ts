import { expect, fixture, html } from '@open-wc/testing';
import '../../components/reel-player-config/define.ts';
import '../../components/reel-player/define.ts';
import { FakeWorker, apiError, hold, json } from './support/fake-worker.ts';
import { SITE, player } from './support/fixtures.ts';
import { $, $$, untilState } from './support/dom.ts';

const ENDPOINT = 'https://worker.example.test';
const PLAYER_PATH = /^\/api\/sites\/[^/]+\/players\/[^/]+$/;

async function mount() {
  const wrapper = await fixture<HTMLDivElement>(html`
    <div lang="en"><reel-player-config site=${SITE} player="YPi7CmXG" endpoint=${ENDPOINT}></reel-player-config></div>`);
  return wrapper.querySelector('reel-player-config')!;
}

describe('<reel-player-config>', () => {
  let worker: FakeWorker;
  beforeEach(() => {
    worker = new FakeWorker().install();
  });
  afterEach(() => worker.restore());

  it('shares one request with a player asking for the same configuration at the same moment', async () => {
    const held = hold();
    // Every request gets its own copy of the one answer held back.
    worker.on(PLAYER_PATH, () => held.promise.then((response) => response.clone()));
    const wrapper = await fixture<HTMLDivElement>(html`<div lang="en">
      <reel-player site=${SITE} player="YPi7CmXG" endpoint=${ENDPOINT}></reel-player>
      <reel-player-config site=${SITE} player="YPi7CmXG" endpoint=${ENDPOINT}></reel-player-config>
      <reel-player-config site=${SITE} player="RkWDvjNV" endpoint=${ENDPOINT}></reel-player-config></div>`);
    const [first, other] = wrapper.querySelectorAll('reel-player-config');
    held.release(json(player({ aspectratio: '1:1' }, 'Homepage')));
    await untilState(first!, 'complete');
    await untilState(other!, 'complete');
    expect(worker.callsTo(PLAYER_PATH).map((call) => call.url.pathname)).to.deep.equal([
      `/api/sites/${SITE}/players/YPi7CmXG`, `/api/sites/${SITE}/players/RkWDvjNV`]);
    expect(wrapper.querySelector('reel-player')!.options.aspectRatio).to.equal('1 / 1');
    // Settled answers are not kept: a later element asks again.
    const late = await fixture<HTMLElement>(html`<reel-player-config site=${SITE} player="YPi7CmXG" endpoint=${ENDPOINT}></reel-player-config>`);
    await untilState(late, 'complete');
    expect(worker.callsTo(PLAYER_PATH)).to.have.length(3);
  });

  it('a shared request goes on for the callers left when one gives up', async () => {
    const held = hold();
    // Every request gets its own copy of the one answer held back.
    worker.on(PLAYER_PATH, () => held.promise.then((response) => response.clone()));
    const wrapper = await fixture<HTMLDivElement>(html`<div lang="en">
      <reel-player-config site=${SITE} player="YPi7CmXG" endpoint=${ENDPOINT}></reel-player-config>
      <reel-player-config site=${SITE} player="YPi7CmXG" endpoint=${ENDPOINT}></reel-player-config></div>`);
    const [leaving, staying] = wrapper.querySelectorAll('reel-player-config');
    leaving!.setAttribute('player', 'RkWDvjNV');
    await (leaving as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(worker.callsTo(PLAYER_PATH)[0]!.signal!.aborted).to.equal(false);
    held.release(json(player({}, 'Homepage')));
    await untilState(staying!, 'complete');
    expect($(staying!, '[part="name"]')!.textContent).to.equal('Homepage');
  });

  it('shows name, release channel, plain words for known options and raw values for the rest', async () => {
    worker.on(PLAYER_PATH, () => json({
      ...player({
        aspectratio: '1:1', autostart: 'viewable', mute: true, stretching: 'fill',
        playbackRateControls: [0.5, 1, 1.25], related: { oncomplete: 'autoplay' }, nextUpDisplay: true,
      }, 'Homepage autoplay (muted)'),
      release_channel: 'preview',
    }));
    const el = await mount();
    await untilState(el, 'complete');
    expect(worker.callsTo(PLAYER_PATH)[0]!.url.pathname).to.equal(`/api/sites/${SITE}/players/YPi7CmXG`);
    expect($(el, '[part="name"]')!.textContent).to.equal('Homepage autoplay (muted)');
    expect($(el, '[part="channel"]')!.textContent).to.equal('Release channel: preview');
    const rows = $$(el, 'dt').map((dt, i) => [dt.textContent!.trim(), $$(el, 'dd')[i]!.textContent!.trim()]);
    expect(rows).to.deep.equal([
      ['Shape of the playeraspectratio', '1:1 (width to height)'],
      ['Starts playingautostart', 'When scrolled into view, muted'],
      ['Starts mutedmute', 'Yes'],
      ['How the picture fills the framestretching', 'Fills the frame, cropping the edges'],
      ['Playback speed menuplaybackRateControls', 'Yes: 0.5×, 1×, 1.25×'],
      ['nextUpDisplay', 'true'],
      ['related', '{"oncomplete":"autoplay"}'],
    ]);
    expect($$(el, '[part="raw"]')).to.have.length(2);
  });

  it('shows a loading state, then an error with retry', async () => {
    let fail = true;
    const first = hold();
    worker.on(PLAYER_PATH, () => (fail ? first.promise : json(player({ repeat: true }))));
    const el = await mount();
    expect(el.getAttribute('state')).to.equal('loading');
    expect($(el, '[role="status"]')!.textContent).to.equal('Loading player settings…');
    first.release(apiError(500, 'server_error', 'Broken.'));
    await untilState(el, 'error');
    fail = false;
    $(el, '[part="retry"]')!.click();
    await untilState(el, 'complete');
    expect($(el, 'dd')!.textContent).to.equal('Yes');
  });

  it('says when a player is not found, without a retry', async () => {
    worker.on(PLAYER_PATH, () => apiError(404, 'not_found', 'No such player.'));
    const el = await mount();
    await untilState(el, 'error');
    expect($(el, '[part="error"] p')!.textContent).to.equal('This content could not be found.');
    expect($(el, '[part="retry"]')).to.equal(null);
  });

  it('passes an axe accessibility audit', async () => {
    worker.on(PLAYER_PATH, () => json(player({ aspectratio: '16:9', skin: { name: 'seven' } })));
    const el = await mount();
    await untilState(el, 'complete');
    await expect(el).to.be.accessible();
  });
});
