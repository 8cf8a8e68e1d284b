// Anonymous visitors must not starve the gateway. As reported: 1,200 feed requests with ever new `seed` and
// `tags` values at concurrency 20, while a team's server PATCHes media through the gateway. With the shipped budget
// (visitors and gateway keys each hold a reserve of it) every PATCH must go through; the visitors get a feed or an
// honest 429, never a 5xx; a variant on a playlist type that does not take it is refused; and new variants stay
// bounded per playlist.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGatewayKey, errorCode, isV2Error, send, startStack, summarise } from './stack.mjs';

const FLOOD = 1200;
const CONCURRENCY = 20;
let stack;
let site;
/** The CMS edits the other site, so its writes' cache purges leave the flooded site's feeds alone. */
let cmsSite;
let key;

before(async () => {
  stack = await startStack();
  const catalog = await stack.sandbox.catalog();
  site = catalog.sites.find((s) => s.id === 'vbQmzoYd');
  cmsSite = catalog.sites.find((s) => s.id === '93QufRA9');
  key = await createGatewayKey(stack.origin, [cmsSite.id]);
});
after(() => stack?.stop());

const pad = (n) => String(n).padStart(6, '0');

describe('anonymous visitors do not starve the gateway', () => {
  test('a variant is refused where the playlist type does not use it', async () => {
    const manual = site.playlists.manual[0];
    const answer = await send(stack.origin, `/api/sites/${site.id}/playlists/${manual}?seed=${site.media.published[0]}`,
      { headers: { 'cf-connecting-ip': '203.0.113.77' } });
    assert.equal(answer.status, 400, answer.text);
    assert.equal(errorCode(answer.text), 'invalid_request');
    assert.match(JSON.parse(answer.text).errors[0].description, /recommendations/);
  });

  test(`gateway PATCHes keep succeeding while ${FLOOD} anonymous requests flood new feed variants`, async () => {
    const [recommendations] = site.playlists.recommendations;
    const [articles] = site.playlists.article_matching;
    const target = cmsSite.media.published[0];
    // The playlists' own feeds are cached, as a publisher's pages would have them.
    for (const playlist of [recommendations, articles]) {
      let base;
      for (let tries = 0; tries < 10; tries++) {
        base = await send(stack.origin, `/api/sites/${site.id}/playlists/${playlist}`,
          { headers: { 'cf-connecting-ip': '203.0.113.78' } });
        if (base.status !== 429) break;
        await new Promise((resolve) => setTimeout(resolve, Number(base.headers['retry-after']) * 1000));
      }
      assert.equal(base.status, 200, base.text);
    }
    let next = 0;
    const visitors = [];
    // The flood: CONCURRENCY visitors, each asking for variants nobody asked for before, FLOOD requests in all.
    const flood = Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < FLOOD) {
        const n = next++;
        const query = n % 2 ? `${recommendations}?seed=fl${pad(n)}` : `${articles}?tags=flood-${n}`;
        visitors.push(await send(stack.origin, `/api/sites/${site.id}/playlists/${query}`, {
          headers: { 'cf-connecting-ip': `198.18.${(n >> 8) & 255}.${n & 255}` },
        }));
      }
    }));
    let flooding = true;
    void flood.then(() => { flooding = false; });
    // Meanwhile a CMS edits a media every five seconds: slower than the gateway's reserve refills (15 a minute with
    // the shipped budget), which is what the floor promises whatever the visitors do.
    const writes = [];
    for (let i = 0; flooding || writes.length < 2; i++) {
      writes.push(await send(stack.origin, `/v2/sites/${cmsSite.id}/media/${target}/`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ metadata: { title: `Edited during the flood, ${i}` } }),
      }));
      if (flooding) await new Promise((resolve) => setTimeout(resolve, 5000));
    }
    await flood;
    assert.equal(visitors.length, FLOOD);

    for (const write of writes) assert.equal(write.status, 200, `a gateway write failed: ${write.text}`);
    const summary = JSON.stringify({ ...summarise(visitors), sample: visitors.find((a) => a.status !== 200)?.text });
    for (const answer of visitors) {
      assert.ok(answer.status === 200 || answer.status === 429, `a visitor got ${answer.status}: ${summary}`);
      if (answer.status === 429) {
        assert.ok(isV2Error(answer.text), answer.text);
        assert.ok(Number(answer.headers['retry-after']) > 0, `429 without Retry-After: ${summary}`);
      }
    }
    // New variants are bounded: at most the shipped `feed.max_variants` (10) per playlist in the window were loaded
    // as themselves; the rest were answered by the playlist's own feed standing in, or refused.
    const ownVariants = visitors.filter((a) => a.status === 200 && a.headers['x-reelgate-variant'] !== 'default').length;
    assert.ok(ownVariants <= 20, `${ownVariants} variants loaded: ${summary}`);
    const stats = await stack.sandbox.stats();
    assert.equal(stats.rate_limited, 0, `the platform answered 429: ${JSON.stringify(stats)}`);
  });
});
