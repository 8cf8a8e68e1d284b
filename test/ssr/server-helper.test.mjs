// `reelgate/server`, from the packed package (test/ssr/run.mjs), with a stand-in `fetch`: what it
// sends (the visitor's address and the render token, nothing else of note), what it answers for each element, what it
// never asks (content inside a gate that did not allow), what it makes of the worker's URLs and links, and its JSON-LD.
// The same helper against the real worker is in frameworks.test.mjs.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as fixtures from './fixtures.mjs';

const app = process.env.REELGATE_SSR_APP;
if (!app) throw new Error('REELGATE_SSR_APP is not set: run this suite with `npm run test:ssr`.');
const { reelgateServer, visitorLanguage } = await import(pathToFileURL(join(app, 'render.mjs')).href);

const ENDPOINT = 'https://video.example.com';

/** A helper whose `fetch` answers `answer(url)` ({status, body}) and records every request. */
function helper(answer, options = {}) {
  const asked = [];
  const reelgate = reelgateServer({
    endpoint: `${ENDPOINT}/`, token: 'render-token', visitor: '203.0.113.7', ...options,
    fetch: async (url, init) => {
      asked.push({ url, headers: init.headers, signal: init.signal });
      const { status = 200, body } = await answer(url);
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
    },
  });
  return { reelgate, asked };
}

