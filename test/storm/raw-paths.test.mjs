// Paths are checked before they are normalised: the path is checked once, raw, at the front door,
// before anything routes it: encoded dot segments, backslashes, escapes and `//` are refused with 400 on every front
// door (public API, assets, gateway, admin), whatever the method and whether or not a key came with it. The requests
// go over a real socket exactly as written here (nothing on the way re-parses them).
//
// Literal `.` and `..` segments of a request line never reach worker code at all: workerd resolves them while it
// parses the request (as Cloudflare's URL normalisation does in front of it), so `/api/gate/../geo` arrives as
// `/api/geo`. What the worker receives is what it checks.
//
// The same paths again through `npm start` (npm-start.mjs), where `wrangler dev` stands between the socket and the
// worker and parses the URL again by WHATWG rules: it resolves percent-encoded dot segments (`%2e%2e`, `.%2e`, `%2E`)
// and turns `\` into `/` before the worker reads the path, so the worker's own check could not refuse them. The
// worker's front (demo/dev-front.mjs, `checkPaths`) refuses those itself, before wrangler dev; the sandbox's front
// does not, so its port shows exactly what wrangler dev hands a worker.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rewrittenPath } from '../../demo/dev-front.mjs';
import { startNpmStart } from './npm-start.mjs';
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

