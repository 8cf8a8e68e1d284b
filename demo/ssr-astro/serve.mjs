// Serves the Astro build (.build/apps/ssr-astro, from `npm run check:apps`): its client files, and every page through
// the build's handler (adapter/server.mjs) with the visitor's address, which the page forwards to the worker.
//
//   npm start                                   # the worker on :8787, with RENDER_TOKEN from .dev.vars
//   npm run check:apps                          # builds this site
//   REELGATE_RENDER_TOKEN=<the worker's RENDER_TOKEN> node demo/ssr-astro/serve.mjs   # http://127.0.0.1:8791/
//
// PORT moves it; REELGATE_ENDPOINT names another worker; TRUST_PROXY=1 takes the visitor from X-Forwarded-For (only
// behind your own proxy; the browser suite uses it to visit from Berlin and New York).
import { createServer } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { proxy, sendFile, sendWebResponse, visitorOf, workerSettings } from '../ssr-common/http.mjs';

const { endpoint } = workerSettings();
const built = fileURLToPath(new URL('../../.build/apps/ssr-astro/', import.meta.url));
const { handler } = await import(pathToFileURL(`${built}server/entry.mjs`).href);

const server = createServer(async (request, response) => {
  try {
    const url = new URL(request.url, `http://${request.headers.host ?? 'localhost'}`);
    if (url.pathname.startsWith('/api/')) return await proxy(request, response, endpoint);
    if (url.pathname.startsWith('/_astro/') && sendFile(response, `${built}client`, url.pathname)) return;
    const page = await handler(new Request(url, { method: request.method, headers: request.headers }), visitorOf(request));
    await sendWebResponse(response, page);
  } catch (error) {
    console.error('ssr-astro:', error);
    if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
    response.end('Something went wrong.');
  }
});
const port = Number(process.env.PORT ?? 8791);
server.listen(port, '127.0.0.1', () => console.log(`ssr-astro: http://127.0.0.1:${server.address().port}/ (worker ${endpoint})`));
