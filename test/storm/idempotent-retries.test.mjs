// An idempotent write must not be lost after an upstream 5xx. A write that met an upstream failure, a
// timeout or a budget refusal never completed, so its Idempotency-Key must not replay that failure: the retry goes
// through once the platform is back, and only then is the outcome kept and replayed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGatewayKey, send, shippedConfig, startStack } from './stack.mjs';

let stack;
let key;
let site;

before(async () => {
  // A short upstream timeout, so the timeout case costs a second.
  stack = await startStack({ config: shippedConfig({ budget: { upstream_timeout_ms: 1000, max_wait_ms: 1000 } }) });
  const catalog = await stack.sandbox.catalog();
  site = catalog.sites.find((s) => s.id === 'vbQmzoYd');
  key = await createGatewayKey(stack.origin, [site.id]);
});
after(() => stack?.stop());

function patchTitle(mediaId, title, idempotencyKey) {
  return send(stack.origin, `/v2/sites/${site.id}/media/${mediaId}/`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ metadata: { title } }),
  });
}

async function titleAtThePlatform(mediaId) {
  return (await stack.sandbox.v2(`/v2/sites/${site.id}/media/${mediaId}/`)).metadata.title;
}

describe('an idempotent write is not lost after an upstream failure', () => {
  test('a retry after an upstream 5xx succeeds, and the change is made', async () => {
    const media = site.media.published[0];
    await stack.sandbox.faults({ error_rate: 1 });
    const failed = await patchTitle(media, 'Written after the outage', 'storm-retry-5xx');
    assert.ok(failed.status >= 500, `${failed.status} ${failed.text}`);
    await stack.sandbox.faults({});

    const retried = await patchTitle(media, 'Written after the outage', 'storm-retry-5xx');
    assert.equal(retried.status, 200, retried.text);
    assert.notEqual(retried.headers['idempotent-replayed'], 'true');
    assert.equal(await titleAtThePlatform(media), 'Written after the outage');

    // Now the outcome is complete: the same retry is replayed, with no second write.
    const replayed = await patchTitle(media, 'Written after the outage', 'storm-retry-5xx');
    assert.equal(replayed.status, 200);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.equal(replayed.text, retried.text);
  });

  test('a retry after an upstream timeout succeeds', async () => {
    const media = site.media.published[1];
    await stack.sandbox.faults({ latency_ms: 3000 });
    const timedOut = await patchTitle(media, 'Written after the timeout', 'storm-retry-timeout');
    assert.ok(timedOut.status >= 500, `${timedOut.status} ${timedOut.text}`);
    await stack.sandbox.faults({});
    // The slow call may still land at the platform after the worker gave up on it; the retry must go through anyway.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const retried = await patchTitle(media, 'Written after the timeout', 'storm-retry-timeout');
    assert.equal(retried.status, 200, retried.text);
    assert.equal(await titleAtThePlatform(media), 'Written after the timeout');
  });

  test('a platform decision (4xx) is kept and replayed, not retried', async () => {
    const refused = await patchTitle('Nope1234', 'No such media', 'storm-decided-404');
    assert.equal(refused.status, 404, refused.text);
    const again = await patchTitle('Nope1234', 'No such media', 'storm-decided-404');
    assert.equal(again.status, 404);
    assert.equal(again.headers['idempotent-replayed'], 'true');
  });
});