describe('reelgate/server', () => {
  it('asks as the visitor: their address and the render token on every request', async () => {
    const { reelgate, asked } = helper(() => ({ body: fixtures.gate('europe', true) }));
    await reelgate.gate('europe');
    assert.equal(asked[0].url, `${ENDPOINT}/api/gate/europe`);
    assert.deepEqual(asked[0].headers, {
      accept: 'application/json', authorization: 'Bearer render-token', 'x-reelgate-visitor-ip': '203.0.113.7',
    });
    const unknown = helper(() => ({ body: fixtures.gate('europe', false) }), { visitor: null });
    await unknown.reelgate.gate('europe');
    assert.equal(unknown.asked[0].headers['x-reelgate-visitor-ip'], '', 'an unknown visitor is named as such, never left out');
    assert.throws(() => reelgateServer({ endpoint: ENDPOINT, token: '', visitor: null }), /RENDER_TOKEN/);
  });

  it('answers each element\'s data, its JSON for the attribute, and its videos', async () => {
    const origin = 'https://cdn.example.test';
    const { reelgate, asked } = helper((url) => ({
      body: url.includes('/playlists/') ? fixtures.feed(origin, 3) : url.includes('/media/') ? fixtures.media(origin)
        : fixtures.player(),
    }));
    const shelf = await reelgate.feed(fixtures.SITE, fixtures.PLAYLIST, { pageSize: 99 });
    assert.equal(asked[0].url, `${ENDPOINT}/api/sites/${fixtures.SITE}/playlists/${fixtures.PLAYLIST}?page=1&page_length=50`,
      'the page size as the element clamps it');
    assert.deepEqual(JSON.parse(shelf.json), shelf.data);
    assert.equal(shelf.error, null);
    assert.deepEqual(shelf.videos.map((v) => v.name), shelf.data.items.map((i) => i.title));
    const media = await reelgate.media(fixtures.SITE, fixtures.MEDIA);
    assert.equal(media.data.id, fixtures.MEDIA);
    const player = await reelgate.player(fixtures.SITE, fixtures.PLAYER);
    assert.deepEqual(player.videos, [], 'a configuration names no video');
    // The first item twice (the shelf and the player): once in the page's JSON-LD.
    assert.equal(reelgate.videos.length, 3);
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*)<\/script>/.exec(reelgate.jsonLd())[1]);
    assert.equal(ld['@graph'][0]['@type'], 'VideoObject');
    assert.equal(ld['@graph'][0].embedUrl, `${ENDPOINT}/embed/${fixtures.SITE}/media/AAAAAAA1`);
    assert.equal(ld['@graph'][0].duration, 'PT1M5S');
  });

  it('asks nothing for content inside a gate that refused, or that could not be asked', async () => {
    const { reelgate, asked } = helper((url) => ({ body: url.includes('/gate/') ? fixtures.gate('europe', false) : fixtures.feed('') }));
    const europe = await reelgate.gate('europe');
    const inside = await reelgate.feed(fixtures.SITE, fixtures.PLAYLIST, { within: europe });
    assert.deepEqual(inside, { data: null, json: undefined, videos: [], error: { status: 451, code: 'gate_not_allowed' } });
    // A gate that was never asked (null), or a slip (`within: answers.gate` of nothing), allows nothing either.
    await reelgate.media(fixtures.SITE, fixtures.MEDIA, { within: null });
    await reelgate.media(fixtures.SITE, fixtures.MEDIA, { within: undefined });
    assert.equal(asked.length, 1, 'only the gate was asked');
    assert.equal(reelgate.jsonLd(), '', 'no JSON-LD for what was never asked');
  });

  it('says why there is no data: the worker\'s refusal, a failure, a timeout', async () => {
    const refused = helper(() => ({ status: 451, body: { errors: [{ code: 'geo_blocked', description: 'No.' }] } }));
    assert.deepEqual((await refused.reelgate.feed('s', 'p')).error, { status: 451, code: 'geo_blocked' });
    const broken = helper(() => ({ status: 502, body: '<html>' }));
    assert.deepEqual((await broken.reelgate.media('s', 'm')).error, { status: 502, code: 'invalid_response' });
    const slow = helper(() => new Promise(() => {}), { timeoutMs: 50 });
    const started = Date.now();
    const late = await Promise.race([slow.reelgate.gate('europe'), new Promise((resolve) => setTimeout(resolve, 2000, 'hung'))]);
    // The stand-in fetch ignores the signal, as a hung socket would not: the helper's own deadline must still hold.
    assert.notEqual(late, 'hung', 'a hung worker does not hang the page');
    assert.ok(Date.now() - started < 2000);
  });

  it('makes the worker\'s own URLs absolute and keeps only http(s) links', async () => {
    const feed = fixtures.feed('https://cdn.example.test', 1);
    feed.items[0].thumbnail = '/api/play/token123/poster.jpg';
    feed.items[0].thumbnails = [{ url: '/api/play/token123/poster-320.jpg', width: 320 }];
    feed.items[0].permalink = 'javascript:alert(1)';
    feed.playlist.link = 'data:text/html,hi';
    const { reelgate } = helper(() => ({ body: feed }));
    const { data } = await reelgate.feed('s', 'p');
    assert.equal(data.items[0].thumbnail, `${ENDPOINT}/api/play/token123/poster.jpg`);
    assert.equal(data.items[0].thumbnails[0].url, `${ENDPOINT}/api/play/token123/poster-320.jpg`);
    assert.equal(data.items[0].permalink, null);
    assert.equal(data.playlist.link, null);
  });

  it('escapes the JSON-LD so that no title can end its script element', async () => {
    const feed = fixtures.feed('https://cdn.example.test', 1);
    feed.items[0].title = '</script><script>alert(1)</script>';
    const { reelgate } = helper(() => ({ body: feed }));
    await reelgate.feed('s', 'p');
    const script = reelgate.jsonLd();
    assert.equal(script.match(/<\/script>/g).length, 1);
    assert.ok(script.includes('\\u003c/script>'));
  });

  it('picks the elements\' language for a visitor\'s Accept-Language, as their browser would', () => {
    assert.equal(visitorLanguage('de-AT,de;q=0.9,en;q=0.8'), 'de');
    assert.equal(visitorLanguage('fi, pt-PT;q=0.8'), 'pt-BR');
    assert.equal(visitorLanguage('zh-TW, ja;q=0.5'), 'ja');
    assert.equal(visitorLanguage('fi, *;q=0.5'), 'en');
    assert.equal(visitorLanguage('ar;q=0, fr'), 'fr');
    assert.equal(visitorLanguage(null), 'en');
    assert.equal(visitorLanguage('<script>'), 'en');
  });
});
