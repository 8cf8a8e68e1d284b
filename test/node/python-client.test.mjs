// The platform's official Python client (jwplatform 2.2.2, vendored unmodified in clients/python/,
// see its README) does its direct upload, `Media.create_media_and_get_upload_context` then `Media.upload`, against the
// sandbox of `npm start` (test/storm/npm-start.mjs runs demo/start.mjs itself).
//
// The client talks only TLS on port 443: `JWPlatformClient(secret, host)` opens `HTTPSConnection(host, 443)`, and the
// upload opens `HTTPSConnection(<the link's hostname>)` and sends `PUT http://<host>/upload/... HTTP/1.1`, the absolute
// form. So the test gives it a loopback address of its own (127.x.y.z, port 443), a certificate for that address
// signed by a throwaway CA the client trusts through SSL_CERT_FILE, and behind that TLS nothing but a byte pipe to the
// sandbox's port of `npm start`: every request line reaches the stack exactly as the client wrote it. The sandbox
// then names that address in the upload link (it builds links from the request's Host), so the PUT comes back the
// same way.
//
// Without python3 the test is skipped, saying so. Without `requests` (the client's package imports it), openssl (for
// the certificate) or the right to listen on port 443 (root, or net.ipv4.ip_unprivileged_port_start <= 443), it
// fails, saying which: .ci/run installs python3-requests and openssl when missing, and runs as root.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startNpmStart } from '../storm/npm-start.mjs';

const CLIENT_DIR = fileURLToPath(new URL('./clients/python/', import.meta.url));
const SAMPLE = fileURLToPath(new URL('../../demo/sandbox/media/sample.mp4', import.meta.url));
const SITE = 'vbQmzoYd';

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const noPython = python.error ? `python3 is not installed (${python.error.code ?? python.error.message}): the official Python ` +
  'client cannot run. Install it (Debian: sudo apt-get install -y python3 python3-requests) to run this test.' : null;
if (noPython) console.log(`SKIPPED python-client.test.mjs: ${noPython}`);

let stack;
let tls;
let work;
const requestLines = [];

/** A CA and a server certificate for `address` (an IP SAN), made with openssl in `dir`. */
function makeCertificates(dir, address) {
  const run = (args) => {
    const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (result.error) throw new Error(`openssl is needed for the test's TLS certificate (${result.error.code}); Debian: apt-get install -y openssl`);
    if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=reelgate test CA']);
  run(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${address}`]);
  writeFileSync(join(dir, 'server.ext'), [`subjectAltName=IP:${address}`, 'basicConstraints=critical,CA:FALSE',
    'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth', 'authorityKeyIdentifier=keyid',
    'subjectKeyIdentifier=hash'].join('\n'));
  run(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem',
    '-days', '1', '-extfile', 'server.ext']);
  return { ca: join(dir, 'ca.pem'), key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) };
}

/**
 * TLS on `address`:443, each connection piped byte for byte to 127.0.0.1:`port`. The first request line of each
 * connection is recorded: the client opens one connection for its API calls and a new one for each upload attempt.
 */
function listenTls(address, { key, cert }, port) {
  const server = createTlsServer({ key, cert }, (client) => {
    const upstream = connect(port, '127.0.0.1');
    let head = '';
    const firstLine = (chunk) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n');
      if (end < 0 && head.length < 8192) return;
      requestLines.push(head.slice(0, end < 0 ? 80 : end));
      client.off('data', firstLine);
    };
    client.on('data', firstLine);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(443, address, () => resolve(server));
  });
}

/** A loopback address other than 127.0.0.1 whose port 443 is ours. */
async function tlsFront(certificatesFor) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const address = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    const certificates = certificatesFor(address);
    try {
      return { address, ca: certificates.ca, server: await listenTls(address, certificates, stack.sandboxPort) };
    } catch (error) {
      if (error.code === 'EACCES') {
        throw new Error('the official Python client only talks TLS on port 443, and this process may not listen on it: ' +
          'run as root (as .ci/run does) or lower net.ipv4.ip_unprivileged_port_start to 443.');
      }
      if (error.code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error('no loopback address with a free port 443 found');
}

function runPython(args, env) {
  return new Promise((resolve) => {
    const child = spawn('python3', args, { cwd: CLIENT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

before(async () => {
  if (noPython) return;
  const requests = spawnSync('python3', ['-c', 'import requests'], { encoding: 'utf8' });
  if (requests.status !== 0) {
    throw new Error('python3 has no `requests`, which the official client imports (jwplatform/v1): ' +
      'apt-get install -y python3-requests (.ci/run does).');
  }
  work = mkdtempSync(join(tmpdir(), 'reelgate-python-client-'));
  stack = await startNpmStart({ label: 'python client', workerFrom: 27887, sandboxFrom: 27888 });
  tls = await tlsFront((address) => makeCertificates(work, address));
});

after(async () => {
  await new Promise((resolve) => (tls ? tls.server.close(resolve) : resolve()));
  await stack?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the official Python client\'s direct upload succeeds against the sandbox of npm start, unmodified', { skip: noPython ?? false }, async () => {
  const title = `Python client direct upload ${Date.now()}`;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME ?? '/tmp', SSL_CERT_FILE: tls.ca, PYTHONDONTWRITEBYTECODE: '1' };
  const run = await runPython(['direct_upload.py', tls.address, stack.vars.API_SECRET, SITE, SAMPLE, title], env);
  assert.equal(run.code, 0, `python3 direct_upload.py failed:\n${run.stderr}\n${run.stdout}`);
  const context = JSON.parse(run.stdout.trim().split('\n').pop());
  assert.equal(context.upload_method, 'direct');
  const link = new URL(context.direct_link);
  assert.equal(link.host, tls.address, 'the sandbox names the address the client called in its upload link');

  // The wire: the create in origin form, then the file PUT in absolute form (the request line workerd used to 500 on),
  // once: the client retries a failed PUT on a new connection, up to three times.
  assert.deepEqual(requestLines, [`POST /v2/sites/${SITE}/media/ HTTP/1.1`, `PUT ${context.direct_link} HTTP/1.1`]);

  // The platform has the bytes (the client itself checked that the link's ETag is their MD5): processed, the media is
  // `ready`, with the duration the sandbox reads from an MP4.
  const api = (path, init = {}) => fetch(`${stack.sandboxUrl}${path}`, {
    ...init, headers: { authorization: `Bearer ${stack.vars.API_SECRET}`, 'content-type': 'application/json', ...init.headers },
  });
  const finished = await fetch(`${stack.sandboxUrl}/_sandbox/processing`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ finish: true }),
  });
  assert.equal(finished.status, 200, await finished.text());
  const listed = await (await api(`/v2/sites/${SITE}/media/?page_length=20&sort=created:dsc`)).json();
  const media = listed.media.find((item) => item.metadata.title === title);
  assert.ok(media, `no media titled ${title}: ${JSON.stringify(listed.media.map((item) => item.metadata.title))}`);
  assert.equal(media.status, 'ready', JSON.stringify(media));
  assert.ok(media.duration > 0, JSON.stringify(media));
});
