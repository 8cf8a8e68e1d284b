// The operator console (issue 26) as an operator uses it: Chromium on the worker's /admin/, the real worker and sandbox
// behind it (test/console/run.mjs starts them). The test sends feed, geo, playback and gateway traffic itself, counts
// it, and requires the console to show exactly those figures; then manages a key, purges a playlist and reads the audit
// trail through the console, and checks the refusals: a wrong token, an expired session, cross-site writes. axe runs on
// every tab in light and dark.
/* global document, window, localStorage, sessionStorage */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openChromium } from '../support/chromium-page.mjs';
import { devVars } from '../support/dev-workers.mjs';

const WORKER = (process.env.REELGATE_TEST_WORKER ?? '').replace(/\/$/, '');
const SANDBOX = (process.env.REELGATE_TEST_SANDBOX ?? '').replace(/\/$/, '');
if (!WORKER || !SANDBOX) throw new Error('REELGATE_TEST_WORKER / REELGATE_TEST_SANDBOX unset: run this suite with `npm run test:console`.');
const ADMIN_TOKEN = devVars().ADMIN_TOKEN;
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
/** The demo's sites and playlists (wrangler.toml, demo/index.html): one bound to the europe policy, one unbound. */
const EUROPE_SITE = '93QufRA9';
const EUROPE_PLAYLIST = 'TwZWDpHr';
const OPEN_SITE = 'vbQmzoYd';
const OPEN_PLAYLIST = 'DGRTLuft';
const IP = { berlin: '192.0.2.30', newYork: '192.0.2.21', unknown: '203.0.113.250' };
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A request to the worker (a path, or a URL it wrote) as the visitor at `ip` (DEV_MODE's stand-in for the address). */
const api = (path, ip, init = {}) => fetch(path.startsWith('http') ? path : `${WORKER}${path}`,
  { ...init, headers: { ...(ip ? { 'x-reelgate-dev-ip': ip } : {}), ...init.headers } });
const sandboxStats = async () => (await fetch(`${SANDBOX}/_sandbox/stats`)).json();

/** The store's totals over the console's default window, read with the admin token: what the console must show. */
async function storeTotals() {
  const response = await fetch(`${WORKER}/admin/metrics?minutes=60`, { headers: ADMIN });
  assert.equal(response.status, 200);
  const view = await response.json();
  return (metric, where = {}) => view.series
    .filter((s) => s.metric === metric && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.total, 0);
}

/** In the page: the element the selectors lead to, descending into each element's shadow root on the way. */
function deep(selectors) {
  let node = document;
  for (const selector of selectors) {
    node = (node.shadowRoot ?? node).querySelector(selector);
    if (!node) return null;
  }
  return node;
}

let browser;
let page;

/** Polls `read` (in Node) until `ok` holds for its value; fails naming what it last saw. */
async function until(read, ok, message, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await read();
    if (ok(last)) return last;
    if (Date.now() > deadline) throw new Error(`${message} within ${timeout / 1000} s (last seen: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The element at the end of the selectors (ElementHandle), or null. `deep` runs in the page as a function of its own. */
async function find(selectors) {
  const handle = await page.evaluateHandle(deep, selectors);
  const found = handle.asElement();
  if (!found) await handle.dispose();
  return found;
}
const attr = async (selectors, name) => (await find(selectors))?.evaluate((el, n) => el.getAttribute(n), name) ?? null;
const text = async (selectors) => (await find(selectors))?.evaluate((el) => el.textContent.replace(/\s+/g, ' ').trim()) ?? null;
const element = async (selectors) => {
  const found = await find(selectors);
  if (!found) throw new Error(`no element at ${selectors.join(' → ')}`);
  return found;
};
const consoleState = () => page.evaluate(() => document.querySelector('reel-console')?.getAttribute('state'));
const tab = async (name) => {
  await (await element(['reel-console', `#tab-${name}`])).click();
  await until(() => attr(['reel-console', '#panel'], 'data-tab'), (t) => t === name, `the ${name} tab`);
};
const number = async (selectors, name) => Number(await attr(selectors, name) ?? NaN);

async function signIn(token) {
  await until(consoleState, (s) => s === 'signed-out', 'the sign-in form');
  const field = await element(['reel-console', '#token']);
  await field.type(token);
  await (await element(['reel-console', 'form button[type=submit]'])).click();
}

/** axe over the whole page (it reads into shadow roots), every violation named. */
async function axeViolations() {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

before(async () => {
  ({ browser, page } = await openChromium());
  page.on('pageerror', (error) => console.error('page error:', error));
});

after(async () => {
  await browser?.close();
});

describe('the operator console', () => {
  let key;

  it('answers a wrong token with a message, and the API with 401', async () => {
    await page.goto(`${WORKER}/admin/`, { waitUntil: 'load' });
    await signIn('not-the-admin-token');
    await until(() => text(['reel-console', '.notice-slot']), (t) => /not accepted/.test(t ?? ''), 'the refusal');
    assert.equal(await consoleState(), 'signed-out');
    const direct = await fetch(`${WORKER}/admin/session`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'still-wrong' }),
    });
    assert.equal(direct.status, 401);
    assert.equal((await direct.json()).errors[0].code, 'unauthorized');
  });

  it('signs in, and its charts fill with exactly the traffic sent', async () => {
    await signIn(ADMIN_TOKEN);
    await until(consoleState, (s) => s === 'signed-in', 'the signed-in console');
    const cookies = await page.cookies(`${WORKER}/admin/`);
    const session = cookies.find((c) => c.name === '__Host-reelgate_admin');
    assert.ok(session, 'the session cookie');
    assert.equal(session.httpOnly, true);
    // What __Host- requires (kept on http://127.0.0.1, a loopback origin): Secure, Path=/, no Domain.
    assert.equal(session.secure, true);
    assert.equal(session.path, '/');
    assert.equal(session.domain, new URL(WORKER).hostname);
    assert.equal(session.sameSite, 'Strict');
    // The token is nowhere in the page's storage.
    assert.equal(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })), '{}{}');

    const totals = await storeTotals();
    const stats = await sandboxStats();
    const geoCalls = (s) => s.routes['GET /ip_lookup/:client/:ip'] ?? 0;
    const base = {
      api: totals('requests', { door: 'api' }),
      bytes: totals('playback_bytes'),
      europe: totals('geo_decisions', { policy: 'europe' }),
      us: totals('geo_refusals_by_country', { country: 'US' }),
      calls: totals('upstream_calls', { api: 'v2' }),
      sandboxV2: stats.total_calls - geoCalls(stats),
    };

    // The traffic, counted as it goes.
    let apiRequests = 0;
    let europeDecisions = 0;
    let usRefusals = 0;
    let bytes = 0;
    const feed = async (site, playlist, ip) => {
      apiRequests += 1;
      const response = await api(`/api/sites/${site}/playlists/${playlist}`, ip);
      assert.equal(response.status, 200);
      return response.json();
    };
    const gated = await feed(EUROPE_SITE, EUROPE_PLAYLIST, IP.berlin);
    europeDecisions += 1;
    await feed(EUROPE_SITE, EUROPE_PLAYLIST, IP.berlin);
    europeDecisions += 1;
    for (let i = 0; i < 3; i += 1) await feed(OPEN_SITE, OPEN_PLAYLIST, IP.berlin);
    for (const ip of [IP.berlin, IP.newYork, IP.newYork, IP.unknown]) {
      apiRequests += 1;
      europeDecisions += 1;
      if (ip === IP.newYork) usRefusals += 1;
      const gate = await api('/api/gate/europe', ip);
      assert.equal(gate.status, 200);
      await gate.arrayBuffer();
    }
    const poster = gated.items.find((item) => item.thumbnail)?.thumbnail;
    assert.ok(poster, 'a gated poster in the feed');
    const played = await api(poster, IP.berlin);
    assert.equal(played.status, 200);
    bytes += (await played.arrayBuffer()).byteLength;
    europeDecisions += 1;
    const refused = await api(poster, IP.newYork);
    assert.equal(refused.status, 451);
    await refused.arrayBuffer();
    europeDecisions += 1;
    usRefusals += 1;
    const sandboxV2 = (await sandboxStats()).total_calls - geoCalls(await sandboxStats());

    const overview = ['reel-console', '#panel'];
    const chart = (metric) => [...overview, `[data-chart="${metric}"] reel-chart`];
    const shown = async () => ({
      api: await number([...chart('requests'), 'g.row[data-category="api"]'], 'data-total'),
      bytes: await number([...chart('playback_bytes'), 'li[data-series="bytes"]'], 'data-total'),
      europe: await number([...chart('geo_decisions'), 'g.row[data-category="europe"]'], 'data-total'),
      us: await number([...chart('geo_refusals_by_country'), 'g.row[data-category="US"]'], 'data-total'),
      calls: await number([...chart('upstream_calls'), 'li[data-series="public"]'], 'data-total') +
        await number([...chart('upstream_calls'), 'li[data-series="gateway"]'], 'data-total'),
    });
    const expected = {
      api: base.api + apiRequests,
      bytes: base.bytes + bytes,
      europe: base.europe + europeDecisions,
      us: base.us + usRefusals,
      // Every call the platform received since the baseline, as the sandbox counted them.
      calls: base.calls + (sandboxV2 - base.sandboxV2),
    };
    // The console refreshes on its own (every 5 s): no reload, no click.
    await until(shown, (s) => JSON.stringify(s) === JSON.stringify(expected), `the overview showing ${JSON.stringify(expected)}`);
    // The budget's limit line is drawn at the configured rate.
    assert.equal(await attr([...chart('upstream_calls'), 'li[data-limit]'], 'data-limit'), '50');
    // The cache chart counts the feeds: fresh answers after the first of each.
    assert.match(await text([...chart('cache'), 'svg desc']) ?? '', /feed/);
  });

  it('creates a key that calls /v2, shows its calls and errors, revokes it, and the next call is refused', async () => {
    await tab('keys');
    await (await element(['reel-console', '#key-name'])).type('console test key');
    await (await element(['reel-console', 'input[name=scope][value=write]'])).click();
    const sites = await element(['reel-console', '#key-sites']);
    await sites.click({ clickCount: 3 });
    await sites.type('*');
    await (await element(['reel-console', 'form.create button[type=submit]'])).click();
    const id = await until(() => attr(['reel-console', 'section.secret'], 'data-key-id'), Boolean, 'the new key');
    const token = await (await element(['reel-console', 'input[data-secret="Token"]'])).evaluate((input) => input.value);
    assert.match(token ?? '', /^rg_/);
    key = { id, auth: { authorization: `Bearer ${token}` } };
    // Shown once: dismissed, the token is nowhere in the page.
    await (await element(['reel-console', 'section.secret button.dismiss'])).click();
    await until(() => page.evaluate(() => document.querySelector('reel-console').shadowRoot.innerHTML), (html) => !html.includes(token), 'the token gone');

    const v2 = (path, init = {}) => fetch(`${WORKER}/v2/sites/${OPEN_SITE}${path}`, { ...init, headers: { ...key.auth, ...init.headers } });
    assert.equal((await v2('/media/?page_length=1')).status, 200);
    assert.equal((await v2('/media/ZZZZZZZZ/')).status, 404);
    const write = await v2('/players/', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name: 'Console test player', release_channel: 'latest' } }),
    });
    assert.equal(write.status, 201);
    const row = ['reel-console', `tr[data-key-id="${id}"]`];
    await until(async () => [await number([...row, 'td[data-calls]'], 'data-calls'), await number([...row, 'td[data-errors]'], 'data-errors')],
      ([calls, errors]) => calls === 3 && errors === 1, 'the key\'s 3 calls and 1 error');

    await (await element([...row, 'button.revoke'])).click();
    await (await element([...row, '.confirm button.danger'])).click();
    await until(() => text([...row, '.status']), (t) => /^Revoked/.test(t ?? ''), 'the key shown revoked');
    const after = await v2('/media/?page_length=1');
    assert.equal(after.status, 401);
    assert.equal((await after.json()).errors[0].code, 'unauthorized');
  });

  it('finds the key\'s write in the audit view, filtered by key and status', async () => {
    await tab('audit');
    await (await element(['reel-console', '#audit-key'])).type(key.id);
    await (await element(['reel-console', '#audit-status'])).type('2xx');
    await (await element(['reel-console', 'form.filters button[type=submit]'])).click();
    await until(() => attr(['reel-console', '[data-count]'], 'data-count'), (n) => n === '1', 'one audit entry');
    const entry = await text(['reel-console', 'table.audit tbody tr']);
    assert.match(entry, new RegExp(`${key.id}.*POST.*201`));
  });

  it('purges a playlist: it names what it removed, and the next feed loads upstream', async () => {
    const path = `/api/sites/${OPEN_SITE}/playlists/${OPEN_PLAYLIST}`;
    const cached = await api(path, IP.berlin);
    await cached.arrayBuffer();
    // Held since the overview's traffic: fresh, or stale if that was over a minute ago (feed.fresh_seconds).
    assert.match(cached.headers.get('x-reelgate-cache') ?? '', /^(HIT|STALE)$/);
    await tab('purge');
    await (await element(['reel-console', '#purge-site'])).select(OPEN_SITE);
    await (await element(['reel-console', '#purge-scope'])).select('playlist');
    await (await element(['reel-console', '#purge-id'])).type(OPEN_PLAYLIST);
    await (await element(['reel-console', 'form.purge button[type=submit]'])).click();
    const removed = Number(await until(() => attr(['reel-console', '.result'], 'data-removed'), Boolean, 'the purge result'));
    assert.ok(removed >= 1, `removed ${removed}`);
    assert.match(await text(['reel-console', '.result .removed']), new RegExp(OPEN_PLAYLIST));
    const before = (await sandboxStats()).total_calls;
    const fresh = await api(path, IP.berlin);
    await fresh.arrayBuffer();
    assert.equal(fresh.headers.get('x-reelgate-cache'), 'MISS');
    assert.ok((await sandboxStats()).total_calls > before, 'the feed was loaded from the platform');
  });

  it('shows the configuration in force and its warnings, and no secret', async () => {
    await tab('config');
    await until(() => text(['reel-console', '#panel']), (t) => (t ?? '').includes(EUROPE_SITE), 'the sites');
    const html = await page.evaluate(() => document.querySelector('reel-console').shadowRoot.innerHTML);
    for (const [name, value] of Object.entries(devVars())) {
      if (/SECRET|KEY|TOKEN|SALT/.test(name) && value.length > 8) assert.ok(!html.includes(value), `${name} shown`);
    }
    // DEV_MODE is on in this stack: the console says so above every tab.
    assert.match(await text(['reel-console', 'main']), /DEV_MODE/);
  });

  for (const scheme of ['light', 'dark']) {
    it(`has no axe violation on any tab in ${scheme}`, async () => {
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      for (const name of ['overview', 'keys', 'audit', 'purge', 'config']) {
        await tab(name);
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.deepEqual(await axeViolations(), [], `${name} in ${scheme}`);
      }
    });
  }

  it('refuses a write sent with the session cookie from another origin of the same site, and from another site', async () => {
    const keysBefore = (await (await fetch(`${WORKER}/admin/keys`, { headers: ADMIN })).json()).keys.length;
    const statuses = [];
    const listen = (response) => {
      if (response.url() === `${WORKER}/admin/keys` && response.request().method() === 'POST') statuses.push(response.status());
    };
    const other = await browser.newPage();
    other.on('response', listen);
    // The sandbox's origin: another port of 127.0.0.1, so the same site; the SameSite cookie goes along.
    for (const origin of [SANDBOX, SANDBOX.replace('127.0.0.1', 'localhost')]) {
      await other.goto(`${origin}/_sandbox/stats`, { waitUntil: 'load' });
      await other.evaluate((url) => fetch(url, {
        method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ name: 'forged', scopes: ['write'], sites: ['*'] }),
      }).catch(() => undefined), `${WORKER}/admin/keys`);
    }
    await until(() => statuses.length, (n) => n === 2, 'both answers');
    // Same site: the cookie was sent and the CSRF check refused it (403); another site: no cookie at all (401).
    assert.deepEqual(statuses, [403, 401]);
    await other.close();
    const keysAfter = (await (await fetch(`${WORKER}/admin/keys`, { headers: ADMIN })).json()).keys.length;
    assert.equal(keysAfter, keysBefore, 'no key was made');
  });

  it('sends an expired session back to the sign-in form, and the API answers 401 session_expired', async () => {
    const expired = await expiredSessionCookie(ADMIN_TOKEN);
    await page.setCookie({
      name: '__Host-reelgate_admin', value: expired, url: `${WORKER}/`, path: '/', secure: true, httpOnly: true, sameSite: 'Strict',
    });
    await page.goto(`${WORKER}/admin/`, { waitUntil: 'load' });
    await until(() => text(['reel-console', '.notice-slot']), (t) => /expired/i.test(t ?? ''), 'the expired-session notice');
    assert.equal(await consoleState(), 'signed-out');
    const direct = await fetch(`${WORKER}/admin/metrics`, { headers: { cookie: `__Host-reelgate_admin=${expired}` } });
    assert.equal(direct.status, 401);
    assert.equal((await direct.json()).errors[0].code, 'session_expired');
  });
});

/**
 * A session cookie as the worker signs one (worker/gateway/admin/sessions.ts: base64url JSON {exp, nonce}, a dot, the
 * base64url HMAC-SHA256 of that text under HMAC(ADMIN_TOKEN, "reelgate admin session v1")), which ended a minute ago.
 */
async function expiredSessionCookie(adminToken) {
  const encoder = new TextEncoder();
  const b64 = (bytes) => Buffer.from(bytes).toString('base64url');
  const hmac = async (key, data) => new Uint8Array(await crypto.subtle.sign('HMAC',
    await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), encoder.encode(data)));
  const sessionKey = await hmac(encoder.encode(adminToken), 'reelgate admin session v1');
  const payload = b64(encoder.encode(JSON.stringify({ exp: Math.floor(Date.now() / 1000) - 60, nonce: b64(crypto.getRandomValues(new Uint8Array(16))) })));
  return `${payload}.${b64(await hmac(sessionKey, payload))}`;
}
