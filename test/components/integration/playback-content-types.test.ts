/**
 * Playback URLs never run an attacker's content on the worker's own origin (no stored XSS), in real Chromium.
 * An attacker with write access makes an `external` media of the gated europe site whose source is an HLS master in
 * a folder it controls (the sandbox's /cdn/hostile/, demo/sandbox/hostile-folder.ts): beside a real playlist it holds
 * a web page whose scripts (inline, and `evil.js` beside it) mark this page when they run, an SVG with a script, and a
 * page named like a video. An allowed (Berlin) visitor's browser is then made to open those files through the media's
 * playback URL, on this page's own origin (the test server forwards /api/ to the worker), as a frame and as a script:
 * none of it runs. The worker-suite half (types, headers, refusals) is test/worker/playback-content-types.test.ts.
 *
 * The media is made with `POST /_sandbox/hostile-media` on this page's own origin: the test server passes it on to the
 * sandbox (web-test-runner.config.mjs), which takes no control write from a page of another origin. Addresses are the
 * sandbox's geo fixtures; DEV_MODE is on (test/run-browser-tests.mjs).
 */
import { expect } from '@open-wc/testing';
import type { ErrorResponse, MediaResponse } from '../../../worker/contract/public-api.ts';
import { BERLIN, EUROPE_SITE } from '../support/seed.ts';

const HLS = 'application/vnd.apple.mpegurl';

declare global {
  interface Window {
    /** What the hostile scripts leave behind when they run (demo/sandbox/hostile-folder.ts). */
    reelgateHostile?: string[];
  }
}

function get(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(path, { cache: 'no-store', ...init, headers: { 'x-reelgate-dev-ip': BERLIN } });
}

async function json<T>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).to.equal(200);
  return response.json() as Promise<T>;
}

/** The attacker's media in the gated site, and its playback URL as the Berlin visitor is handed it. */
async function hostileMedia(file: string): Promise<string> {
  const created = await fetch('/_sandbox/hostile-media', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ site: EUROPE_SITE, file }),
  });
  expect(created.status, await created.clone().text()).to.equal(201);
  const { id } = (await created.json()) as { id: string };
  const media = await json<MediaResponse>(await get(`/api/sites/${EUROPE_SITE}/media/${id}`));
  expect(media.sources.length).to.equal(1);
  expect(media.sources[0]!.url).to.match(/^\/api\/play\/[A-Za-z0-9_-]+\//);
  return media.sources[0]!.url;
}

/** Everything the hostile scripts can reach from a frame or a script of this page tells whether they ran. */
function watchScripts(): { marks: string[]; stop: () => void } {
  const marks: string[] = [];
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { reelgateHostile?: unknown } | null;
    if (data && typeof data === 'object' && 'reelgateHostile' in data) marks.push(String(data.reelgateHostile));
  };
  window.addEventListener('message', onMessage);
  delete window.reelgateHostile;
  return { marks, stop: () => window.removeEventListener('message', onMessage) };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens `src` in a frame of this page, and waits until it has loaded (or failed to) and any script had its turn. */
async function frame(src: string): Promise<HTMLIFrameElement> {
  const iframe = document.createElement('iframe');
  const loaded = new Promise((resolve) => {
    iframe.addEventListener('load', resolve, { once: true });
    setTimeout(resolve, 8000);
  });
  iframe.src = src;
  document.body.append(iframe);
  await loaded;
  await settle(500);
  return iframe;
}

/** Loads `src` as a classic script of this page: true when it ran to its load event. */
function script(src: string): Promise<boolean> {
  return new Promise((resolve) => {
    const element = document.createElement('script');
    element.addEventListener('load', () => resolve(true), { once: true });
    element.addEventListener('error', () => resolve(false), { once: true });
    element.src = src;
    document.head.append(element);
  });
}

describe('playback URLs run no content of any type on the worker\'s own origin (no stored XSS)', () => {
  let folder: string;
  const title = document.title;
  before(async function () {
    this.timeout(60_000);
    folder = (await hostileMedia('master.m3u8')).replace(/[^/]+$/, '');
  });
  afterEach(() => {
    document.querySelectorAll('iframe').forEach((iframe) => iframe.remove());
    document.title = title;
  });

  it('the attacker\'s folder is really served to the allowed visitor: its playlist plays through the playback URL', async () => {
    const master = await get(`${folder}master.m3u8`);
    expect(master.status).to.equal(200);
    expect(master.headers.get('content-type')).to.equal(HLS);
    const variant = (await master.text()).split('\n').find((line) => line && !line.startsWith('#'))!;
    expect(variant).to.equal(`${folder}v/index.m3u8`);
    expect((await get(variant)).status).to.equal(200);
  });

  it('its web page, opened in a frame of this origin as the allowed visitor, runs no script', async function () {
    this.timeout(30_000);
    const watch = watchScripts();
    try {
      const iframe = await frame(`${folder}page.html?dev_ip=${BERLIN}`);
      expect(watch.marks, 'a hostile script posted to this page').to.deep.equal([]);
      expect(window.reelgateHostile, 'a hostile script reached this page').to.equal(undefined);
      expect(document.title).to.equal(title);
      // Whatever the frame shows, it is no document of this origin: its contents are out of this page's reach.
      let reachable: Document | null = null;
      try {
        reachable = iframe.contentDocument;
      } catch {
        reachable = null;
      }
      expect(reachable?.title ?? '', 'the frame shows the attacker\'s page').not.to.contain('attacker page');
      expect(reachable?.title ?? '').not.to.contain('reelgate hostile');
      // And what the worker answered for it is its refusal, in the v2 error body.
      const answer = await get(`${folder}page.html`);
      expect(answer.status).to.equal(502);
      expect(answer.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(answer.headers.get('content-security-policy')).to.contain('sandbox');
      expect(((await answer.json()) as ErrorResponse).errors[0]!.code).to.equal('playback_unsupported_type');
    } finally {
      watch.stop();
    }
  });

  it('its script, loaded by a page of this origin, does not run', async () => {
    const watch = watchScripts();
    try {
      expect(await script(`${folder}evil.js?dev_ip=${BERLIN}`)).to.equal(false);
      await settle(300);
      expect(watch.marks).to.deep.equal([]);
      expect(window.reelgateHostile).to.equal(undefined);
      expect(document.title).to.equal(title);
    } finally {
      watch.stop();
    }
  });

  it('its SVG and a page named like a video, opened in frames, run no script either', async function () {
    this.timeout(40_000);
    const clip = await hostileMedia('clip.mp4');
    const watch = watchScripts();
    try {
      for (const src of [`${folder}image.svg`, `${folder}clip.mp4`, clip, `${folder}page.m3u8`]) {
        await frame(`${src}?dev_ip=${BERLIN}`);
        expect(watch.marks, src).to.deep.equal([]);
        expect(window.reelgateHostile, src).to.equal(undefined);
        expect(document.title, src).to.equal(title);
      }
    } finally {
      watch.stop();
    }
  });
});
