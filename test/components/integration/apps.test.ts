/**
 * The example apps (demo/react-app, demo/vue-app) as `npm run check:apps` built them with Vite into .build/apps/,
 * against the real worker and sandbox. Each loads in an iframe from this test server (same origin, so its document can
 * be read) with `?endpoint=` this page's origin (the server forwards /api to the worker) and `?devIp=` the visitor's
 * stand-in address, which the worker honours with DEV_MODE on (demo/sandbox/geo-fixtures.ts: Berlin, New York).
 */
import { aTimeout, expect } from '@open-wc/testing';

const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';
const LIVE_MUSIC = 'TwZWDpHr';

/**
 * Asks the worker, one at a time, for what the apps load (the shelf's first video is TR8jYAyr, as in
 * demo/index.html), so a page's first load finds it cached. The worker's upstream budget is small (burst 5, shared by
 * the whole run); a cold page's simultaneous misses can wait past max_wait_ms on a loaded machine and be answered 429,
 * which the budget's own suites cover and which is not what these apps are checked for.
 */
async function warm(): Promise<void> {
  const urls = [['/api/sites/vbQmzoYd/players/RkWDvjNV'], ['/api/sites/vbQmzoYd/playlists/DGRTLuft?page=1&page_length=5'],
    ['/api/sites/vbQmzoYd/media/TR8jYAyr'], [`/api/sites/93QufRA9/playlists/${LIVE_MUSIC}?page=1&page_length=3`, BERLIN]];
  for (const [url, devIp] of urls) {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(url!, { headers: devIp ? { 'x-reelgate-dev-ip': devIp } : {} });
      await response.arrayBuffer();
      if (response.ok) break;
      if (response.status !== 429 || attempt === 3) throw new Error(`warming ${url}: ${response.status}`);
      await aTimeout(1000 * Number(response.headers.get('retry-after') ?? 1));
    }
  }
}

/** What the built app shows, read from its elements' reflected state and shadow roots. */
function view(doc: Document) {
  const cards = (el: Element | null) => el?.shadowRoot?.querySelectorAll('[part="card"]').length ?? 0;
  const shelf = doc.querySelector('#food-shelf');
  const player = doc.querySelector('reel-player');
  const config = doc.querySelector('reel-player-config');
  const gate = doc.querySelector('reel-geo-gate');
  const gated = gate?.querySelector('reel-playlist') ?? null;
  return {
    shelf: { state: shelf?.getAttribute('state'), cards: cards(shelf) },
    player: { state: player?.getAttribute('state'),
      src: player?.shadowRoot?.querySelector('video')?.getAttribute('src') ?? null,
      engine: player?.getAttribute('engine') ?? null },
    config: { state: config?.getAttribute('state'),
      name: config?.shadowRoot?.querySelector('[part="name"]')?.textContent ?? null },
    gate: { state: gate?.getAttribute('state'), reason: gate?.getAttribute('reason') },
    gated: { present: !!gated, state: gated?.getAttribute('state'), cards: cards(gated) },
    text: doc.body.textContent ?? '',
    // Every request the frame made (resource timing lists fetches too): what a fetch spy would have seen, from boot on.
    requests: (doc.defaultView!.performance.getEntriesByType('resource')).map((entry) => entry.name),
  };
}

/** Polls `done` (bounded); the failure names what the app showed at the end, not when the wait began. */
async function until(doc: Document, what: string, done: (seen: ReturnType<typeof view>) => boolean): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (!done(view(doc))) {
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(view(doc))}`);
    await aTimeout(100);
  }
}

async function openApp(app: 'react' | 'vue', devIp: string): Promise<{ frame: HTMLIFrameElement; doc: Document }> {
  const path = `/.build/apps/${app}/index.html`;
  if (!(await fetch(path)).ok) throw new Error(`${path} is missing: run \`npm run build && npm run check:apps\` first`);
  const frame = document.createElement('iframe');
  frame.style.inlineSize = '1000px';
  frame.style.blockSize = '1400px';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = `${path}?${new URLSearchParams({ endpoint: location.origin, devIp })}`;
  document.body.append(frame);
  await loaded;
  return { frame, doc: frame.contentDocument! };
}

before(async function () {
  this.timeout(180_000);
  await warm();
});

for (const app of ['react', 'vue'] as const) {
  describe(`the ${app} example app`, () => {
    let frame: HTMLIFrameElement | undefined;
    afterEach(() => {
      frame?.remove();
      frame = undefined;
    });

    it('shows the shelf, plays its first video, describes the player and opens the gate for Berlin', async function () {
      this.timeout(60_000);
      let doc: Document;
      ({ frame, doc } = await openApp(app, BERLIN));
      await until(doc, 'the app never loaded', (seen) => seen.shelf.state === 'complete' &&
        seen.player.state === 'complete' && seen.config.state === 'complete' && seen.gated.state === 'complete' &&
        // The app's own text, from its reel-gate-decision listener (the framework renders it a moment later).
        seen.text.includes('Showing it in DE.'));
      const seen = view(doc);
      expect(seen.shelf.cards).to.equal(5);
      // The linked player cues the shelf's first video: its HLS, through MSE (hls.js, a chunk of the app's own build,
      // is attached when the viewer plays: until then the video has no source).
      expect(seen.player.engine).to.equal('mse');
      expect(seen.player.src).to.equal(null);
      expect(seen.config.name).to.equal('Article player');
      expect(seen.gate.state).to.equal('allowed');
      expect(seen.gated.cards).to.equal(3);
    });

    it('keeps the gate closed for New York without ever asking for the gated playlist', async function () {
      this.timeout(60_000);
      let doc: Document;
      ({ frame, doc } = await openApp(app, NEW_YORK));
      await until(doc, 'the gate never denied', (seen) => seen.gate.state === 'denied' &&
        seen.text.includes('Not shown here.'));
      // The rest of the page still loads; by then any request the held playlist could make would have been made.
      await until(doc, 'the shelf never loaded', (seen) => seen.shelf.state === 'complete');
      const seen = view(doc);
      expect(seen.gate.reason).to.equal('continent_not_allowed');
      expect(seen.gated).to.deep.equal({ present: true, state: 'idle', cards: 0 });
      expect(seen.requests.some((url) => url.endsWith('/api/gate/europe')), 'the gate asked the worker')
        .to.equal(true);
      expect(seen.requests.filter((url) => url.includes(`/playlists/${LIVE_MUSIC}`))).to.deep.equal([]);
    });
  });
}
