// The geo budget once defaulted to 300/min, against a Geo API whose rate the spec leaves open. A crowd of
// new visitors asks the shipped `europe` gate while the Geo API sends no `svc-request-*` headers at all: the worker's
// own bucket must keep the lookups inside the 60-a-minute window, so the Geo API never answers 429.
//
// Proxy rules must not fail open when the geo lookups run out. Once that crowd has spent the lookup
// window, a Tor relay and hosting addresses arrive, and Cloudflare places each of them in Germany (as it would a VPN
// or cloud exit there). Cloudflare flags Tor exits only, so without a lookup nobody knows their proxy class: a policy
// with proxy rules must apply its `unknown` rule instead of letting them through as "not a proxy".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { errorCode, send, shippedConfig, startStack, summarise } from './stack.mjs';

const CROWD = 150;
let stack;

before(async () => {
  // A short wait bound so the crowd does not queue for minutes; the geo bucket is as shipped.
  stack = await startStack({ config: shippedConfig({ budget: { max_wait_ms: 500 } }) });
  await stack.sandbox.faults({ omit_geo_rate_headers: true });
});
after(() => stack?.stop());

const geoCalls = (stats) => Object.entries(stats.routes).filter(([route]) => route.includes('/ip_lookup/'))
  .reduce((sum, [, n]) => sum + n, 0);

/** Ten at a time, each from its own /64 (a new network the worker has never located). */
async function crowdAsks(path) {
  const answers = [];
  for (let i = 0; i < CROWD; i += 10) {
    answers.push(...await Promise.all(Array.from({ length: Math.min(10, CROWD - i) }, (_, j) =>
      send(stack.origin, path, { headers: { 'cf-connecting-ip': `2001:db8:${(0x2000 + i + j).toString(16)}::1` } }))));
  }
  return answers;
}

describe('the geo budget holds the upstream window by itself', () => {
  test(`${CROWD} new visitors at the europe gate: no upstream geo 429, at most 60 lookups a minute`, async () => {
    const started = Date.now();
    const answers = await crowdAsks('/api/gate/europe');
    const stats = await stack.sandbox.stats();
    assert.deepEqual(Object.keys(summarise(answers)), ['200 ok'], JSON.stringify(summarise(answers)));
    assert.equal(stats.rate_limited, 0, JSON.stringify(stats));
    assert.ok(stats.peak_calls_per_minute <= 60, JSON.stringify(stats));
    const minutes = Math.max(1, Math.ceil((Date.now() - started) / 60_000));
    assert.ok(geoCalls(stats) <= 60 * minutes, `${geoCalls(stats)} lookups in ${minutes} min`);
    // The crowd was larger than the window: some decisions had to be taken without a lookup.
    assert.ok(answers.some((a) => JSON.parse(a.text).complete === false), 'the window was never spent');
  });
});

describe('proxy rules do not fail open when the geo lookups run out', () => {
  const proxies = [
    ['a Tor relay', '198.51.100.14'],
    ['a hosting address', '198.51.100.10'],
    ['a hosting IPv6 address', '2001:db8:30::30'],
  ];
  for (const [what, ip] of proxies) {
    test(`${what} (${ip}) is not let through the europe gate or to its media`, async () => {
      const before = geoCalls(await stack.sandbox.stats());
      const cf = { country: 'DE', continent: 'EU', city: 'Frankfurt' };
      const gate = await send(stack.origin, '/api/gate/europe', { headers: { 'cf-connecting-ip': ip }, cf });
      assert.equal(gate.status, 200, gate.text);
      const decision = JSON.parse(gate.text);
      assert.equal(decision.allowed, false, gate.text);
      const media = await send(stack.origin, '/api/sites/93QufRA9/media/QXShiRDJ', { headers: { 'cf-connecting-ip': ip }, cf });
      assert.equal(media.status, 451, media.text);
      assert.equal(errorCode(media.text), 'geo_blocked');
      assert.ok(!media.text.includes('delivery'), 'a refused answer names no delivery URL');
      // Either the window had room again and the lookup placed the address (outside Europe, or a denied proxy), or it
      // did not and the policy's unknown rule refused: never "allowed" on Cloudflare's word that it is no proxy.
      const looked = geoCalls(await stack.sandbox.stats()) > before;
      if (!looked) assert.deepEqual([decision.reason, decision.complete], ['location_unknown', false], gate.text);
    });
  }
});
