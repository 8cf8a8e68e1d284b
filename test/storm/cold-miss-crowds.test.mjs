// No raw 500s under concurrent misses. Fifty visitors ask at once for one key nobody has cached while
// the upstream is down, while the platform answers 429 and while the budget is spent. Each of them must get an
// answer of its own: the value, or a v2 error with the right status — never the runtime's plain-text 500 for a
// request that waited on another request's work.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { errorCode, isV2Error, send, shippedConfig, startStack, summarise, visitors } from './stack.mjs';

const CROWD = 50;
let stack;
let site;
/** Published media of the unrestricted demo site, none of them cached yet. */
let cold;

// Each scenario gets a stack of its own: the budget remembers an outage or a 429 for as long as the platform asked,
// and nothing of one storm may leak into the next.
beforeEach(async () => {
  // A short wait bound: a refused miss is answered in a second instead of the shipped five.
  stack = await startStack({ config: shippedConfig({ budget: { max_wait_ms: 1000 } }) });
  const catalog = await stack.sandbox.catalog();
  site = catalog.sites.find((s) => s.id === 'vbQmzoYd');
  cold = [...site.media.published];
});
afterEach(() => stack?.stop());

/** Distinct visitors (the per-visitor limit stays out of it) asking for one path at the same moment. */
function crowd(path, base) {
  return Promise.all(visitors(CROWD, base).map((ip) => send(stack.origin, path, { headers: { 'cf-connecting-ip': ip } })));
}

function mediaPath() {
  const id = cold.shift();
  assert.ok(id, 'the seed has too few published media for the scenarios');
  return `/api/sites/${site.id}/media/${id}`;
}

/** Every answer is the value or a v2 error with one of the `allowed` statuses; never a 500. */
function assertOwnAnswers(answers, allowed) {
  const summary = JSON.stringify(summarise(answers));
  for (const answer of answers) {
    assert.notEqual(answer.status, 500, summary);
    assert.ok(allowed.includes(answer.status), `status ${answer.status} not in ${allowed}: ${summary}`);
    if (answer.status !== 200) assert.ok(isV2Error(answer.text), `${answer.status} ${answer.text.slice(0, 200)}`);
    if (answer.status === 429) assert.ok(Number(answer.headers['retry-after']) > 0, `429 without Retry-After: ${summary}`);
  }
}

describe('no raw 500s under concurrent misses', () => {
  test('a crowd of cold misses during an outage: each gets a v2 error, upstream_unavailable', async () => {
    await stack.sandbox.faults({ outage: true, retry_after_seconds: 2 });
    const answers = await crowd(mediaPath(), 0);
    assertOwnAnswers(answers, [429, 502, 503, 504]);
    assert.ok(answers.some((a) => errorCode(a.text) === 'upstream_unavailable'), JSON.stringify(summarise(answers)));
  });

  test('a crowd of cold misses during a 429 storm: each gets 429 with Retry-After or a v2 error', async () => {
    await stack.sandbox.faults({ force_429: true, retry_after_seconds: 2 });
    const answers = await crowd(mediaPath(), 1000);
    assertOwnAnswers(answers, [429, 502, 503, 504]);
  });

  test('a crowd of cold misses while the budget is spent: each gets the value or 429 rate_limited', async () => {
    // The shipped burst is a handful of calls and a media load takes up to three: a few other cold keys empty it.
    const spenders = await Promise.all([mediaPath(), mediaPath(), mediaPath()].map((path, i) =>
      send(stack.origin, path, { headers: { 'cf-connecting-ip': `198.18.100.${i}` } })));
    assertOwnAnswers(spenders, [200, 429]);
    const answers = await crowd(mediaPath(), 2000);
    assertOwnAnswers(answers, [200, 429]);
    for (const answer of answers.filter((a) => a.status === 429)) assert.equal(errorCode(answer.text), 'rate_limited');
  });

  test('a crowd behind a visitor who hangs up while the budget is spent: the others each get their own answer', async () => {
    const spenders = await Promise.all([mediaPath(), mediaPath(), mediaPath()].map((path, i) =>
      send(stack.origin, path, { headers: { 'cf-connecting-ip': `198.18.101.${i}` } })));
    assertOwnAnswers(spenders, [200, 429]);
    const path = mediaPath();
    // The first visitor's miss waits for a budget slot; they leave before it comes. The crowd arrives meanwhile.
    const leaver = send(stack.origin, path, { headers: { 'cf-connecting-ip': '198.18.102.1' }, hangUpAfterMs: 150 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const answers = await crowd(path, 3000);
    await leaver;
    assertOwnAnswers(answers, [200, 429]);
  });
});
