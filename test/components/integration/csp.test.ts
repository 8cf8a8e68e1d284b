/**
 * The elements under a publisher's strict Content-Security-Policy: no 'unsafe-inline' for styles or scripts. A page
 * (an iframe here, same origin as this test page, so its document can be read) with that policy loads the built
 * bundle and one of each element; every state they go through, loading skeletons included, must cause no violation.
 * Lit's styles are constructed stylesheets and the player sizes its frame through the CSSOM, neither of which CSP
 * governs; a `style="…"` attribute in a template is what such a policy refuses. `connect-src` names the delivery
 * hosts (here the sandbox's), as the README's policy does: hls.js fetches HLS segments, and the player chapters and
 * storyboards, with fetch.
 */
import { expect, waitUntil } from '@open-wc/testing';

const SITE = 'vbQmzoYd';
const FOOD = 'DGRTLuft';
const ARTICLE_PLAYER = 'RkWDvjNV';

const POLICY = ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob: http: https:",
  "media-src 'self' blob: http: https:", "connect-src 'self' http: https:"].join('; ');

describe('the elements under a strict CSP', () => {
  it('render every state with no style or script violation', async function () {
    this.timeout(60_000);
    const frame = document.createElement('iframe');
    frame.style.inlineSize = '1000px';
    frame.style.blockSize = '800px';
    frame.srcdoc = `<!doctype html><html lang="en"><head>
      <meta http-equiv="Content-Security-Policy" content="${POLICY}">
      <script src="/test/components/support/csp-violations.js"></script>
      <script type="module" src="/dist/reelgate.js"></script></head><body>
      <reel-player site="${SITE}" player="${ARTICLE_PLAYER}" for="shelf"></reel-player>
      <reel-playlist id="shelf" site="${SITE}" playlist="${FOOD}" page-size="4"></reel-playlist>
      <reel-player-config site="${SITE}" player="${ARTICLE_PLAYER}"></reel-player-config>
      <reel-geo-gate policy="europe"><p slot="denied">Europe only.</p></reel-geo-gate>
      </body></html>`;
    document.body.append(frame);
    try {
      await waitUntil(() => frame.contentDocument?.querySelectorAll('[state="complete"]').length === 3,
        'the playlist, the player and the player configuration never all loaded', { timeout: 45_000, interval: 100 });
      const gate = frame.contentDocument!.querySelector('reel-geo-gate')!;
      await waitUntil(() => ['allowed', 'denied'].includes(gate.getAttribute('state') ?? ''), 'the gate never decided',
        { timeout: 15_000, interval: 100 });
      const violations = (frame.contentWindow as Window & { cspViolations?: string[] }).cspViolations;
      expect(violations, 'the violation recorder did not load').to.be.an('array');
      expect(violations).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });
});
