/**
 * Embedding without scripts, end to end: a media URL and a playlist URL are asked of /oembed (as a CMS's server would,
 * here through the test server's proxy), the `html` it returns is put into this page as a CMS would, and the iframe
 * shows a working player / a shelf with cards from the real worker, and takes the height the embed page reports: its
 * layout's, from its width alone (so a parent cannot tell a refused embed from an allowed one), never measured from
 * what it shows. The iframe is cross-origin (the worker's own address), so what it shows is read through the browser's
 * DevTools connection (web-test-runner.config.mjs, `reelgate-frame`). Ids are the sandbox's seed.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';

const SITE = 'vbQmzoYd';
const FOOD = 'DGRTLuft';
const EUROPE_SITE = '93QufRA9';
const NEW_YORK = '192.0.2.20';

interface FrameView {
  status: string;
  text: string;
  height: number;
  width: number;
  rem: number;
  /** The page's `reelgate-frame` meta: `<ratio> <rem>`. */
  layout: string | null;
  viewport: number;
  scrollHeight: number;
  player: { state: string | null; media: string | null; src: string | null; readyState: number } | null;
  playlist: { state: string | null; cards: number } | null;
}
interface OEmbed { type: string; html: string; width: number; height: number; title: string; thumbnail_url?: string }

const frameView = async (url: string, play = false) =>
  (await executeServerCommand<{ view: FrameView | null }, { url: string; play: boolean }>('reelgate-frame', { url, play })).view;

async function oembed(url: string): Promise<OEmbed> {
  const response = await fetch(`/oembed?url=${encodeURIComponent(url)}&format=json&maxwidth=560`);
  expect(response.status, await response.clone().text()).to.equal(200);
  return response.json() as Promise<OEmbed>;
}

/** The height a frame posts: its layout's at its width (worker/embed/frame-script.ts), whatever it shows. */
function layoutHeight(view: FrameView): number {
  const [ratio, rem] = view.layout!.split(' ').map(Number) as [number, number];
  return Math.ceil(view.width * ratio + rem * view.rem);
}

/** Puts oEmbed html into the page the way a CMS does (its resize script runs), and returns the iframe. */
function paste(html: string): HTMLIFrameElement {
  const host = document.createElement('article');
  document.body.append(host);
  host.append(document.createRange().createContextualFragment(html));
  return host.querySelector('iframe')!;
}

/** Waits until the frame shows something `ready` accepts (bounded by the suite's timeout, no fixed delays). */
async function until(url: string, ready: (view: FrameView) => boolean, what: string, play = false): Promise<FrameView> {
  let view: FrameView | null = null;
  try {
    await waitUntil(async () => {
      view = await frameView(url, play);
      return view !== null && ready(view);
    }, what, { timeout: 30000, interval: 100 });
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(view)}`);
  }
  return view!;
}

/** A bound on a hang, not a speed target: a cold worker on a busy machine loads the bundle and the sandbox slowly. */
const HANG_BOUND_MS = 60_000;

describe('oEmbed and iframe embeds against the real worker', () => {
  let worker: string;
  before(async () => {
    worker = (await executeServerCommand<{ worker: string | null }, undefined>('reelgate-worker')).worker!;
    expect(worker, 'the integration suite needs the worker (REELGATE_TEST_WORKER)').to.be.a('string');
  });
  afterEach(() => {
    document.querySelectorAll('article').forEach((article) => article.remove());
  });

  it('turns a pasted media URL into a playing player that resizes its iframe', async function () {
    this.timeout(HANG_BOUND_MS);
    const feed = await (await fetch(`/api/sites/${SITE}/playlists/${FOOD}?page_length=1`)).json() as { items: Array<{ id: string; title: string }> };
    const media = feed.items[0]!;
    const url = `${worker}/embed/${SITE}/media/${media.id}`;
    const answer = await oembed(url);
    expect([answer.type, answer.title, answer.width, answer.height]).to.deep.equal(['video', media.title, 560, 315]);
    const iframe = paste(answer.html);
    expect(iframe.src).to.equal(url);

    // HLS (through MSE in Chromium: hls.js gives the video a MediaSource) loads no segment until played, by design:
    // even metadata would pull a first segment on every view. So the viewer's play is what loads it.
    const view = await until(url, (v) => v.player?.state === 'complete' && Boolean(v.player.src) && v.player.readyState >= 1,
      'a player that plays its source', true);
    expect(view.player!.media).to.equal(media.id);
    expect(view.player!.src).to.match(new RegExp(`^blob:${worker}/|/videos/${media.id}-[A-Za-z0-9]+\\.mp4$`));
    // The embed page reported its layout's height and the pasted snippet gave it to the iframe: the player and its
    // rows fit it, nothing scrolls.
    const expected = layoutHeight(view);
    await waitUntil(() => iframe.style.height === `${expected}px`, 'the iframe never took the page\'s layout height',
      { timeout: 30000, interval: 100 });
    const settled = await until(url, (v) => v.viewport === expected, 'the frame at the height the iframe took');
    expect(settled.scrollHeight, 'the player fits its frame').to.be.at.most(settled.viewport);
    expect(Math.round(iframe.getBoundingClientRect().height)).to.equal(expected);
  });

  it('turns a pasted playlist URL into a shelf with cards and a player, in an iframe of the shelf\'s layout', async function () {
    this.timeout(HANG_BOUND_MS);
    const url = `${worker}/embed/${SITE}/playlists/${FOOD}`;
    const answer = await oembed(url);
    expect([answer.type, answer.title]).to.deep.equal(['rich', 'Food & Recipes']);
    const iframe = paste(answer.html);

    const view = await until(url, (v) => v.playlist?.state === 'complete' && v.playlist.cards > 0
      // Cued: its media loaded (an HLS media, played through MSE, has no source until the viewer plays it).
      && v.player?.state === 'complete' && Boolean(v.player.media), 'a shelf with cards and a cued player');
    expect(view.playlist!.cards).to.be.greaterThan(0);
    // The player and room for the shelf (the same for every visitor); more cards than fit scroll inside the frame.
    const expected = layoutHeight(view);
    await waitUntil(() => iframe.style.height === `${expected}px`, 'the iframe never took the page\'s layout height',
      { timeout: 30000, interval: 100 });
    const settled = await until(url, (v) => v.viewport === expected, 'the frame at the height the iframe took');
    expect(Math.round(iframe.getBoundingClientRect().height)).to.equal(settled.viewport);
  });

  it('shows a refused visitor only a short refusal inside the iframe, and /oembed tells a refused CMS nothing', async function () {
    this.timeout(HANG_BOUND_MS);
    const feed = await (await fetch(`/api/sites/${EUROPE_SITE}/playlists/TwZWDpHr?page_length=1`,
      { headers: { 'x-reelgate-dev-ip': '192.0.2.30' } })).json() as { items: Array<{ id: string; title: string }> };
    const media = feed.items[0]!;
    const refused = await fetch(`/oembed?url=${encodeURIComponent(`${worker}/embed/${EUROPE_SITE}/media/${media.id}`)}`,
      { headers: { 'x-reelgate-dev-ip': NEW_YORK } });
    expect(refused.status).to.equal(451);
    expect(await refused.text()).not.to.contain(media.title);

    const url = `${worker}/embed/${EUROPE_SITE}/media/${media.id}?dev_ip=${NEW_YORK}`;
    paste(`<iframe src="${url}" width="560" height="315"></iframe>`);
    const view = await until(url, (v) => v.status === 'Not available', 'the refusal page');
    expect(view.text).to.equal('This content is not available in your region.');
    expect(view.player).to.equal(null);
  });
});
