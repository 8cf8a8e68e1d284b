// The typed clients are promised to run in Node as well as in Workers. This suite bundles worker/upstream/ for Node
// (as a Node user's bundler would), starts the real sandbox upstream in workerd through wrangler's Node API, and
// drives the clients over real HTTP on loopback with Node's own fetch, AbortSignal and URL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { unstable_dev } from 'wrangler';

const SECRET = 'sandbox-api-secret-not-for-production';
const GEO_KEY = 'sandbox-geo-key-not-for-production';
let sandbox;
let baseUrl;
let upstream;

before(async () => {
  const bundle = await build({
    entryPoints: [new URL('../../worker/upstream/index.ts', import.meta.url).pathname],
    bundle: true, format: 'esm', platform: 'node', target: 'node20', write: false,
  });
  upstream = await import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString('base64')}`);
  sandbox = await unstable_dev(new URL('../../demo/sandbox/index.ts', import.meta.url).pathname, {
    config: new URL('../../demo/sandbox/wrangler.toml', import.meta.url).pathname,
    ip: '127.0.0.1', inspectorPort: 0, persist: false, logLevel: 'warn',
    experimental: { disableExperimentalWarning: true },
  });
  baseUrl = `http://${sandbox.address}:${sandbox.port}`;
});

after(async () => {
  await sandbox?.stop();
});

/** The sandbox's faults (`{}` clears them): a control write, so JSON, as the sandbox takes no other. */
async function setFaults(faults) {
  const response = await fetch(`${baseUrl}/_sandbox/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults),
  });
  assert.equal(response.status, 200, await response.text());
}

async function catalog() {
  const response = await fetch(`${baseUrl}/_sandbox/catalog`);
  return response.json();
}

test('lists and walks every page of a site\'s media from Node', async () => {
  const { sites } = await catalog();
  const site = sites[0];
  const client = new upstream.V2Client({ baseUrl, secret: SECRET });
  const first = await client.listMedia(site.id, { page_length: 50 });
  assert.equal(first.total, site.media_total);
  assert.equal(first.media.length, 50);
  const ids = new Set();
  for await (const media of client.iterateMedia(site.id, { page_length: 50 })) ids.add(media.id);
  assert.equal(ids.size, site.media_total);
  assert.equal(typeof client.rateLimit.limit, 'number');
  assert.equal(typeof client.rateLimit.remaining, 'number');
});

test('surfaces a v2 error body as a typed error in Node', async () => {
  const { sites } = await catalog();
  const client = new upstream.V2Client({ baseUrl, secret: SECRET });
  await assert.rejects(client.getMedia(sites[0].id, 'Nope1234'), (error) => {
    assert.ok(error instanceof upstream.V2ApiError);
    assert.equal(error.status, 404);
    assert.equal(error.errors[0].code, 'not_found');
    return true;
  });
  const wrongSecret = new upstream.V2Client({ baseUrl, secret: 'not-the-secret' });
  await assert.rejects(wrongSecret.listPlayers(sites[0].id), (error) => error.status === 401);
});

test('times out through AbortSignal in Node', async () => {
  await setFaults({ latency_ms: 2000 });
  try {
    const { sites } = await catalog();
    const client = new upstream.V2Client({ baseUrl, secret: SECRET, timeoutMs: 200 });
    await assert.rejects(client.listPlayers(sites[0].id), (error) => {
      assert.ok(error instanceof upstream.UpstreamRequestError);
      assert.equal(error.kind, 'timeout');
      return true;
    });
  } finally {
    await setFaults({});
  }
});

test('looks up and normalises a documentation address in Node', async () => {
  const { geo } = await catalog();
  const fixture = geo.fixtures.find((entry) => entry.expected_country === 'GB');
  assert.ok(fixture, 'the sandbox has a GB fixture');
  const client = new upstream.GeoClient({ baseUrl, client: 'reelgate', apiKey: GEO_KEY });
  const location = upstream.normaliseGeo(await client.lookup(fixture.ip));
  assert.equal(location.country, 'GB');
  await assert.rejects(client.lookup('999.1.1.1'), upstream.InvalidIpAddressError);
});
