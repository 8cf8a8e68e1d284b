// The harness itself: Firefox, driven by Puppeteer over WebDriver BiDi, loads the worker's demo page and its embed; and
// the demo page's reviewer bar against its gate.
/* global document, customElements, location, sessionStorage */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openDemoPage, openFirefox, waitFor, workerUrl } from './support.mjs';

let browser;
before(async () => {
  browser = await openFirefox();
});
after(async () => {
  await browser?.close();
});

test('Firefox loads the demo page from the worker and defines <reel-player> from /embed/reelgate.js', { timeout: 60_000 }, async () => {
  const page = await openDemoPage(browser);
  try {
    assert.match(await browser.version(), /^firefox\//i);
    const seen = await page.evaluate(() => ({
      origin: location.origin,
      player: typeof customElements.get('reel-player'),
      embed: performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname === '/embed/reelgate.js'),
      players: document.querySelectorAll('reel-player').length,
    }));
    assert.deepEqual(seen, { origin: workerUrl(), player: 'function', embed: true, players: seen.players });
    assert.ok(seen.players > 0, 'the demo page shows at least one <reel-player>');
  } finally {
    await page.close();
  }
});

// Issue 27, item 5: the reviewer bar and the gate used to disagree for this machine's own address (the bar named
// Cloudflare's view of the connection, "Austin, United States"; the gate, whose policy also needs the proxy class only
// the Geo API gives, said it could not tell). Now the bar asks what the gate asks, for the same address, and says why
// the decision was taken. Each visitor of the bar's menu is loaded in turn, as a reviewer switches them.
const BECAUSE = {
  allowed: /allowed, because .*no rule of the policy refuses it|allowed, because the location is not fully known .* is allow/,
  location_unknown: /refused, because the location is not fully known \(no (proxy class|country|continent)\) and the policy’s rule for an unknown location is deny/,
  continent_not_allowed: /refused, because .* \([A-Z]{2}\), where .* \([A-Z]{2}\) is, is not among the continents the policy allows/,
  proxy_denied: /refused, because the address is .*, which the policy denies/,
};

test('the reviewer bar agrees with the gate for the same visitor, and says why it decided', { timeout: 180_000 }, async (t) => {
  const page = await openDemoPage(browser);
  try {
    for (const [visitor, state, reason] of [
      [null, null, null], // this machine's own address: whatever the worker makes of it, the two must agree
      ['192.0.2.30', 'allowed', 'allowed'], // Berlin
      ['192.0.2.20', 'denied', 'continent_not_allowed'], // New York
      ['198.51.100.13', 'denied', 'proxy_denied'], // a Tor exit in Amsterdam
    ]) {
      await page.evaluate((ip) => {
        if (ip) sessionStorage.setItem('reelgate.devIp', ip);
        else sessionStorage.removeItem('reelgate.devIp');
      }, visitor);
      await page.reload({ waitUntil: 'load', timeout: 30_000 });
      const seen = await waitFor(page, () => {
        const bar = document.getElementById('devbar');
        const gate = document.querySelector('reel-geo-gate[policy="europe"]');
        if (!bar || bar.hidden || !gate || !['allowed', 'denied'].includes(gate.state)) return null;
        return { text: document.getElementById('dev-where').textContent, state: gate.state, reason: gate.reason,
          shown: gate.shadowRoot?.querySelector('[part="reason"]')?.textContent ?? null,
          select: document.getElementById('dev-location').value };
      }, {
        timeout: 30_000, message: `the bar and the gate for ${visitor ?? 'this machine\'s own address'}`,
        describe: () => ({ bar: document.getElementById('devbar')?.hidden,
          gate: document.querySelector('reel-geo-gate')?.state, text: document.getElementById('dev-where')?.textContent }),
      });
      const who = visitor ?? 'this machine’s own address';
      t.diagnostic(`${who}: gate ${seen.state} (${seen.reason}); bar: ${seen.text}`);
      assert.equal(seen.select, visitor ?? '', 'the menu shows the visitor the page asks as');
      if (state) assert.deepEqual([seen.state, seen.reason], [state, reason], `${who}: ${seen.text}`);
      // Same address, same answer: the bar names the visitor the gate asked as, and the gate's own decision and reason.
      assert.ok(seen.text.includes(who), `the bar names ${who}: ${seen.text}`);
      assert.ok(seen.text.includes(`Gate “europe”: ${seen.state === 'allowed' ? 'allowed' : 'refused'}, because`),
        `the bar says what the gate shows (${seen.state}, ${seen.reason}): ${seen.text}`);
      assert.ok(BECAUSE[seen.reason], `a reason the bar explains: ${seen.reason}`);
      assert.match(seen.text, BECAUSE[seen.reason], `why, for ${who} (the gate shows: ${seen.shown})`);
      if (seen.reason === 'location_unknown' && /places .* in /.test(seen.text)) {
        // A place the worker knows but may not decide on: the bar says on what it knows it, and what is missing.
        assert.match(seen.text, /by Cloudflare’s view of the connection alone/, seen.text);
      }
    }
  } finally {
    await page.evaluate(() => sessionStorage.removeItem('reelgate.devIp')).catch(() => {});
    await page.close();
  }
});
