// A publisher's own Node renderer with Lit SSR (@lit-labs/ssr): each page request is rendered for its visitor, with
// the elements' content in the HTML (declarative shadow DOM) before any script runs, and hydrated in the browser by
// client.mjs. `reelgate/server` asks the worker as the visitor, so a refused visitor's HTML names nothing gated.
//
//   npm start                                   # the worker on :8787, with RENDER_TOKEN from .dev.vars
//   npm run check:apps                          # builds client.mjs into .build/apps/ssr-node/client.js
//   REELGATE_RENDER_TOKEN=<the worker's RENDER_TOKEN> node demo/ssr-node/server.mjs   # http://127.0.0.1:8790/
//
// PORT moves it; REELGATE_ENDPOINT names another worker; TRUST_PROXY=1 takes the visitor from X-Forwarded-For (only
// behind your own proxy; the browser suite uses it to visit from Berlin and New York).
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { render } from '@lit-labs/ssr';
import { collectResult } from '@lit-labs/ssr/lib/render-result.js';
import { html, nothing } from 'lit';
// The elements, defined on the server (Lit's DOM shim stands in for the browser's registry).
import 'reelgate';
import { reelgateServer } from 'reelgate/server';
import { proxy, sendFile, visitorOf, workerSettings } from '../ssr-common/http.mjs';

const SITE = 'vbQmzoYd';
const SHELF = 'DGRTLuft';
const PLAYER = 'RkWDvjNV';
const EUROPE_SITE = '93QufRA9';
const LIVE_MUSIC = 'TwZWDpHr';

const { endpoint, token } = workerSettings();
const client = fileURLToPath(new URL('../../.build/apps/ssr-node', import.meta.url));

/** The page's elements for one visitor, with what the worker gave that visitor; and the JSON-LD for it. */
async function elements(visitor) {
  const reelgate = reelgateServer({ endpoint, token, visitor });
  const [shelf, europe] = await Promise.all([reelgate.feed(SITE, SHELF, { pageSize: 5 }), reelgate.gate('europe')]);
  // The player follows the shelf: on the server it is given the shelf's first item, which the browser cues too.
  const first = shelf.data?.items[0]?.id;
  const [media, live] = await Promise.all([
    first ? reelgate.media(SITE, first) : null,
    // Asked for only when the gate allowed: a refused visitor's page names nothing of it.
    reelgate.feed(EUROPE_SITE, LIVE_MUSIC, { pageSize: 3, within: europe }),
  ]);
  const markup = await collectResult(render(html`
    <section aria-labelledby="kitchen">
      <h2 id="kitchen">From the kitchen</h2>
      <reel-player site=${SITE} player=${PLAYER} ratio="16:9" for="food-shelf" media=${first ?? nothing}
        data=${media?.json ?? nothing}></reel-player>
      <reel-playlist id="food-shelf" site=${SITE} playlist=${SHELF} page-size="5" data=${shelf.json ?? nothing}></reel-playlist>
    </section>
    <section aria-labelledby="live">
      <h2 id="live">Live sessions (Europe only)</h2>
      <reel-geo-gate policy="europe" data=${europe.json ?? nothing}>
        <p slot="denied">These sessions are licensed for Europe only.</p>
        <reel-playlist id="live-shelf" site=${EUROPE_SITE} playlist=${LIVE_MUSIC} page-size="3"
          data=${live.json ?? nothing}></reel-playlist>
      </reel-geo-gate>
    </section>`));
  return { markup, jsonLd: reelgate.jsonLd() };
}

const page = ({ markup, jsonLd }) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>The Northwind Courier (Node + Lit SSR)</title>
  <style>
    body { margin: 0 auto; max-inline-size: 60rem; padding: 1rem; font: 1rem/1.5 system-ui, sans-serif; }
    reel-player { margin-block-end: 1rem; }
  </style>
  ${jsonLd}
</head>
<body>
  <header><h1>The Northwind Courier</h1><p>A page rendered on the server with Lit SSR, hydrated in the browser.</p></header>
  <main>${markup}</main>
  <script type="module" src="/client.js"></script>
</body>
</html>`;

const server = createServer(async (request, response) => {
  try {
    const path = new URL(request.url, 'http://localhost').pathname;
    if (path.startsWith('/api/')) return await proxy(request, response, endpoint);
    // The browser's bundle (client.mjs, built by `npm run check:apps`): client.js and the chunks it loads.
    if (/^\/[\w.-]+\.js$/.test(path) && sendFile(response, client, path.slice(1))) return;
    if (path !== '/') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const html = page(await elements(visitorOf(request)));
    // Rendered for this visitor: no shared cache may keep it.
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'private, no-store' });
    response.end(html);
  } catch (error) {
    console.error('ssr-node:', error);
    if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
    response.end('Something went wrong.');
  }
});
const port = Number(process.env.PORT ?? 8790);
server.listen(port, '127.0.0.1', () => console.log(`ssr-node: http://127.0.0.1:${server.address().port}/ (worker ${endpoint})`));
