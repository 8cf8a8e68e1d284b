/**
 * No website can read a visitor's geo decision through the embed pages (it once could). This page is another
 * origin than the worker's (the test server against the real worker): it frames the same gated media (and a gated
 * playlist) once as an allowed visitor and once as a refused one, listens to every `reelgate:resize` message the two
 * frames post, as any parent may, and cannot tell them apart: the same heights, in the same order, at every width it
 * gives them. Before the fix the allowed frame posted its content's height (442 px) and the refused one its one line's
 * (55 px). It cannot read either page with `fetch` either (no CORS). What each frame shows is checked over DevTools
 * (web-test-runner.config.mjs, `reelgate-frame`), to be sure the two really differ inside.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { BERLIN, EUROPE_SITE, FOOD, LIVE_MUSIC as EUROPE_PLAYLIST, NEW_YORK, SITE } from '../support/seed.ts';

/** A bound on a hang, not a speed target: a cold worker on a busy machine loads the bundle and the sandbox slowly. */
const HANG_BOUND_MS = 60_000;

interface FrameView {
  status: string;
  player: { state: string | null } | null;
  playlist: { state: string | null; cards: number } | null;
}

const frameView = async (url: string) =>
  (await executeServerCommand<{ view: FrameView | null }, { url: string; play: boolean }>('reelgate-frame', { url, play: false })).view;

