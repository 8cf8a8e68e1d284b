// The upstream answers, but seconds late. Entries here stay fresh for the whole scenario (project
// `faults-fresh-cache`): cached answers must come from the cache without touching the upstream at all, and a miss must
// end in a v2 504 once the worker's own upstream timeout passes (configured short in vitest.config.mts), never hang.
import { env } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CACHE_HEADER, describeWorld, errorCode, fill, get, isV2Error, leakedSecrets, nextVisitor, printTally, resetSandbox,
  sameContent, setFaults, stats, tally, type Answer, type World,
} from './world.ts';

const config = JSON.parse(env.REELGATE_CONFIG) as {
  sites: Record<string, { url_signing?: unknown }>; policies: Record<string, unknown>; budget: { upstream_timeout_ms: number };
};
/** Well beyond the worker's upstream timeout, so every call that reaches the upstream times out. */
const LATENCY_MS = Math.max(3_000, config.budget.upstream_timeout_ms * 3);
/** Liveness bound, not a speed figure: an answer that takes this long means the request hung. */
const HUNG_AFTER_MS = LATENCY_MS * 4;
const t = tally('faults-fresh-cache (upstream latency)');

let world: World;
let served: Map<string, string>;

beforeAll(async () => {
  await resetSandbox();
  world = await describeWorld(config.sites);
  served = await fill(world, Object.keys(config.policies), 150_000);
});

afterAll(async () => {
  await setFaults({});
  printTally(t);
});

async function answerOrHang(path: string): Promise<Answer | 'hung'> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), HUNG_AFTER_MS);
  });
  const answer = await Promise.race([get(path, nextVisitor(world)), hung]);
  if (timer !== null) clearTimeout(timer);
  return answer;
}

describe.sequential(`upstream latency of ${LATENCY_MS} ms (worker timeout ${config.budget.upstream_timeout_ms} ms)`, () => {
  it('cached keys are answered from the cache (HIT) with the same content and no upstream call', async () => {
    await setFaults({ latency_ms: LATENCY_MS });
    t.faults += 1;
    const before = await stats();
    const answers = await Promise.all(world.keys.map(async (key) => ({ key, answer: await get(key, nextVisitor(world)) })));
    const after = await stats();
    const wrong = answers
      .filter(({ key, answer }) => answer.status !== 200 || answer.headers.get(CACHE_HEADER) !== 'HIT' ||
        !sameContent(answer.text, served.get(key)) || leakedSecrets(answer).length > 0)
      .map(({ key, answer }) => ({ key, status: answer.status, cache: answer.headers.get(CACHE_HEADER) }));
    t.requests += answers.length;
    t.failed += wrong.length;
    console.log(`latency: ${answers.length} cached keys, ${answers.length - wrong.length} answered HIT with the same ` +
      `content, upstream calls meanwhile: ${after.total_calls - before.total_calls}`);
    expect(wrong).toEqual([]);
    expect(after.total_calls - before.total_calls).toBe(0);
  });

  it('misses end in a v2 504 upstream_unavailable, never hang, and leak nothing', async () => {
    // One at a time: each starts one upstream call that the worker abandons at its timeout.
    for (const key of world.unseen) {
      const answer = await answerOrHang(key);
      t.requests += 1;
      if (answer === 'hung') {
        t.failed += 1;
        expect.fail(`${key} had no answer after ${HUNG_AFTER_MS} ms`);
      }
      const seen = { key, status: answer.status, v2: isV2Error(answer.text), code: errorCode(answer.text), leaks: leakedSecrets(answer) };
      if (seen.status !== 504 || !seen.v2 || seen.code !== 'upstream_unavailable' || seen.leaks.length) t.failed += 1;
      expect(seen).toEqual({ key, status: 504, v2: true, code: 'upstream_unavailable', leaks: [] });
    }
  });

  it('once the upstream is quick again, the same misses are served', async () => {
    await setFaults({});
    for (const key of world.unseen) {
      let answer = await get(key, nextVisitor(world));
      // The budget may ask for a moment after the abandoned calls; a visitor would retry after Retry-After. The bound
      // is liveness (a loaded machine refills no faster), not speed.
      for (let tries = 0; answer.status === 429 && tries < 30; tries++) {
        const wait = Math.max(1, Number(answer.headers.get('retry-after')) || 1);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        answer = await get(key, nextVisitor(world));
      }
      t.requests += 1;
      if (answer.status !== 200) t.failed += 1;
      expect({ key, status: answer.status }).toEqual({ key, status: 200 });
    }
  });
});
