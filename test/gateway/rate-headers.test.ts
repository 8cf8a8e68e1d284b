// Rate headers the caller can trust. A client that paces itself only on `svc-request-remaining` and
// the stated reset never meets a 429, however hard anonymous visitors flood the public API and however greedy another
// key is; every 429 carries Retry-After and the platform's code; v1's rate_limit says the same as the headers.
// Deterministic: the budget object's clock is stepped by hand (test/worker/budget-reserve.test.ts does the same), so
// no test waits on wall time and no assertion depends on this machine's speed.
import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { budgetStub } from '../../worker/budget/client.ts';
import { api } from '../worker/helpers.ts';
import { catalog, createKey, expectError, gateway, resetGateway, SITE, stats, type CreatedKey } from './helpers.ts';

/**
 * 50 calls a minute, burst 10, floors 0.3 each (the defaults): the gateway can count on 15 calls a minute (one every
 * 4 s) and a reserve of 3, whatever visitors do.
 */
const TEST_BUDGET = { rate_per_minute: 50, burst: 10, max_wait_ms: 400, upstream_timeout_ms: 3000 };
const GUARANTEED_PER_MINUTE = 15;

/** The budget object's time, as the tests step it. */
let now = 0;

interface Internals {
  env: typeof env;
  clock: () => number;
}
const inObject = <T>(fn: (object: Internals) => T): Promise<T> =>
  runInDurableObject(budgetStub(env), (object) => fn(object as unknown as Internals));

beforeEach(async () => {
  await resetGateway();
  now = Date.now();
  const config = { ...JSON.parse(env.REELGATE_CONFIG), budget: TEST_BUDGET };
  await inObject((o) => {
    o.env = { ...env, REELGATE_CONFIG: JSON.stringify(config) };
    o.clock = () => now;
  });
  await budgetStub(env).reset();
});

afterEach(async () => {
  await inObject((o) => {
    o.env = env;
    o.clock = () => Date.now();
  });
  await budgetStub(env).reset();
});

const V2 = `/v2/sites/${SITE}`;
let page = 0;
/** A read nobody else makes at the same time (identical concurrent reads share one upstream call). */
const read = (key: CreatedKey) => gateway(`${V2}/media/?page=${++page}&page_length=1`, { headers: key.auth });

function figures(response: Response) {
  return {
    limit: Number(response.headers.get('svc-request-limit')),
    remaining: Number(response.headers.get('svc-request-remaining')),
    reset: Number(response.headers.get('reelgate-request-reset')),
  };
}

let visitor = 0;
/**
 * Anonymous visitors, each from its own address, each asking for a player nobody asked for: every one a miss that
 * costs a Management call (a media miss costs none: media are read from the Delivery API).
 */
function flood(n: number): Promise<Response[]> {
  return Promise.all(Array.from({ length: n }, () => {
    visitor += 1;
    return api(`/api/sites/${SITE}/players/fl${String(visitor).padStart(6, '0')}`, { ip: `198.18.${visitor >> 8 & 255}.${visitor & 255}` });
  }));
}

/** Asserts a 429 of the gateway: the platform's code, a Retry-After of whole seconds, and the caller's share. */
async function expectRateLimited(response: Response): Promise<void> {
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(response.headers.get('svc-request-remaining')).toBe('0');
  await expectError(response, 429, 'rate_limit_exceeded');
}

