// An absolute-form request to either port gets the same answer as its origin-form, and nothing
// a client can send may earn a raw 500. Against `npm start` itself (npm-start.mjs): the worker's port and the
// sandbox's, each request sent over a real socket exactly as written here (`GET http://127.0.0.1:<port>/api/geo
// HTTP/1.1`, the request line the platform's official Python client writes for an upload link), then the same
// request in origin form: same status, same body. Before the fronts of demo/dev-front.mjs, workerd answered every
// absolute-form request with a plain-text "500 Internal Server Error" before either worker ran.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startNpmStart } from './npm-start.mjs';
import { isV2Error, send } from './stack.mjs';

let stack;
before(async () => {
  stack = await startNpmStart({ label: 'absolute-form' });
});
after(() => stack?.stop());

const SITE = 'vbQmzoYd';

/** The same request in origin form and in absolute form (`http://127.0.0.1:<port><path>`), one after the other. */
async function bothForms(origin, path, options = {}) {
  const originForm = await send(origin, path, options);
  const absoluteForm = await send(origin, `${origin}${path}`, options);
  return { originForm, absoluteForm };
}

function assertSame({ originForm, absoluteForm }, what) {
  assert.notEqual(absoluteForm.status, 500, `${what}: absolute form answered 500: ${absoluteForm.text.slice(0, 200)}`);
  assert.equal(absoluteForm.status, originForm.status, `${what}: ${absoluteForm.text.slice(0, 300)}`);
  assert.equal(absoluteForm.text, originForm.text, what);
  assert.equal(absoluteForm.headers['content-type'], originForm.headers['content-type'], what);
}

