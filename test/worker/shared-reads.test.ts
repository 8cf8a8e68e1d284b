// Concurrent identical reads in one isolate share one call (worker/cache/shared-reads.ts): how a flood of cold misses
// of one media is one Delivery API call. Followers never await the leader (workerd forbids waits on another request's
// I/O); they look at what it left, and read for themselves when it left nothing to share.
import { afterEach, describe, expect, it } from 'vitest';
import { forgetRecentReads, sharedRead } from '../../worker/cache/shared-reads.ts';
import { ApiError } from '../../worker/http/errors.ts';

const later = <T>(value: T, ms = 30) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const COLD = { waitMs: 1000, acceptRecent: true };

afterEach(() => forgetRecentReads());

describe('shared reads', () => {
  it('concurrent reads of one key make one call, and every reader gets its answer', async () => {
    let calls = 0;
    const read = () => { calls += 1; return later({ n: calls }); };
    const answers = await Promise.all(Array.from({ length: 20 }, () => sharedRead('k', COLD, read)));
    expect(calls).toBe(1);
    expect(answers.every((a) => a.n === 1)).toBe(true);
    // Another key is another question.
    await sharedRead('other', COLD, read);
    expect(calls).toBe(2);
  });

  it('a leader\'s refusal (an ApiError) is every follower\'s; any other failure is not shared', async () => {
    let calls = 0;
    const refused = () => { calls += 1; return later(null).then(() => { throw new ApiError(404, 'not_found', 'No such media.'); }); };
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => sharedRead('gone', COLD, refused)));
    expect(calls).toBe(1);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).code === 'not_found')).toBe(true);

    // A leader that fails of its own (cancelled with its visitor, say) leaves the followers to read for themselves.
    let attempt = 0;
    const flaky = () => { attempt += 1; return attempt === 1 ? later(null).then(() => { throw new Error('cancelled'); }) : later('ok'); };
    const [first, ...rest] = await Promise.allSettled(Array.from({ length: 3 }, () => sharedRead('flaky', COLD, flaky)));
    expect(first!.status).toBe('rejected');
    expect(rest.every((r) => r.status === 'fulfilled' && r.value === 'ok')).toBe(true);
  });

  it('a cold miss takes an answer of the last second; a refresh never does, nor anyone after a purge', async () => {
    let calls = 0;
    const read = () => { calls += 1; return later(calls, 1); };
    expect(await sharedRead('media', COLD, read)).toBe(1);
    expect(await sharedRead('media', COLD, read)).toBe(1);
    expect(await sharedRead('media', { ...COLD, acceptRecent: false }, read)).toBe(2);
    forgetRecentReads();
    expect(await sharedRead('media', COLD, read)).toBe(3);
  });
});
