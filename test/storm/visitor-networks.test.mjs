// The per-visitor limit must not count IPv6 addresses one by one. One subscriber holds a whole /64, so the
// abuse limit (and the budget's turns) count an IPv6 visitor by its /64; IPv4 stays per address.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { errorCode, send, startStack, summarise } from './stack.mjs';

/** The shipped per-visitor limit (wrangler.toml `[[ratelimits]]`): 120 a minute. */
const LIMIT = 120;
const REQUESTS = 130;
let stack;
let path;

before(async () => {
  stack = await startStack();
  const catalog = await stack.sandbox.catalog();
  const site = catalog.sites.find((s) => s.id === 'vbQmzoYd');
  path = `/api/sites/${site.id}/players/${site.players[0]}`;
  // Cache the player first, so every request below is a HIT and only the visitor limit can refuse it.
  const first = await send(stack.origin, path, { headers: { 'cf-connecting-ip': '203.0.113.250' } });
  assert.equal(first.status, 200, first.text);
});
after(() => stack?.stop());

async function fromEach(addresses) {
  const answers = [];
  // Ten at a time: a crowd, but the order of arrival stays close to the order sent.
  for (let i = 0; i < addresses.length; i += 10) {
    answers.push(...await Promise.all(addresses.slice(i, i + 10).map((ip) =>
      send(stack.origin, path, { headers: { 'cf-connecting-ip': ip } }))));
  }
  return answers;
}

const hex = (n) => n.toString(16);

describe('the per-visitor limit counts IPv6 addresses by their /64', () => {
  test(`${REQUESTS} addresses of one /64 are limited as one visitor`, async () => {
    const answers = await fromEach(Array.from({ length: REQUESTS }, (_, i) => `2001:db8:77:1:${hex(i + 1)}::${hex(i * 7 + 3)}`));
    const summary = JSON.stringify(summarise(answers));
    const served = answers.filter((a) => a.status === 200).length;
    assert.ok(served <= LIMIT, `${served} of ${REQUESTS} served: ${summary}`);
    const refused = answers.filter((a) => a.status === 429);
    assert.equal(served + refused.length, REQUESTS, summary);
    for (const answer of refused) {
      assert.equal(errorCode(answer.text), 'rate_limited');
      assert.ok(Number(answer.headers['retry-after']) > 0);
    }
  });

  test(`${REQUESTS} visitors of ${REQUESTS} different /64s are each counted on their own`, async () => {
    const answers = await fromEach(Array.from({ length: REQUESTS }, (_, i) => `2001:db8:78:${hex(i + 1)}::1`));
    assert.deepEqual(summarise(answers), { '200 ok': REQUESTS });
  });

  test(`IPv4 stays per address: ${REQUESTS} addresses of one /24 are ${REQUESTS} visitors`, async () => {
    const answers = await fromEach(Array.from({ length: REQUESTS }, (_, i) => `198.51.100.${i + 1}`));
    assert.deepEqual(summarise(answers), { '200 ok': REQUESTS });
  });
});
