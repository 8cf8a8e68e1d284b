// The bundle smoke test, part of `npm run test:components:bundle` (REELGATE_TEST_BUNDLE=1; with it, against the bundle:
// the unit suites of test/components and two integration files, the list in web-test-runner.config.mjs). The whole
// component suite runs once, against the sources (`npm run test:components`); this file proves what the build can
// break on top of them - minified templates, renamed members (components/build-options.mjs), the chunks the embed
// loads - on the shipped files, dist/ as `npm run build` wrote it:
//   - the bundle registers every element of the custom elements manifest, each with the public fields, methods and
//     observed attributes the manifest promises (a member the minifier renamed would be missing here);
//   - a playlist, a player, a player configuration and a geo gate, each given its data as a server would, render; the
//     playlist's card click selects, the gate shows what it guards, and the player loads its kit chunk from dist/ and
//     plays a small MP4 of the sandbox (demo/sandbox/media/sample.mp4, served by web-test-runner) until it advances;
//   - a page in English loads no language pack, and an element in German loads the German one from dist/.
// Plain JavaScript: a browser file outside the TypeScript projects (eslint, `npm run typecheck`).
/* global document, customElements, location, HTMLElement, describe, before, it */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { feed, gate, media, player } from '../components/support/fixtures.ts';

const BUNDLE = '/dist/reelgate.js';
const VIDEO = '/demo/sandbox/media/sample.mp4';

const state = (el, value) => waitUntil(() => el.getAttribute('state') === value,
  `${el.localName} never reached state ${value} (is ${el.getAttribute('state')})`, { timeout: 10000 });
const json = (value) => JSON.stringify(value);

