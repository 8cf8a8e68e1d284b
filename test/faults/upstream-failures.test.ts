// The upstream fails while visitors keep coming: an outage across the whole scenario, a 429 storm, a 30 % error rate.
// Every entry here is stale a second after it was written (project `faults-stale-cache`), so each read answers from
// KV and starts a background refresh that meets the fault. What was served before must go on being served, with no
// client-visible 429 or 5xx, and the upstream never sees more than the budget allows.
import { env } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CACHE_HEADER, describeWorld, errorCode, fill, get, isV2Error, leakedSecrets, managementCalls, nextVisitor,
  printTally, resetSandbox, sameContent, setFaults, sleep, stats, tally, type World,
} from './world.ts';

const config = JSON.parse(env.REELGATE_CONFIG) as {
  sites: Record<string, { url_signing?: unknown }>; policies: Record<string, unknown>; budget: { rate_per_minute: number; burst: number };
};
const t = tally('faults-stale-cache (outage, 429 storm, 30 % errors)');

let world: World;
let served: Map<string, string>;
let startedAt: number;

beforeAll(async () => {
  await resetSandbox();
  startedAt = Date.now();
  world = await describeWorld(config.sites);
  served = await fill(world, Object.keys(config.policies), 150_000);
});

afterAll(async () => {
  await setFaults({});
  printTally(t);
});

interface Round {
  /** Keys served with the same content as before. */
  kept: number;
  /** Keys that were served before and now were not (any other status or content): must stay zero. */
  lost: Array<{ key: string; status: number; body: string }>;
  states: Record<string, number>;
}

/** Reads every previously served key `rounds` times, `gapMs` apart, as a crowd of visitors would. */
async function readEverything(rounds: number, gapMs: number): Promise<Round> {
  const out: Round = { kept: 0, lost: [], states: {} };
  for (let round = 0; round < rounds; round++) {
    if (round > 0) await sleep(gapMs);
    const answers = await Promise.all(world.keys.map(async (key) => ({ key, answer: await get(key, nextVisitor(world)) })));
    for (const { key, answer } of answers) {
      t.requests += 1;
      const state = answer.headers.get(CACHE_HEADER) ?? 'none';
      out.states[state] = (out.states[state] ?? 0) + 1;
      expect(leakedSecrets(answer), key).toEqual([]);
      if (answer.status === 200 && sameContent(answer.text, served.get(key))) out.kept += 1;
      else out.lost.push({ key, status: answer.status, body: answer.text.slice(0, 200) });
    }
  }
  if (out.lost.length) t.failed += out.lost.length;
  return out;
}

/** The budget holds: Management API calls since the start are within burst + rate × elapsed minutes. */
async function expectWithinBudget(): Promise<void> {
  const now = await stats();
  const minutes = (Date.now() - startedAt) / 60_000;
  const allowed = Math.floor(config.budget.burst + config.budget.rate_per_minute * minutes) + 1;
  const calls = managementCalls(now);
  console.log(`upstream: ${calls} Management API calls in ${minutes.toFixed(2)} min (budget allows ${allowed}); ` +
    `peak ${now.peak_calls_per_minute} accepted in any 60 s (platform limit 60)`);
  expect(calls).toBeLessThanOrEqual(allowed);
  expect(now.peak_calls_per_minute).toBeLessThanOrEqual(60);
}

describe.sequential('with the upstream failing, what was served before is still served', () => {
  it('a 429 storm: cached keys answer 200 with the same content, the upstream is left alone while it asks', async () => {
    await setFaults({ force_429: true, retry_after_seconds: 5 });
    t.faults += 1;
    const before = await stats();
    const round = await readEverything(4, 1200);
    const after = await stats();
    console.log(`429 storm: ${world.keys.length} keys × 4 rounds, kept ${round.kept}, lost ${round.lost.length}, ` +
      `cache states ${JSON.stringify(round.states)}, upstream 429s sent ${after.rate_limited - before.rate_limited}`);
    expect(round.lost).toEqual([]);
    // After the first 429 the budget pauses for the Retry-After: the storm does not turn into a stream of calls.
    expect(managementCalls(after) - managementCalls(before)).toBeLessThanOrEqual(config.budget.burst + 5);
    await setFaults({});
    await expectWithinBudget();
  });

  it('a 30 % upstream error rate: cached keys answer 200 with the same content, no 429 or 5xx reaches a visitor', async () => {
    await sleep(5_500); // the pause the 429 storm asked for ends
    await setFaults({ error_rate: 0.3 });
    t.faults += 1;
    const before = await stats();
    const round = await readEverything(4, 1200);
    const after = await stats();
    console.log(`30 % errors: kept ${round.kept}, lost ${round.lost.length}, states ${JSON.stringify(round.states)}, ` +
      `upstream faults injected ${after.faults_injected - before.faults_injected}`);
    expect(round.lost).toEqual([]);
    expect(after.rate_limited - before.rate_limited).toBe(0);
    await setFaults({});
    await expectWithinBudget();
  });

  it('an outage across the whole scenario: every key served before is still served (stale); new keys get a v2 502/504', async () => {
    // Background refreshes still queued from the last scenario end (max_wait_ms) and the budget refills, so what the
    // new keys meet is the outage, not a queue.
    await sleep(7_000);
    await setFaults({ outage: true });
    t.faults += 1;
    const fresh: Array<{ key: string; status: number; v2: boolean; code: string | null; leaks: string[] }> = [];
    for (const key of world.unseen) {
      const answer = await get(key, nextVisitor(world));
      t.requests += 1;
      fresh.push({ key, status: answer.status, v2: isV2Error(answer.text), code: errorCode(answer.text), leaks: leakedSecrets(answer) });
    }
    const wrong = fresh.filter((a) => ![502, 504].includes(a.status) || !a.v2 || a.code !== 'upstream_unavailable' || a.leaks.length);
    t.failed += wrong.length;
    console.log(`outage: ${fresh.length} new keys answered ${fresh.map((a) => `${a.status} ${a.code}`).join(', ')}`);
    const round = await readEverything(6, 1500);
    console.log(`outage: ${world.keys.length} previously served keys × 6 rounds over ~8 s: kept ${round.kept}, ` +
      `stopped being served ${round.lost.length}; cache states ${JSON.stringify(round.states)}`);
    expect(round.lost).toEqual([]);
    expect(round.states.STALE ?? 0).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
    await setFaults({});
    await expectWithinBudget();
  });
});
