/**
 * `javascript:` links are never rendered. A catalog permalink (or a playlist's link) of any other scheme
 * than http(s) never reaches what the elements expose to the page (`items`, `feed`, `mediaItem`, the events' `item`),
 * whatever worker answered (an `endpoint` may name another one, or an older worker), and no element renders it as a
 * link. The worker's own half is test/worker/embed-hardening.test.ts.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../components/reel-player/define.ts';
import '../../components/reel-playlist/define.ts';
import type { ReelPlayer } from '../../components/reel-player/reel-player.ts';
import type { ReelPlaylist } from '../../components/reel-playlist/reel-playlist.ts';
import { FakeWorker, json } from './support/fake-worker.ts';
import { PLAYLIST, SITE, feed, media } from './support/fixtures.ts';
import { $$, nextEvent, untilState } from './support/dom.ts';

const ENDPOINT = 'https://worker.example.test';
const FEED_PATH = /^\/api\/sites\/[^/]+\/playlists\/[^/]+$/;
const MEDIA_PATH = /^\/api\/sites\/[^/]+\/media\/[^/]+$/;
const JS_LINK = 'javascript:alert(document.domain)//';
const HOSTILE = [JS_LINK, ' JAVASCRIPT:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>'];

/** Every `href`/`src`-like attribute in the element's shadow root, and its light DOM. */
function urls(el: Element): string[] {
  const all = [...$$(el, '*'), ...el.querySelectorAll('*')];
  return all.flatMap((node) => ['href', 'src', 'action', 'formaction', 'xlink:href']
    .map((name) => node.getAttribute(name)).filter((value): value is string => value !== null));
}

describe('`javascript:` links are never rendered', () => {
  let worker: FakeWorker;
  beforeEach(() => {
    worker = new FakeWorker().install();
  });
  afterEach(() => worker.restore());

  it('<reel-playlist> exposes no `javascript:` permalink or link in items, feed or its events', async () => {
    worker.on(FEED_PATH, () => {
      const answer = feed(1, 6, HOSTILE.length + 1);
      answer.playlist.link = JS_LINK;
      HOSTILE.forEach((link, i) => {
        answer.items[i]!.permalink = link;
      });
      return json(answer);
    });
    // Listened for before the element exists: the fake worker can answer (and the element announce its page) while
    // fixture() is still waiting for the first render.
    const loaded = nextEvent(document, 'reel-load');
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: 900px"><reel-playlist site=${SITE} playlist=${PLAYLIST} endpoint=${ENDPOINT}></reel-playlist></div>`);
    const el = wrapper.querySelector<ReelPlaylist>('reel-playlist')!;
    await untilState(el, 'complete');
    const load = await loaded;
    expect(el.feed!.playlist.link).to.equal(null);
    expect(load.feed.playlist.link).to.equal(null);
    for (const items of [el.items, load.items, load.feed.items]) {
      expect(items.map((item) => item.permalink)).to.deep.equal([null, null, null, null, 'https://www.example.com/videos/5']);
    }
    const selected = nextEvent(el, 'reel-select');
    $$(el, '[part="card"]')[0]!.click();
    expect((await selected).item.permalink).to.equal(null);
    expect(JSON.stringify(el.items)).not.to.match(/javascript:|data:text/i);
    for (const url of urls(el)) expect(url).not.to.match(/^\s*(javascript|data:text)/i);
  });

  it('<reel-player> exposes no `javascript:` permalink in mediaItem', async () => {
    worker.on(MEDIA_PATH, (url) => json(media(url.pathname.split('/').pop()!, { permalink: JS_LINK })));
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: 640px"><reel-player site=${SITE} media="media001" endpoint=${ENDPOINT}></reel-player></div>`);
    const el = wrapper.querySelector<ReelPlayer>('reel-player')!;
    await untilState(el, 'complete');
    expect(el.mediaItem!.permalink).to.equal(null);
    for (const url of urls(el)) expect(url).not.to.match(/^\s*javascript:/i);
  });

  it('keeps an http(s) permalink as it is', async () => {
    worker.on(MEDIA_PATH, (url) => json(media(url.pathname.split('/').pop()!, { permalink: 'https://news.example/watch/1' })));
    const wrapper = await fixture<HTMLDivElement>(html`
      <div style="inline-size: 640px"><reel-player site=${SITE} media="media001" endpoint=${ENDPOINT}></reel-player></div>`);
    const el = wrapper.querySelector<ReelPlayer>('reel-player')!;
    await untilState(el, 'complete');
    expect(el.mediaItem!.permalink).to.equal('https://news.example/watch/1');
  });
});
