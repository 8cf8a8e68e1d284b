// One budget, fair lanes: gateway calls go through the same budget object as the public widgets, writes before reads,
// keys taking turns inside a lane, and never more upstream calls than the budget allows.
import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetStub } from '../../worker/budget/client.ts';
import { getConfig } from '../../worker/config.ts';
import { api } from '../worker/helpers.ts';
import { catalog, createKey, expectError, gateway, resetGateway, send, SITE, stats } from './helpers.ts';

beforeEach(() => resetGateway());

const V2 = `/v2/sites/${SITE}`;
/** Budget in the test configuration (vitest.config.mts). */
const { ratePerMinute: RATE_PER_MINUTE, burst: BURST } = getConfig(env).budget;

describe('a burst from several keys', () => {
  it('makes at most the budget\'s upstream calls; the rest are 429 at once with Retry-After and the caller\'s share', async () => {
    const keys = await Promise.all([createKey(['read']), createKey(['read']), createKey(['read'])]);
    const started = Date.now();
    const responses = await Promise.all(keys.flatMap((key, k) => Array.from({ length: 12 }, (_, i) =>
      // Distinct pages: identical reads would share one upstream request.
      gateway(`${V2}/media/?page=${k * 100 + i + 1}&page_length=1`, { headers: key.auth }))));
    const elapsedMinutes = (Date.now() - started) / 60_000;
    const s = await stats();
    expect(s.total).toBeLessThanOrEqual(BURST + Math.ceil(elapsedMinutes * RATE_PER_MINUTE));
    expect(s.rate_limited).toBe(0);
    let ok = 0;
    for (const response of responses) {
      expect(Number(response.headers.get('svc-request-limit'))).toBeGreaterThan(0);
      if (response.status === 200) {
        ok += 1;
        await response.body?.cancel();
      } else {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(response.headers.get('svc-request-remaining')).toBe('0');
        await expectError(response, 429, 'rate_limit_exceeded');
      }
    }
    expect(ok).toBe(s.total);
    expect(ok).toBeGreaterThan(0);
  });

  it('each key\'s limit is its part of the gateway\'s reserved rate, and remaining what is held for it', async () => {
    const { gatewayFloor } = getConfig(env).budget;
    const guaranteed = RATE_PER_MINUTE * gatewayFloor;
    const [a, b] = await Promise.all([createKey(['read']), createKey(['read'])]);
    const first = await gateway(`${V2}/players/`, { headers: a.auth });
    expect(first.headers.get('svc-request-limit')).toBe(String(Math.floor(guaranteed)));
    expect(Number(first.headers.get('svc-request-remaining'))).toBeGreaterThan(0);
    const second = await gateway(`${V2}/playlists/`, { headers: b.auth });
    // Two active keys now split the gateway's reserved rate.
    expect(second.headers.get('svc-request-limit')).toBe(String(Math.floor(guaranteed / 2)));
    expect(Number(second.headers.get('svc-request-remaining'))).toBeGreaterThan(0);
    const third = await gateway(`${V2}/media/?page_length=1`, { headers: a.auth });
    expect(third.headers.get('svc-request-limit')).toBe(String(Math.floor(guaranteed / 2)));
  });
});

describe('keys take turns', () => {
  // The gateway's side is empty and visitors have everything else: the keys' accounts are filled in turn, one token
  // each, as the gateway's reserve refills. The budget object's clock is stepped by hand.
  let now = 0;
  type Internals = {
    env: typeof env;
    clock: () => number;
    bucket(api: string): { take(now: number, share: string, n: number): unknown };
  };
  const inObject = <T>(fn: (o: Internals) => T) => runInDurableObject(budgetStub(env), (o) => fn(o as unknown as Internals));
  const budget = { ...JSON.parse(env.REELGATE_CONFIG), budget: { rate_per_minute: 50, burst: 10, max_wait_ms: 400 } };

  afterEach(async () => {
    await inObject((o) => {
      o.env = env;
      o.clock = () => Date.now();
    });
    await budgetStub(env).reset();
  });

  it('one busy key cannot starve another: each gets its turn as the reserve refills, and writes spend the same share', async () => {
    now = Date.now();
    await inObject((o) => {
      o.env = { ...env, REELGATE_CONFIG: JSON.stringify(budget) };
      o.clock = () => now;
    });
    await budgetStub(env).reset();
    const [importer, cms] = await Promise.all([createKey(['read']), createKey(['write'])]);
    // Both keys become active, then everything the budget holds is spent by visitors and by the importer.
    expect((await gateway(`${V2}/players/`, { headers: importer.auth })).status).toBe(200);
    const write = await send(`${V2}/players/`, 'POST', cms, { metadata: { name: 'cms 0' } });
    expect(write.status, await write.clone().text()).toBe(201);
    await inObject((o) => {
      while (o.bucket('v2').take(now, 'public', 1)) { /* visitors */ }
    });
    let page = 0;
    const importerRead = () => gateway(`${V2}/media/?page=${++page}&page_length=1`, { headers: importer.auth });
    for (let r = await importerRead(); r.status === 200; r = await importerRead()) await r.body?.cancel();
    // The CMS spends what its account holds.
    let refused = await send(`${V2}/players/`, 'POST', cms, { metadata: { name: 'cms 1' } });
    while (refused.status === 201) refused = await send(`${V2}/players/`, 'POST', cms, { metadata: { name: 'cms 1' } });
    // Every four seconds (15 a minute reserved for the gateway) one token: the importer asks at every step, yet the
    // CMS's write finds its own token at the time its headers stated.
    expect(refused.status).toBe(429);
    const reset = Number(refused.headers.get('reelgate-request-reset'));
    expect(Number(refused.headers.get('retry-after'))).toBe(reset);
    expect(reset).toBeGreaterThan(0);
    const until = now + reset * 1000;
    while (now < until) {
      now += 1000;
      await (await importerRead()).body?.cancel();
    }
    const later = await send(`${V2}/players/`, 'POST', cms, { metadata: { name: 'cms 1' } });
    expect(later.status, await later.clone().text()).toBe(201);
    expect((await stats()).rate_limited).toBe(0);
  });
});

describe('neither side starves the other', () => {
  it('a gateway import job flooding reads leaves visitors their reserve', async () => {
    const importer = await createKey(['read']);
    const player = (await catalog()).sites.find((s: { id: string }) => s.id === SITE).players[0];
    // Far more distinct reads than the whole burst, all at once.
    const reads = await Promise.all(Array.from({ length: 30 }, (_, i) =>
      gateway(`${V2}/media/?page=${i + 1}&page_length=1`, { headers: importer.auth })));
    await Promise.all(reads.map((r) => r.body?.cancel()));
    expect(reads.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    // A widget's miss right after: served from the visitors' reserve, which the import job could not touch.
    const miss = await api(`/api/sites/${SITE}/players/${player}`);
    expect(miss.status, await miss.text()).toBe(200);
    expect((await stats()).rate_limited).toBe(0);
  });
});