describe('the built bundle (dist/reelgate.js)', function () {
  this.timeout(60_000);

  before(async () => {
    await import(BUNDLE);
  });

  it('registers every element of the manifest, with the public members and attributes it promises', async () => {
    const manifest = await (await fetch('/dist/custom-elements.json')).json();
    const elements = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement && d.tagName);
    expect(elements.map((d) => d.tagName).sort()).to.deep.equal(
      ['reel-geo-gate', 'reel-player', 'reel-player-config', 'reel-playlist']);
    for (const declaration of elements) {
      const tag = declaration.tagName;
      const ctor = customElements.get(tag);
      expect(ctor, `${tag} is not defined by the bundle`).to.be.a('function');
      const el = document.createElement(tag);
      expect(el).to.be.instanceOf(HTMLElement);
      for (const member of declaration.members ?? []) {
        if (member.static || (member.privacy && member.privacy !== 'public')) continue;
        expect(member.name in el, `${tag}.${member.name} (the manifest's ${member.kind})`).to.equal(true);
        if (member.kind === 'method') expect(el[member.name], `${tag}.${member.name}()`).to.be.a('function');
      }
      const observed = ctor.observedAttributes ?? [];
      // An attribute backed by a property (`fieldName`) is observed; one read when needed (upnext) is not.
      for (const attribute of (declaration.attributes ?? []).filter((a) => a.fieldName)) {
        expect(observed, `${tag}[${attribute.name}] is observed`).to.include(attribute.name);
      }
    }
  });

  it('renders a playlist from its data, and a card click selects it', async () => {
    const el = await fixture(html`<reel-playlist site="vbQmzoYd" playlist="JwMCDvZA" data=${json(feed(1, 3, 3))}></reel-playlist>`);
    await state(el, 'complete');
    const cards = [...el.shadowRoot.querySelectorAll('[part="card"]')];
    expect(cards).to.have.length(3);
    const selected = new Promise((resolve) => document.addEventListener('reel-select', resolve, { once: true }));
    cards[1].click();
    expect((await selected).mediaId).to.equal('media002');
    await waitUntil(() => el.selected === 'media002', 'the card was not selected');
  });

  it('renders a player configuration from its data', async () => {
    const el = await fixture(html`<reel-player-config site="vbQmzoYd" player="RkWDvjNV"
      data=${json(player({ aspectratio: '16:9', autostart: false, playbackRateControls: true }, 'Smoke player'))}></reel-player-config>`);
    await state(el, 'complete');
    expect(el.shadowRoot.textContent).to.include('Smoke player');
  });

  it('shows what an allowing gate guards, and the denied slot of a refusing one', async () => {
    const open = await fixture(html`<reel-geo-gate policy="europe" data=${json(gate(true, 'allowed'))}>
      <p slot="denied">Europe only.</p><p id="inside">Shown in Europe.</p></reel-geo-gate>`);
    await waitUntil(() => open.decision?.allowed === true, 'the allowing gate never decided');
    await open.updateComplete;
    expect(open.querySelector('#inside').getBoundingClientRect().height).to.be.greaterThan(0);
    expect(open.querySelector('[slot="denied"]').getBoundingClientRect().height).to.equal(0);
    const closed = await fixture(html`<reel-geo-gate policy="europe" data=${json(gate(false, 'continent_not_allowed', 'US'))}>
      <p slot="denied">Europe only.</p><p id="inside">Shown in Europe.</p></reel-geo-gate>`);
    await waitUntil(() => closed.decision?.allowed === false, 'the refusing gate never decided');
    await closed.updateComplete;
    expect(closed.querySelector('[slot="denied"]').getBoundingClientRect().height).to.be.greaterThan(0);
  });

  it('plays a media from its data: the kit chunk comes from dist/, and the video advances', async () => {
    const url = new URL(VIDEO, location.href).href;
    const item = media('media001', {
      poster: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 9"/>')}`,
      sources: [{ url, type: 'video/mp4', width: 640, height: 360, filesize: 1000, label: '360p' }],
      tracks: [],
    });
    const wrapper = await fixture(html`<div style="inline-size: 640px">
      <reel-player site="vbQmzoYd" media="media001" data=${json(item)}></reel-player></div>`);
    const el = wrapper.querySelector('reel-player');
    await state(el, 'complete');
    const video = el.shadowRoot.querySelector('video');
    expect(video, 'the player has no <video>').to.not.equal(null);
    let playing = false;
    video.addEventListener('playing', () => { playing = true; });
    video.muted = true;
    await video.play();
    await waitUntil(() => playing && video.currentTime > 0.5, `the video never advanced (at ${video.currentTime})`,
      { timeout: 20000 });
    const kit = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
      .filter((path) => /reelgate-kit\.|player-kit/.test(path));
    expect(kit).to.have.length(1);
    expect(kit[0]).to.match(/^\/dist\/reelgate-kit\.[0-9a-f]+\.js$/);
  });

  it('a page in English loaded no language pack; a German element loads the German one, once, and speaks it', async () => {
    const packs = () => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
      .filter((path) => /reelgate-lang-/.test(path));
    // Every element above rendered in English (the test page's language): not one pack was asked for.
    expect(packs()).to.deep.equal([]);
    const wrapper = await fixture(html`<div lang="de-AT">
      <reel-playlist site="vbQmzoYd" playlist="JwMCDvZA" data=${json(feed(1, 3, 5))}></reel-playlist>
      <reel-playlist site="vbQmzoYd" playlist="JwMCDvZA" data=${json(feed(1, 3, 5))}></reel-playlist></div>`);
    const [first, second] = wrapper.querySelectorAll('reel-playlist');
    await state(first, 'complete');
    await state(second, 'complete');
    // The first render is English; the pack, loaded once for both, renders them again.
    await waitUntil(() => packs().length === 1, 'no language pack was loaded');
    expect(packs()[0]).to.match(/^\/dist\/reelgate-lang-de\.[0-9a-f]+\.js$/);
    const { default: german } = await import(packs()[0]);
    for (const el of [first, second]) {
      await waitUntil(() => el.shadowRoot.querySelector('[part="load-more"]').textContent.trim() === german.loadMore,
        'a shelf never spoke German');
    }
    expect(packs()).to.have.length(1);
  });
});
