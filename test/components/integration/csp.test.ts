/**
 * The elements under a publisher's strict Content-Security-Policy: no 'unsafe-inline' for styles or scripts. A page
 * (an iframe here, same origin as this test page, so its document can be read) with that policy loads the built
 * bundle and one of each element; every state they go through, loading skeletons included, must cause no violation.
 * Lit's styles are constructed stylesheets and the player sizes its frame through the CSSOM, neither of which CSP
 * governs; a `style="…"` attribute in a template is what such a policy refuses. `connect-src` names the delivery
 * hosts (here the sandbox's), as the README's policy does: hls.js fetches HLS segments, and the player chapters and
 * storyboards, with fetch. `media-src` is the README's too: `blob:` (MSE) and the delivery hosts, never `data:`, so the
 * text tracks hls.js adds for a stream's subtitles must not load a `data:` placeholder.
 */
import { expect, waitUntil } from '@open-wc/testing';
import type { ReelPlayer } from '../../../components/reel-player/reel-player.ts';
import type { FeedResponse, MediaResponse } from '../../../worker/contract/public-api.ts';

const SITE = 'vbQmzoYd';
const FOOD = 'DGRTLuft';
const ARTICLE_PLAYER = 'RkWDvjNV';

const POLICY = ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob: http: https:",
  "media-src 'self' blob: http: https:", "connect-src 'self' http: https:"].join('; ');

/** A page (an iframe) under POLICY that records every violation, loads the built bundle, and holds `body`. */
function pageUnderPolicy(body: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.style.inlineSize = '1000px';
  frame.style.blockSize = '800px';
  frame.srcdoc = `<!doctype html><html lang="en"><head>
    <meta http-equiv="Content-Security-Policy" content="${POLICY}">
    <script src="/test/components/support/csp-violations.js"></script>
    <script type="module" src="/dist/reelgate.js"></script></head><body>${body}</body></html>`;
  document.body.append(frame);
  return frame;
}

function violations(frame: HTMLIFrameElement): string[] | undefined {
  return (frame.contentWindow as Window & { cspViolations?: string[] }).cspViolations;
}

const HLS = 'application/vnd.apple.mpegurl';

/** A media of the seed's food playlist with HLS and subtitles or captions (which its HLS carries as a group). */
async function hlsWithSubtitles(): Promise<MediaResponse> {
  const feed = (await (await fetch(`/api/sites/${SITE}/playlists/${FOOD}?page_length=50`)).json()) as FeedResponse;
  for (const item of feed.items) {
    const media = (await (await fetch(`/api/sites/${SITE}/media/${item.id}`)).json()) as MediaResponse;
    const subtitled = media.tracks.some((t) => t.kind === 'subtitles' || t.kind === 'captions');
    if (subtitled && media.sources.some((s) => s.type === HLS)) return media;
  }
  throw new Error('no media with HLS and subtitles in the food playlist');
}

describe('the elements under a strict CSP', () => {
  it('render every state with no style or script violation', async function () {
    this.timeout(60_000);
    const frame = pageUnderPolicy(`
      <reel-player site="${SITE}" player="${ARTICLE_PLAYER}" for="shelf"></reel-player>
      <reel-playlist id="shelf" site="${SITE}" playlist="${FOOD}" page-size="4"></reel-playlist>
      <reel-player-config site="${SITE}" player="${ARTICLE_PLAYER}"></reel-player-config>
      <reel-geo-gate policy="europe"><p slot="denied">Europe only.</p></reel-geo-gate>`);
    try {
      await waitUntil(() => frame.contentDocument?.querySelectorAll('[state="complete"]').length === 3,
        'the playlist, the player and the player configuration never all loaded', { timeout: 45_000, interval: 100 });
      const gate = frame.contentDocument!.querySelector('reel-geo-gate')!;
      await waitUntil(() => ['allowed', 'denied'].includes(gate.getAttribute('state') ?? ''), 'the gate never decided',
        { timeout: 15_000, interval: 100 });
      expect(violations(frame), 'the violation recorder did not load').to.be.an('array');
      expect(violations(frame)).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });

  it('plays HLS with subtitles through MSE with no media-src violation', async function () {
    this.timeout(90_000);
    const media = await hlsWithSubtitles();
    const frame = pageUnderPolicy(`<reel-player site="${SITE}" media="${media.id}" rows="toolbar"></reel-player>`);
    try {
      await waitUntil(() => frame.contentDocument?.querySelector('reel-player')?.getAttribute('state') === 'complete',
        'the player never loaded', { timeout: 30_000, interval: 100 });
      const player = frame.contentDocument!.querySelector('reel-player') as ReelPlayer;
      expect(player.engine, 'this Chromium plays HLS through MSE').to.equal('mse');
      const video = player.video!;
      const ownTracks = video.querySelectorAll('track').length;
      video.muted = true;
      await video.play().catch(() => {});
      // hls.js adds a track of its own for each subtitles rendition of the stream, beside the element's.
      await waitUntil(() => video.querySelectorAll('track').length > ownTracks, 'hls.js never added its text tracks',
        { timeout: 30_000, interval: 100 });
      await waitUntil(() => !video.paused && video.currentTime > 0.5, 'it never played', { timeout: 30_000, interval: 100 });
      expect(violations(frame), 'the violation recorder did not load').to.be.an('array');
      expect(violations(frame)).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });
});
