// The browser the component suites and the bench use (test/support/find-browser.mjs): CHROME_PATH, then a system
// Chromium, then the Chromium that `npm ci` brings with @sparticuz/chromium, so `npm ci && npm test` needs no apt step.
// The last test starts that npm Chromium for real and talks to it over the DevTools protocol.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkLaunch, findBrowser } from '../support/find-browser.mjs';

// Any file stands in for a browser executable where only the order is checked; nothing launches it.
const someFile = process.execPath;
const noNpm = () => assert.fail('the npm Chromium was looked for although a browser came earlier in the order');

test('CHROME_PATH comes first, before a system browser', () => {
  assert.deepEqual(findBrowser({ env: { CHROME_PATH: someFile }, system: ['/usr/bin/true'], npm: noNpm }),
    { path: someFile, source: 'CHROME_PATH' });
});

test('a CHROME_PATH that names no file is an error, not a quiet switch to another browser', () => {
  assert.throws(() => findBrowser({ env: { CHROME_PATH: '/nonexistent/chrome' }, system: [someFile], npm: noNpm }),
    /CHROME_PATH is set to \/nonexistent\/chrome, which is not a file/);
});

test('a system browser comes before the npm Chromium; missing candidates are skipped', () => {
  assert.deepEqual(findBrowser({ env: {}, system: ['/nonexistent/chromium', someFile], npm: noNpm }),
    { path: someFile, source: 'system' });
});

test('with no browser at all, the error says what to do', () => {
  assert.throws(() => findBrowser({ env: {}, system: [], npm: () => null }), /no Chrome or Chromium found.*npm ci/);
});

test('a machine with no Chromium: the Chromium from npm ci is found, unpacked and starts over CDP',
  { timeout: 90_000 }, async () => {
    const { path, source } = findBrowser({ env: {}, system: [] });
    assert.equal(source, '@sparticuz/chromium');
    assert.match(path, /node_modules\/\.cache\/reelgate-chromium\/[^/]+\/chromium$/);
    assert.match(await checkLaunch(path), /^HeadlessChrome\/\d+\./);
  });