describe('a client pacing on the headers', () => {
  it('never meets a 429 while visitors flood the public API and another key spends all it can', { timeout: 120_000 }, async () => {
    const [pacer, greedy] = await Promise.all([createKey(['read'], ['*'], 'pacer'), createKey(['read'], ['*'], 'greedy')]);
    const STEP_MS = 2000;
    const MINUTES = 2;
    let nextAt = now;
    let paced = 0;
    let greedyServed = 0;
    let greedyRefused = 0;
    let visitorsServed = 0;
    let visitorsRefused = 0;
    const start = now;
    for (let t = 0; t <= MINUTES * 60_000; t += STEP_MS) {
      now = start + t;
      // Three new visitors every two seconds: far past the budget's 50 a minute.
      for (const r of await flood(3)) {
        if (r.status === 429) visitorsRefused += 1;
        else visitorsServed += 1;
        await r.body?.cancel();
      }
      // The greedy key ignores the headers and calls at every step.
      const g = await read(greedy);
      if (g.status === 429) {
        greedyRefused += 1;
        await expectRateLimited(g);
      } else {
        expect(g.status, await g.clone().text()).toBe(200);
        greedyServed += 1;
        await g.body?.cancel();
      }
      if (now < nextAt) continue;
      // The pacer sends while its remaining is above 0, else waits until the reset the headers state.
      const response = await read(pacer);
      const text = await response.text();
      expect(response.status, `at ${t} ms: ${text}`).toBe(200);
      paced += 1;
      const share = figures(response);
      expect(share.limit).toBeGreaterThan(0);
      nextAt = share.remaining > 0 ? now : now + share.reset * 1000;
    }
    // The flood was real: visitors were refused, and the greedy key ran out of its share too.
    expect(visitorsRefused).toBeGreaterThan(0);
    expect(visitorsServed).toBeGreaterThan(0);
    expect(greedyRefused).toBeGreaterThan(0);
    // The gateway's 15 a minute went to the two keys in turn: the pacer got its half, near enough (its reserve first).
    expect(paced).toBeGreaterThanOrEqual(Math.floor((MINUTES * GUARANTEED_PER_MINUTE) / 2) - 2);
    expect(paced + greedyServed).toBeLessThanOrEqual(3 + MINUTES * GUARANTEED_PER_MINUTE + 10);
    // Nothing beyond the budget reached the platform.
    expect((await stats()).rate_limited).toBe(0);
  });

  it('states the same share in v1\'s rate_limit as in the headers; a v1 429 has Retry-After', async () => {
    const key = await createKey(['read']);
    await flood(12);
    const v1 = (path: string) => gateway(path, { headers: key.auth });
    let last: Response | undefined;
    // Spend the key's share through v1.
    for (let i = 0; i < 10; i++) {
      last = await v1(`/v1/videos/show?video_key=${(await catalog()).sites.find((s: { id: string }) => s.id === SITE).media.published[0]}&site_id=${SITE}`);
      if (last.status === 429) break;
      const body = await last.json() as { rate_limit: { reset: number; limit: number; remaining: number } };
      const share = figures(last);
      expect(body.rate_limit.limit).toBe(share.limit);
      expect(body.rate_limit.remaining).toBe(share.remaining);
      const nowSeconds = Date.now() / 1000;
      expect(body.rate_limit.reset).toBeGreaterThanOrEqual(Math.floor(nowSeconds) + share.reset);
      expect(body.rate_limit.reset).toBeLessThanOrEqual(Math.ceil(nowSeconds) + share.reset + 1);
    }
    expect(last!.status).toBe(429);
    const retryAfter = Number(last!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // v1's exact error shape, with the wait and the share in the headers.
    expect(await last!.json()).toEqual({ status: 'error', code: 'RateLimitExceeded', title: 'Rate Limit Exceeded', message: expect.any(String) });
    expect(last!.headers.get('svc-request-remaining')).toBe('0');
    expect(last!.headers.get('reelgate-request-reset')).toBe(String(retryAfter));
  });
});

describe('every 429 carries Retry-After', () => {
  it('a key whose share is spent is refused at once, not queued, with the platform\'s code and when to come back', async () => {
    const key = await createKey(['read']);
    await flood(12);
    const responses: Response[] = [];
    for (let i = 0; i < 8; i++) responses.push(await read(key));
    const refused = responses.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of responses.filter((r) => r.status !== 429)) {
      expect(r.status).toBe(200);
      await r.body?.cancel();
    }
    for (const r of refused) {
      // The Retry-After is the reset the headers state: by then the key holds a call again.
      expect(r.headers.get('retry-after')).toBe(r.headers.get('reelgate-request-reset'));
      await expectRateLimited(r);
    }
    // Coming back when told, it is served.
    now += Number(refused[0]!.headers.get('retry-after')) * 1000;
    const again = await read(key);
    expect(again.status, await again.clone().text()).toBe(200);
    await again.body?.cancel();
  });

  it('the platform\'s own 429 is passed on with its Retry-After', async () => {
    const key = await createKey(['read']);
    const faults = await env.SANDBOX.fetch('http://sandbox.test/_sandbox/faults', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ force_429: true, retry_after_seconds: 7 }),
    });
    expect(faults.ok).toBe(true);
    await faults.body?.cancel();
    const first = await read(key);
    expect(first.headers.get('retry-after')).toBe('7');
    await expectError(first, 429, 'rate_limit_exceeded');
    // The budget now holds off for the time asked: its own refusal says the same wait, with the same code.
    const second = await read(key);
    expect(Number(second.headers.get('retry-after'))).toBe(7);
    await expectError(second, 429, 'rate_limit_exceeded');
  });
});