describe('paths are checked raw, before any routing', () => {
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

describe('the same paths through npm start, where wrangler dev resolves what the worker would refuse', () => {
  let npm;
  before(async () => {
    npm = await startNpmStart({ label: 'raw-paths' });
  });
  after(() => npm?.stop());

  /** What must hold for every answer: no 500, and no byte of a file the path does not name (.dev.vars' secrets). */
  function assertSafe(answer, what) {
    assert.notEqual(answer.status, 500, `${what}: ${answer.text.slice(0, 200)}`);
    for (const secret of Object.values(npm.vars).filter((value) => value.length >= 16)) {
      assert.ok(!answer.text.includes(secret), `${what}: the answer holds a value of .dev.vars`);
    }
  }

  for (const path of REFUSED) {
    test(`GET ${path} on the worker's port is refused with 400 invalid_request, as on workerd alone`, async () => {
      const answer = await send(npm.workerUrl, path, { headers: visitor });
      assertSafe(answer, path);
      assert.equal(answer.status, 400, answer.text);
      assert.ok(isV2Error(answer.text), answer.text);
      assert.equal(errorCode(answer.text), 'invalid_request');
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    });
  }

  test('the front refuses exactly the paths wrangler dev would rewrite; the worker refuses the rest raw', async () => {
    // Refused by the front (the worker would read them resolved): encoded dot segments in any case, backslashes.
    assert.deepEqual(REFUSED.filter((path) => rewrittenPath(path) !== null), REFUSED.filter((path) =>
      !['/api/sites/vbQmzoYd%2fmedia/x', '/api/sites//vbQmzoYd/players/RkWDvjNV', '/api/geo%00'].includes(path)));
    // A dot inside a segment, `...`, an encoded slash after dots and a query are no dot segment to the URL parser.
    for (const path of ['/x/a%2eb', '/x/...', '/x/%2e%2e%2fy', '/x/..%2f..%2fy', '/api/geo?q=%2e%2e\\']) {
      assert.equal(rewrittenPath(path), null, path);
    }
    for (const path of REFUSED) {
      const answer = await send(npm.workerUrl, path, { headers: visitor });
      const description = JSON.parse(answer.text).errors[0].description;
      if (rewrittenPath(path) !== null) assert.equal(description, rewrittenPath(path), path);
      else assert.match(description, /^The path is not valid: (percent-encoded characters|no dot segments)/, path);
    }
    // In absolute form too (the front turns it into the origin form first, then checks it).
    const absolute = await send(npm.workerUrl, `${npm.workerUrl}/api/gate/%2e%2e/geo`, { headers: visitor });
    assert.equal(absolute.status, 400, absolute.text);
    assert.equal(errorCode(absolute.text), 'invalid_request');
  });

  test('the check comes before methods, credentials and routes here too: a write with a valid-looking key gets 400', async () => {
    for (const [method, path] of [['POST', '/api\\geo'], ['DELETE', '/v1/videos/%2e%2e/delete'],
      ['PATCH', '/v2/sites/vbQmzoYd/media/%2e%2e/'], ['POST', '/admin/%2e%2e/keys'], ['PUT', '/admin/keys/%2E%2E']]) {
      const answer = await send(npm.workerUrl, path, {
        method, headers: { ...visitor, authorization: 'Bearer rg_not-a-key', 'content-type': 'application/json' },
        body: method === 'DELETE' ? undefined : '{}',
      });
      assert.equal(answer.status, 400, `${method} ${path}: ${answer.text}`);
      assert.equal(errorCode(answer.text), 'invalid_request');
    }
  });

  test('literal dot segments are resolved before the worker, as on workerd alone: the answer of the path they name', async () => {
    for (const [path, named] of [['/api/gate/../geo', '/api/geo'], ['/api/./geo', '/api/geo'],
      ['/embed/../api/geo', '/api/geo'], ['/../../api/geo', '/api/geo']]) {
      const [answer, plain] = [await send(npm.workerUrl, path, { headers: visitor }), await send(npm.workerUrl, named, { headers: visitor })];
      assertSafe(answer, path);
      assert.equal(answer.status, plain.status, `${path}: ${answer.text.slice(0, 200)}`);
      assert.equal(answer.text, plain.text, path);
    }
  });

  test('plain paths still reach their routes', async () => {
    assert.equal((await send(npm.workerUrl, '/api/geo', { headers: visitor })).status, 200);
    assert.equal((await send(npm.workerUrl, '/v2/sites/vbQmzoYd/media/', { headers: visitor })).status, 401);
    assert.equal((await send(npm.workerUrl, '/api/sites/vbQmzoYd/players/nope1234', { headers: visitor })).status, 404);
  });

  // What wrangler dev hands a worker, seen on the sandbox's port (its front checks no path, and its 404 names the
  // path the sandbox received): encoded dot segments and backslashes resolved as the WHATWG URL parser resolves them,
  // so the answer is the resolved path's, never a file outside it; `%2f`, `%5c`, `%00` and `//` are passed unchanged.
  test('wrangler dev resolves %2e dot segments and backslashes (seen on the sandbox\'s port): the answer is the resolved path\'s', async () => {
    for (const path of REFUSED.filter((p) => rewrittenPath(p) !== null)) {
      const resolved = new URL(path, npm.sandboxUrl).pathname;
      assert.notEqual(resolved, path, `${path}: the URL parser leaves it as it is`);
      const [answer, plain] = [await send(npm.sandboxUrl, path), await send(npm.sandboxUrl, resolved)];
      assertSafe(answer, path);
      assert.equal(answer.status, plain.status, `${path} -> ${resolved}: ${answer.text.slice(0, 200)}`);
      assert.equal(answer.text, plain.text, `${path} -> ${resolved}`);
    }
    const dotVars = await send(npm.sandboxUrl, '/%2e%2e/.dev.vars');
    assert.equal(dotVars.status, 404);
    assert.match(JSON.parse(dotVars.text).errors[0].description, /^Nothing is served at \/\.dev\.vars\.$/);
  });

  test('wrangler dev passes encoded slashes and backslashes, NUL and empty segments unchanged (seen on the sandbox\'s port)', async () => {
    for (const path of [...REFUSED.filter((p) => rewrittenPath(p) === null), '/a/%5c/b', '/x/..%2f..%2fy']) {
      const answer = await send(npm.sandboxUrl, path);
      assertSafe(answer, path);
      assert.equal(answer.status, 404, answer.text);
      assert.equal(JSON.parse(answer.text).errors[0].description, `Nothing is served at ${path}.`);
    }
  });
});