async function until(url: string, ready: (view: FrameView) => boolean, what: string): Promise<void> {
  let view: FrameView | null = null;
  try {
    await waitUntil(async () => {
      view = await frameView(url);
      return view !== null && ready(view);
    }, what, { timeout: 30000, interval: 100 });
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(view)}`);
  }
}

/** Whether loading `url` into an element of `tag` ends in `load` or `error` (what any page may watch). */
function loadEvent(tag: string, set: (element: HTMLElement) => void): Promise<string> {
  return new Promise((resolve) => {
    const element = document.createElement(tag);
    const done = (what: string) => {
      element.remove();
      resolve(`${tag}: ${what}`);
    };
    element.addEventListener('load', () => done('load'));
    element.addEventListener('error', () => done('error'));
    setTimeout(() => done('neither'), 10_000);
    set(element);
    (tag === 'link' ? document.head : document.body).append(element);
  });
}

/** Lets the frames post whatever they would after a change: a few frames of the page, and a worker round trip. */
const quiet = () => new Promise((resolve) => setTimeout(resolve, 1500));

describe('a page on another origin cannot tell a refused embed from an allowed one', () => {
  let worker: string;
  const heard = new Map<MessageEventSource, number[]>();
  const listen = (event: MessageEvent) => {
    if (event.origin !== new URL(worker).origin || event.data?.type !== 'reelgate:resize' || !event.source) return;
    heard.set(event.source, [...(heard.get(event.source) ?? []), event.data.height]);
  };

  before(async () => {
    worker = (await executeServerCommand<{ worker: string | null }, undefined>('reelgate-worker')).worker!;
    expect(worker, 'the integration suite needs the worker (REELGATE_TEST_WORKER)').to.be.a('string');
    expect(new URL(worker).origin).not.to.equal(location.origin);
    addEventListener('message', listen);
  });
  after(() => removeEventListener('message', listen));
  afterEach(() => {
    document.querySelectorAll('article').forEach((article) => article.remove());
    heard.clear();
  });

  function frame(url: string): HTMLIFrameElement {
    const host = document.createElement('article');
    const iframe = document.createElement('iframe');
    Object.assign(iframe, { src: url, width: '560', height: '315', title: 'embed' });
    iframe.style.border = '0';
    host.append(iframe);
    document.body.append(host);
    return iframe;
  }
  const messages = (iframe: HTMLIFrameElement) => heard.get(iframe.contentWindow!) ?? [];

  async function compare(path: string, shown: (view: FrameView) => boolean): Promise<void> {
    const allowedUrl = `${worker}${path}?dev_ip=${BERLIN}`;
    const refusedUrl = `${worker}${path}?dev_ip=${NEW_YORK}`;
    const allowed = frame(allowedUrl);
    const refused = frame(refusedUrl);
    // Inside, they differ: the content for one, the refusal for the other.
    await until(allowedUrl, shown, 'the allowed frame showing its content');
    await until(refusedUrl, (v) => v.status === 'Not available', 'the refused frame showing its refusal');
    await quiet();
    expect(messages(allowed).length, 'the allowed frame posted its height').to.be.greaterThan(0);
    expect(messages(refused), path).to.deep.equal(messages(allowed));

    // The parent resizes both, as a responsive page does: still the same heights, and only what the width says.
    for (const width of [400, 900]) {
      const [a, r] = [messages(allowed).length, messages(refused).length];
      allowed.width = refused.width = String(width);
      await waitUntil(() => messages(allowed).length > a && messages(refused).length > r, `a height for ${width} px`,
        { timeout: 10000 });
      await quiet();
      expect(messages(refused), `${path} at ${width} px`).to.deep.equal(messages(allowed));
    }
    // And with the height the snippet would give them (the parent learns nothing new from it: nothing is posted).
    const before = messages(allowed).length;
    allowed.style.height = refused.style.height = `${messages(allowed).at(-1)}px`;
    await quiet();
    expect(messages(allowed).length).to.equal(before);
    expect(messages(refused)).to.deep.equal(messages(allowed));
  }

  it('posts the same resize messages from a refused media frame as from an allowed one', async function () {
    this.timeout(HANG_BOUND_MS);
    const feed = await (await fetch(`/api/sites/${EUROPE_SITE}/playlists/${EUROPE_PLAYLIST}?page_length=1`,
      { headers: { 'x-reelgate-dev-ip': BERLIN } })).json() as { items: Array<{ id: string }> };
    await compare(`/embed/${EUROPE_SITE}/media/${feed.items[0]!.id}`, (v) => v.player?.state === 'complete');
  });

  it('posts the same resize messages from a refused playlist frame as from an allowed one', async function () {
    this.timeout(HANG_BOUND_MS);
    await compare(`/embed/${EUROPE_SITE}/playlists/${EUROPE_PLAYLIST}`,
      (v) => v.playlist?.state === 'complete' && v.playlist.cards > 0);
  });

  it('cannot tell them apart by loading them another way: the same load or error events, embed page or oEmbed', async function () {
    this.timeout(HANG_BOUND_MS);
    const feed = await (await fetch(`/api/sites/${EUROPE_SITE}/playlists/${EUROPE_PLAYLIST}?page_length=1`,
      { headers: { 'x-reelgate-dev-ip': BERLIN } })).json() as { items: Array<{ id: string }> };
    const page = (ip: string) => `${worker}/embed/${EUROPE_SITE}/media/${feed.items[0]!.id}?dev_ip=${ip}`;
    // oEmbed decides for the address that asks (x-reelgate-dev-ip cannot ride a subresource), here the loopback one,
    // which no policy places: a media of an unpoliced site is answered, the Europe site's is refused.
    const outcomes = async (url: string) => Promise.all([
      loadEvent('object', (e) => { (e as HTMLObjectElement).data = url; }),
      loadEvent('embed', (e) => { (e as HTMLEmbedElement).src = url; }),
      loadEvent('link', (e) => { Object.assign(e, { rel: 'prefetch', href: url }); }),
      loadEvent('link', (e) => { Object.assign(e, { rel: 'stylesheet', href: url }); }),
      loadEvent('script', (e) => { (e as HTMLScriptElement).src = url; }),
      loadEvent('img', (e) => { (e as HTMLImageElement).src = url; }),
    ]);
    const [allowed, refused] = [await outcomes(page(BERLIN)), await outcomes(page(NEW_YORK))];
    expect(refused).to.deep.equal(allowed);
    const food = await (await fetch(`/api/sites/${SITE}/playlists/${FOOD}?page_length=1`)).json() as { items: Array<{ id: string }> };
    const oembed = (embed: string) => `${worker}/oembed?url=${encodeURIComponent(embed)}`;
    const open = oembed(`${worker}/embed/${SITE}/media/${food.items[0]!.id}`);
    const gated = oembed(`${worker}/embed/${EUROPE_SITE}/media/${feed.items[0]!.id}`);
    // Asked by a server (this test server's proxy), the one is answered and the other refused...
    expect([(await fetch(`/oembed?url=${encodeURIComponent(`${worker}/embed/${SITE}/media/${food.items[0]!.id}`)}`)).status,
      (await fetch(`/oembed?url=${encodeURIComponent(`${worker}/embed/${EUROPE_SITE}/media/${feed.items[0]!.id}`)}`)).status])
      .to.deep.equal([200, 451]);
    // ...but a page of another site loading them sees the same for both.
    expect(await outcomes(gated)).to.deep.equal(await outcomes(open));
  });

  it('cannot read an embed page, allowed or refused, with fetch', async () => {
    const feed = await (await fetch(`/api/sites/${EUROPE_SITE}/playlists/${EUROPE_PLAYLIST}?page_length=1`,
      { headers: { 'x-reelgate-dev-ip': BERLIN } })).json() as { items: Array<{ id: string }> };
    for (const ip of [BERLIN, NEW_YORK]) {
      const url = `${worker}/embed/${EUROPE_SITE}/media/${feed.items[0]!.id}?dev_ip=${ip}`;
      let read: string | null = null;
      try {
        read = await (await fetch(url, { mode: 'cors' })).text();
      } catch {
        // A CORS failure: the page on this origin reads neither the title nor the 451.
      }
      expect(read, ip).to.equal(null);
      // no-cors gives an opaque answer: no status, no body.
      const opaque = await fetch(url, { mode: 'no-cors' });
      expect([opaque.type, opaque.status]).to.deep.equal(['opaque', 0]);
    }
  });
});
