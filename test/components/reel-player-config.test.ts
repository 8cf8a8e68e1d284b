import { expect, fixture, html } from '@open-wc/testing';
import '../../components/reel-player-config/define.ts';
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

  it('shows name, release channel, plain words for known options and raw values for the rest', async () => {
    worker.on(PLAYER_PATH, () => json({
      ...player({
        aspectratio: '1:1', autostart: 'viewable', mute: true, stretching: 'fill',
        playbackRateControls: [0.5, 1, 1.25], related: { oncomplete: 'autoplay' }, nextUpDisplay: true,
      }, 'Homepage autoplay (muted)'),
      release_channel: 'beta',
    }));
    const el = await mount();
    await untilState(el, 'complete');
    expect(worker.callsTo(PLAYER_PATH)[0]!.url.pathname).to.equal(`/api/sites/${SITE}/players/YPi7CmXG`);
    expect($(el, '[part="name"]')!.textContent).to.equal('Homepage autoplay (muted)');
    expect($(el, '[part="channel"]')!.textContent).to.equal('Release channel: beta');
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
