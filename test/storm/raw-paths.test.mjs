// Issue 9, item 5: "Paths are checked after they are normalised." The path is checked once, raw, at the front door,
// before anything routes it: encoded dot segments, backslashes, escapes and `//` are refused with 400 on every front
// door (public API, assets, gateway, admin), whatever the method and whether or not a key came with it. The requests
// go over a real socket exactly as written here (nothing on the way re-parses them).
//
// Literal `.` and `..` segments of a request line never reach worker code at all: workerd resolves them while it
// parses the request (as Cloudflare's URL normalisation does in front of it), so `/api/gate/../geo` arrives as
// `/api/geo`. What the worker receives is what it checks.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { errorCode, isV2Error, send, startStack } from './stack.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(() => stack?.stop());

const visitor = { 'cf-connecting-ip': '203.0.113.9' };

const REFUSED = [
  '/%2e%2e/.dev.vars',
  '/%2E%2E/%2E%2E/etc/passwd',
  '/api/gate/%2e%2e/geo',
  '/api/gate/.%2e/geo',
  '/api/%2e/geo',
  '/api\\geo',
  '/api/gate\\..\\geo',
  '/embed\\reelgate.js',
  '/api/sites/vbQmzoYd%2fmedia/x',
  '/api/sites//vbQmzoYd/players/RkWDvjNV',
  '/api/geo%00',
  '/v2/sites/vbQmzoYd/media/%2e%2e/',
  '/v2\\sites\\vbQmzoYd\\media\\',
  '/v1/videos/%2e%2e/list',
  '/v1\\videos\\list',
  '/admin/%2e%2e/keys',
  '/admin\\keys',
];

describe('paths are checked raw, before any routing (issue 9, item 5)', () => {
  for (const path of REFUSED) {
    test(`GET ${path} is refused with 400 invalid_request`, async () => {
      const answer = await send(stack.origin, path, { headers: visitor });
      assert.equal(answer.status, 400, answer.text);
      assert.ok(isV2Error(answer.text), answer.text);
      assert.equal(errorCode(answer.text), 'invalid_request');
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    });
  }

  test('the check comes before methods, credentials and routes: a write with a valid-looking key still gets 400', async () => {
    for (const [method, path] of [['POST', '/api\\geo'], ['DELETE', '/v1/videos/%2e%2e/delete'],
      ['PATCH', '/v2/sites/vbQmzoYd/media/%2e%2e/'], ['POST', '/admin/%2e%2e/keys']]) {
      const answer = await send(stack.origin, path, {
        method, headers: { ...visitor, authorization: 'Bearer rg_not-a-key', 'content-type': 'application/json' },
        body: method === 'DELETE' ? undefined : '{}',
      });
      assert.equal(answer.status, 400, `${method} ${path}: ${answer.text}`);
      assert.equal(errorCode(answer.text), 'invalid_request');
    }
  });

  test('plain paths still reach their routes', async () => {
    assert.equal((await send(stack.origin, '/api/geo', { headers: visitor })).status, 200);
    assert.equal((await send(stack.origin, '/v2/sites/vbQmzoYd/media/', { headers: visitor })).status, 401);
    assert.equal((await send(stack.origin, '/api/sites/vbQmzoYd/players/nope1234', { headers: visitor })).status, 404);
  });
});
