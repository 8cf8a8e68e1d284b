import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../components/index.ts';
import { FakeWorker, json } from './support/fake-worker.ts';
import { feed, SITE } from './support/fixtures.ts';
import { $, untilState } from './support/dom.ts';

const ENDPOINT = 'https://worker.example.test';

async function loadedPlaylist(style = '') {
  const el = await fixture<HTMLElementTagNameMap['reel-playlist']>(html`
    <reel-playlist site=${SITE} playlist="JwMCDvZA" endpoint=${ENDPOINT} style=${style}></reel-playlist>`);
  await untilState(el, 'complete');
  return el;
}

describe('theming shared by the elements', () => {
  let worker: FakeWorker;
  beforeEach(() => {
    worker = new FakeWorker().install();
    worker.on(/\/playlists\//, () => json(feed(1, 12, 3)));
  });
  afterEach(async () => {
    worker.restore();
    await emulateMedia({ colorScheme: 'light' });
  });

  it('follows prefers-color-scheme for its default colours', async () => {
    await emulateMedia({ colorScheme: 'light' });
    const el = await loadedPlaylist();
    expect(getComputedStyle($(el, '[part="card"]')!).backgroundColor).to.equal('rgb(255, 255, 255)');
    await emulateMedia({ colorScheme: 'dark' });
    expect(getComputedStyle($(el, '[part="card"]')!).backgroundColor).to.equal('rgb(20, 24, 31)');
  });

  it('takes the page’s --reel-* custom properties over its defaults, in both schemes', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const el = await loadedPlaylist('--reel-color-surface: rgb(1, 2, 3)');
    expect(getComputedStyle($(el, '[part="card"]')!).backgroundColor).to.equal('rgb(1, 2, 3)');
  });

  it('lets the page restyle its parts', async () => {
    const style = document.createElement('style');
    style.textContent = 'reel-playlist.themed::part(card-title) { text-transform: uppercase; }';
    document.head.append(style);
    const el = await loadedPlaylist();
    el.classList.add('themed');
    expect(getComputedStyle($(el, '[part="card-title"]')!).textTransform).to.equal('uppercase');
    style.remove();
  });

  it('is hidden by the hidden attribute, whatever display it sets itself', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <reel-playlist hidden></reel-playlist><reel-player hidden></reel-player>
      <reel-player-config hidden></reel-player-config><reel-geo-gate hidden></reel-geo-gate></div>`);
    for (const el of wrapper.children) expect(getComputedStyle(el).display, el.localName).to.equal('none');
  });
});
