/**
 * Concurrent identical reads in one isolate share one call: a flood of cold misses of one media (or of the feed every
 * request reads for membership) is one call to the platform's Delivery API, not one per visitor. (The Management
 * API's reads are shared inside the budget object; Delivery API calls never pass through it.)
 *
 * workerd refuses a request's wait on I/O another request started, and a request woken by another's promise could be
 * left waiting when that one is cancelled. So a follower never awaits the leader: the leader leaves its answer (plain
 * data, or the ApiError it ended with) in a table, and each follower looks at the table on a timer of its own, as the
 * meter's waiters do (meter.ts). A leader that ends with anything else (cancelled with its visitor, say), or has not
 * answered by the deadline, shares nothing: each follower then reads for itself.
 *
 * An answer is kept a second after it came (`RECENT_MS`) for cold misses (`acceptRecent`): a media load makes its
 * Management call after its delivery call, and the visitors arriving meanwhile find neither a flight nor a cache
 * entry yet. A refresh of a held entry never takes a kept answer, and a purge (or `clearMemoryCache`) forgets them.
 */
import { ApiError } from '../http/errors.ts';
import { MemoryCache } from './memory.ts';

interface Flight<T> {
  settled: boolean;
  value?: T;
  error?: ApiError;
}

const flights = new Map<string, Flight<unknown>>();
const recent = new MemoryCache<unknown>();
/** How often a follower looks again: a delivery answer takes tens of milliseconds or more. */
const LOOK_AGAIN_MS = 10;
const RECENT_MS = 1000;

export interface SharedReadOptions {
  /** How long a follower waits for the leader's answer before reading for itself. */
  waitMs: number;
  /** Whether an answer of the last second will do (a cold miss), or only a read from now on (a refresh). */
  acceptRecent: boolean;
}

/** `read()` once per `key` at a time in this isolate. */
export async function sharedRead<T>(key: string, { waitMs, acceptRecent }: SharedReadOptions, read: () => Promise<T>): Promise<T> {
  const kept = acceptRecent ? recent.get(key, Date.now()) : undefined;
  if (kept !== undefined) return kept as T;
  const leading = flights.get(key) as Flight<T> | undefined;
  if (leading) {
    const deadline = Date.now() + waitMs;
    while (!leading.settled && Date.now() < deadline) await new Promise<void>((resolve) => setTimeout(resolve, LOOK_AGAIN_MS));
    if (leading.settled && 'value' in leading) return leading.value as T;
    if (leading.settled && leading.error) throw leading.error;
    return read();
  }
  const flight: Flight<T> = { settled: false };
  flights.set(key, flight);
  try {
    const value = await read();
    flight.value = value;
    recent.set(key, value, RECENT_MS, Date.now());
    return value;
  } catch (error) {
    if (error instanceof ApiError) flight.error = error;
    throw error;
  } finally {
    flight.settled = true;
    flights.delete(key);
  }
}

/** Forgets the answers kept for cold misses (a purge, or a test that changed the upstream behind the worker's back). */
export function forgetRecentReads(): void {
  recent.clear();
}
