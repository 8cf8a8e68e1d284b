// The elements in the visitor's language: chosen from the element's own `lang`, its ancestors', the document's, else the
// browser's; best fit to the packs there are; rendered again when the page's language changes; right to left for
// Arabic; and the page's own words (an element's `messages`, `window.reelgate.messages`) before the pack's. The
// expected words are read from the packs themselves, so a better translation never fails a test, and a pack that
// stops being used does.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../components/reel-geo-gate/define.ts';
import '../../components/reel-player-config/define.ts';
import '../../components/reel-player/define.ts';
import '../../components/reel-playlist/define.ts';
import type { ReelPlaylist } from '../../components/reel-playlist/reel-playlist.ts';
import arabic from '../../components/shared/i18n/packs/ar.ts';
import german from '../../components/shared/i18n/packs/de.ts';
import portuguese from '../../components/shared/i18n/packs/pt-BR.ts';
import type { Message } from '../../components/shared/i18n/types.ts';
import { english } from '../../components/shared/i18n/en.ts';
import { refusalEnglish } from '../../components/reel-geo-gate/refusal-words.ts';
import { configEnglish } from '../../components/reel-player-config/en.ts';
import { FakeWorker, json } from './support/fake-worker.ts';
import { SITE, feed, gate, player } from './support/fixtures.ts';
import { $, untilState } from './support/dom.ts';

const ENDPOINT = 'https://worker.example.test';
const GATE_PATH = /^\/api\/gate\/[^/]+$/;
const FEED_PATH = /^\/api\/sites\/[^/]+\/playlists\/[^/]+$/;
const PLAYER_PATH = /^\/api\/sites\/[^/]+\/players\/[^/]+$/;

/**
 * A pack's message as an element in `lang` says it, placeholders filled: for one that counts, the form `lang`'s plural
 * rules choose for `count`, which is written with its digits.
 */
function said(message: Message | undefined, values: Record<string, string | number> = {}, lang = 'en'): string {
  const count = values.count;
  const text = typeof message === 'string' ? message
    : (typeof count === 'number' ? message![new Intl.PluralRules(lang).select(count)] : undefined) ?? message!.other;
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    return typeof value === 'number' ? new Intl.NumberFormat(lang).format(value) : value ?? '';
  });
}
const country = (code: string, lang: string) => new Intl.DisplayNames(lang, { type: 'region' }).of(code)!;
const text = (el: Element, selector: string) => $(el, selector)?.textContent?.trim();
/** Waits until `selector` in `el` shows `expected` (a pack arrives a moment after the first render, in English). */
async function shows(el: Element, selector: string, expected: string | undefined): Promise<void> {
  await waitUntil(() => text(el, selector) === expected, `${selector} never showed ${JSON.stringify(expected)} `
    + `(shows ${JSON.stringify(text(el, selector))})`, { timeout: 5000 });
}

async function shelf(lang: string): Promise<ReelPlaylist> {
  const wrapper = await fixture<HTMLDivElement>(html`<div lang=${lang}>
    <reel-playlist site=${SITE} playlist="iREdEiCK" endpoint=${ENDPOINT} page-size="2"></reel-playlist></div>`);
  const el = wrapper.querySelector('reel-playlist')!;
  await untilState(el, 'complete');
  return el;
}

