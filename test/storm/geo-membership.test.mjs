// A playlist's policy must guard its members beyond that playlist's feed. The reported scenario, against the
// worker as shipped (DEV_MODE off, visitors by CF-Connecting-IP) with one change to its configuration:
// `playlists = { DGRTLuft = "europe" }` on vbQmzoYd (the food playlist). A visitor in New York must learn nothing of
// its members: not their JSON, not their titles in other feeds or variants, not through a recommendations seed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { errorCode, send, shippedConfig, startStack } from './stack.mjs';

const SITE = 'vbQmzoYd';
const FOOD = 'DGRTLuft';
const BERLIN = { headers: { 'cf-connecting-ip': '192.0.2.30' }, cf: { country: 'DE', continent: 'EU' } };
const NEW_YORK = { headers: { 'cf-connecting-ip': '192.0.2.21' }, cf: { country: 'US', continent: 'NA' } };
let stack;
let members;

before(async () => {
  const shipped = shippedConfig();
  // A longer wait bound than shipped: these visitors come one at a time and each should be answered, not refused.
  stack = await startStack({ config: shippedConfig({ sites: { ...shipped.sites, [SITE]: { playlists: { [FOOD]: 'europe' } } },
    budget: { max_wait_ms: 15_000 } }) });
  const feed = await send(stack.origin, `/api/sites/${SITE}/playlists/${FOOD}?page_length=50`, BERLIN);
  assert.equal(feed.status, 200, feed.text);
  members = JSON.parse(feed.text).items;
  assert.ok(members.length > 0);
});
after(() => stack?.stop());

describe('a playlist\'s policy binds its members everywhere', () => {
  test('a member\'s media answer: 451 from New York; from Berlin private, with playback URLs only', async () => {
    const path = `/api/sites/${SITE}/media/${members[0].id}`;
    const refused = await send(stack.origin, path, NEW_YORK);
    assert.equal(refused.status, 451, refused.text);
    assert.equal(errorCode(refused.text), 'geo_blocked');
    const allowed = await send(stack.origin, path, BERLIN);
    assert.equal(allowed.status, 200, allowed.text);
    assert.equal(allowed.headers['cache-control'], 'private, no-store');
    assert.ok(!allowed.text.includes('sandbox.test'), 'no platform delivery URL for bound content');
  });

  test('other feeds and variants name no member to New York, and a member as seed is refused', async () => {
    const catalog = await stack.sandbox.catalog();
    const site = catalog.sites.find((s) => s.id === SITE);
    const others = Object.values(site.playlists).flat().filter((id) => id !== FOOD);
    const [articles] = site.playlists.article_matching;
    const [recommendations] = site.playlists.recommendations;
    const paths = [...others.map((id) => `/api/sites/${SITE}/playlists/${id}?page_length=50`),
      `/api/sites/${SITE}/playlists/${articles}?tags=food&page_length=50`];
    let seenInBerlin = 0;
    for (const path of paths) {
      const berlin = await send(stack.origin, path, BERLIN);
      if (berlin.status === 200) seenInBerlin += JSON.parse(berlin.text).items.filter((i) => members.some((m) => m.id === i.id)).length;
      const answer = await send(stack.origin, path, NEW_YORK);
      // 200 without the members, or an honest 429 when the shipped budget is busy: never a member.
      assert.ok([200, 429].includes(answer.status), `${path}: ${answer.status} ${answer.text}`);
      for (const member of members) {
        assert.ok(!answer.text.includes(member.id), `${path} names ${member.id}`);
        assert.ok(!answer.text.includes(JSON.stringify(member.title)), `${path} names "${member.title}"`);
      }
    }
    assert.ok(seenInBerlin > 0, 'members show up in other feeds for an allowed visitor, so the check above can fail');
    const seeded = await send(stack.origin, `/api/sites/${SITE}/playlists/${recommendations}?seed=${members[0].id}`, NEW_YORK);
    assert.equal(seeded.status, 451, seeded.text);
  });

  test('a member\'s playback URL from Berlin is refused in New York', async () => {
    const media = await send(stack.origin, `/api/sites/${SITE}/media/${members[0].id}`, BERLIN);
    assert.equal(media.status, 200, media.text);
    // A file, asked for by range (the HLS manifest, listed first, is a playlist).
    const source = JSON.parse(media.text).sources.find((s) => s.type === 'video/mp4').url;
    assert.match(source, /^\/api\/play\//);
    const replay = await send(stack.origin, source, { ...NEW_YORK, headers: { ...NEW_YORK.headers, range: 'bytes=0-15' } });
    assert.equal(replay.status, 451, replay.text);
    assert.equal(errorCode(replay.text), 'playback_denied');
    const own = await send(stack.origin, source, { ...BERLIN, headers: { ...BERLIN.headers, range: 'bytes=0-15' } });
    assert.equal(own.status, 206, own.text.slice(0, 200));
  });
});