/** Bytes written to the port as they are, the answer read until the server closes: `{ status, head, body }`. */
function raw(port, text) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const chunks = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(text.slice(0, 60))}`)));
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('latin1');
      const split = answer.indexOf('\r\n\r\n');
      const head = answer.slice(0, split < 0 ? answer.length : split);
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body: split < 0 ? '' : answer.slice(split + 4) });
    });
  });
}

const md5 = (bytes) => createHash('md5').update(bytes).digest('hex');

describe('absolute-form request targets on npm start', () => {
  test('the worker\'s port: public API, errors, the gateway, the raw-path check, assets and the page', async () => {
    const origin = stack.workerUrl;
    for (const [path, options] of [
      ['/api/geo', {}],
      ['/api/geo?fields=country', {}],
      [`/api/sites/${SITE}/players/nope1234`, {}],
      [`/v2/sites/${SITE}/media/`, {}],
      [`/v2/sites/${SITE}/media/`, { headers: { authorization: 'Bearer rg_not-a-key' } }],
      ['/api/geo%00', {}],
      ['/api/geo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
      ['/embed/reelgate.css', {}],
      ['/', {}],
    ]) {
      const answers = await bothForms(origin, path, options);
      assertSame(answers, `${options.method ?? 'GET'} ${path}`);
    }
    // The target with no path at all (`http://host:port` and `http://host:port?x`) is the server's root.
    for (const [bare, path] of [['', '/'], ['?from=absolute', '/?from=absolute']]) {
      assertSame({ originForm: await send(origin, path), absoluteForm: await send(origin, `${origin}${bare}`) },
        `GET ${origin}${bare}`);
    }
  });

  test('the sandbox\'s port: index, API, errors, geo', async () => {
    const origin = stack.sandboxUrl;
    const secret = { authorization: `Bearer ${stack.vars.API_SECRET}` };
    for (const [path, options] of [
      ['/', {}],
      [`/v2/sites/${SITE}/media/?page_length=2`, { headers: secret }],
      [`/v2/sites/${SITE}/media/`, {}],
      ['/v2/sites/nope1234/media/', { headers: secret }],
      ['/nothing-here', {}],
      [`/ip_lookup/reelgate/81.2.69.160`, { headers: { 'x-auth-key': stack.vars.GEO_API_KEY } }],
    ]) {
      assertSame(await bothForms(origin, path, options), `GET ${path}`);
    }
  });

  test('the sandbox\'s upload PUT: the bytes land and the ETag is their MD5, whichever form the link is sent in', async () => {
    const origin = stack.sandboxUrl;
    const bytes = Buffer.alloc(4096, 7);
    bytes.set([0, 0, 0, 0x20, ...Buffer.from('ftypisom')], 0);
    const links = [];
    for (const title of ['origin form', 'absolute form']) {
      const created = await send(origin, `/v2/sites/${SITE}/media/`, {
        method: 'POST', headers: { authorization: `Bearer ${stack.vars.API_SECRET}`, 'content-type': 'application/json' },
        body: JSON.stringify({ upload: { method: 'direct' }, metadata: { title: `absolute-form test, ${title}` } }),
      });
      assert.equal(created.status, 201, created.text);
      const link = new URL(JSON.parse(created.text).upload_link);
      assert.equal(link.origin, origin);
      links.push(link);
    }
    const [first, second] = links;
    const put = (target) => send(origin, target, { method: 'PUT', headers: { 'content-length': String(bytes.length) }, body: bytes });
    const viaOrigin = await put(first.pathname + first.search);
    const viaAbsolute = await put(second.href);
    assert.equal(viaAbsolute.status, 200, viaAbsolute.text);
    assert.equal(viaAbsolute.status, viaOrigin.status);
    assert.equal(viaAbsolute.text, viaOrigin.text);
    assert.equal(viaAbsolute.headers.etag, `"${md5(bytes)}"`);
    assert.equal(viaOrigin.headers.etag, `"${md5(bytes)}"`);
    // A wrong key is refused alike.
    const wrong = (link) => `${link.pathname}?key=${'0'.repeat(32)}`;
    assertSame({ originForm: await put(wrong(first)), absoluteForm: await put(`${origin}${wrong(second)}`) }, 'PUT with a wrong key');
  });

  test('nothing a client can send earns the runtime\'s plain-text 500, on either port', async () => {
    for (const port of [stack.workerPort, stack.sandboxPort]) {
      const cases = [
        ['OPTIONS *', `OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`],
        ['no Host', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n'],
        ['a Host that is no host', 'GET / HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n'],
        ['a port past 65535', 'GET / HTTP/1.1\r\nHost: localhost:99999\r\nConnection: close\r\n\r\n'],
        ['two Hosts', `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: example.test\r\nConnection: close\r\n\r\n`],
        ['userinfo in the target', `GET http://user@127.0.0.1:${port}/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`],
        ['a target that is neither a path nor a URL', `GET 127.0.0.1:${port}/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`],
        ['CONNECT', `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`],
        ['not HTTP', 'HELLO\r\n\r\n'],
      ];
      for (const [what, text] of cases) {
        const answer = await raw(port, text);
        assert.ok(answer.status >= 200 && answer.status < 500, `${what} on ${port}: ${answer.head}\n${answer.body}`);
        if (answer.status >= 400) assert.ok(isV2Error(answer.body), `${what} on ${port}: ${answer.body}`);
      }
      // HTTP/1.0 needs no Host: served as the origin form with the port's own address.
      const old = await raw(port, 'GET / HTTP/1.0\r\n\r\n');
      assert.equal(old.status, 200, `${old.head}\n${old.body.slice(0, 200)}`);
      // An https:// target on this plain-HTTP port still names the same resource.
      const https = await raw(port, `GET https://127.0.0.1:${port}/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
      assert.equal(https.status, 200, https.head);
    }
  });

  test('npm start still says where it listens, and Ctrl-C stops it all', async () => {
    const log = stack.log();
    assert.match(log, new RegExp(`\\[sandbox\\] .*Ready on http://127\\.0\\.0\\.1:${stack.sandboxPort}\\b`));
    assert.match(log, new RegExp(`\\[worker\\] .*Ready on http://127\\.0\\.0\\.1:${stack.workerPort}\\b`));
    assert.doesNotMatch(log, /Uncaught exception|invalid URL/, 'workerd failed on a request');
    assert.equal(await stack.stop(), 0);
    for (const port of [stack.workerPort, stack.sandboxPort]) {
      await assert.rejects(raw(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n'), /ECONNREFUSED/, `port ${port} still answers`);
    }
  });
});