describe('the elements in the visitor\'s language', () => {
  let worker: FakeWorker;
  beforeEach(() => {
    worker = new FakeWorker().install();
    worker.on(FEED_PATH, () => json(feed(1, 2, 5)));
  });
  afterEach(() => {
    worker.restore();
    delete (window as { reelgate?: unknown }).reelgate;
  });

  it('a page in German: the gate\'s refusal and its reason, with the country named in German', async () => {
    worker.on(GATE_PATH, () => json(gate(false, 'continent_not_allowed', 'US')));
    const wrapper = await fixture<HTMLDivElement>(html`<div lang="de">
      <reel-geo-gate policy="europe" endpoint=${ENDPOINT}><p>Gated.</p></reel-geo-gate></div>`);
    const el = wrapper.querySelector('reel-geo-gate')!;
    await untilState(el, 'denied');
    await waitUntil(() => text(el, '[part="reason"]'), 'the reason was never said');
    await shows(el, '[part="denied"] p', said(german.notHere));
    await shows(el, '[part="reason"]', said(german.continent_not_allowed, { country: country('US', 'de') }));
    expect(said(german.continent_not_allowed)).to.not.equal(said(refusalEnglish.continent_not_allowed));
  });

  it('a shelf in German: its count by German plural rules, its paging words', async () => {
    const el = await shelf('de');
    await shows(el, '[part="count"]', said(german.videoCount, { count: 5 }, 'de'));
    await shows(el, '[part="load-more"]', said(german.loadMore));
    await shows(el, '.footer .count', said(german.shownOf, { shown: '2', total: '5' }));
  });

  it('a language change on the page renders again, without a reload: German, then right-to-left Arabic', async () => {
    const el = await shelf('de');
    const wrapper = el.parentElement!;
    expect(getComputedStyle(el).direction).to.equal('ltr');
    wrapper.lang = 'ar';
    await waitUntil(() => text(el, '[part="load-more"]') === said(arabic.loadMore), 'never re-rendered in Arabic',
      { timeout: 5000 });
    expect(getComputedStyle(el).direction).to.equal('rtl');
    await shows(el, '[part="count"]', said(arabic.videoCount, { count: 5 }, 'ar'));
    wrapper.lang = 'en';
    await waitUntil(() => text(el, '[part="load-more"]') === english.loadMore, 'never back to English');
    expect(getComputedStyle(el).direction).to.equal('ltr');
  });

  it('a dir the page gives the element itself wins over its language\'s', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div lang="ar">
      <reel-playlist dir="ltr" site=${SITE} playlist="iREdEiCK" endpoint=${ENDPOINT}></reel-playlist></div>`);
    const el = wrapper.querySelector('reel-playlist')!;
    await untilState(el, 'complete');
    expect(getComputedStyle(el).direction).to.equal('ltr');
    await shows(el, '[part="load-more"]', said(arabic.loadMore));
  });

  it('best fit: de-AT takes German, pt-PT the Brazilian pack, zh-TW (Traditional) no Simplified Chinese', async () => {
    await shows(await shelf('de-AT'), '[part="load-more"]', said(german.loadMore));
    await shows(await shelf('pt-PT'), '[part="load-more"]', said(portuguese.loadMore));
    await shows(await shelf('zh-TW'), '[part="load-more"]', english.loadMore);
    await shows(await shelf('fi'), '[part="load-more"]', english.loadMore);
  });

  it('an element\'s own words win over the page\'s, which win over the pack\'s', async () => {
    (window as { reelgate?: unknown }).reelgate = { messages: { de: { loadMore: 'Weitere Videos', noVideos: 'Leer.' } } };
    const el = await shelf('de');
    await shows(el, '[part="load-more"]', 'Weitere Videos');
    await shows(el, '[part="count"]', said(german.videoCount, { count: 5 }, 'de'));
    el.messages = { loadMore: 'Mehr davon' };
    await el.updateComplete;
    await shows(el, '[part="load-more"]', 'Mehr davon');
  });

  it('a page may add a language of its own: what it leaves out is English', async () => {
    (window as { reelgate?: unknown }).reelgate = { messages: { eo: { loadMore: 'Ŝarĝi pli' } } };
    const el = await shelf('eo');
    await shows(el, '[part="load-more"]', 'Ŝarĝi pli');
    await shows(el, '[part="count"]', '5 videos');
  });

  it('the configuration panel in German: its options named in German', async () => {
    const answer = player({ mute: true }, 'Homepage');
    worker.on(PLAYER_PATH, () => json(answer));
    const wrapper = await fixture<HTMLDivElement>(html`<div lang="de">
      <reel-player-config site=${SITE} player="YPi7CmXG" endpoint=${ENDPOINT}></reel-player-config></div>`);
    const el = wrapper.querySelector('reel-player-config')!;
    await untilState(el, 'complete');
    await shows(el, '[part="channel"]', said(german.releaseChannel, { channel: answer.release_channel }));
    await shows(el, '[part="label"]', `${said(german.mute)}mute`);
    await shows(el, '[part="value"]', said(german.yes));
    expect(said(german.mute)).to.not.equal(configEnglish.mute);
  });
});
