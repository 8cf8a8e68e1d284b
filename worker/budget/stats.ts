/**
 * The budget object's counters (for operators and tests), and the ledger behind `served`: which upstream calls have
 * reached a caller. Pure: no I/O, no timers.
 */
import type { Api, BudgetResult } from './calls.ts';

export interface BudgetStats {
  /** Upstream requests started, per API. */
  granted: Record<Api, number>;
  /** Calls answered from another caller's identical in-flight request. */
  shared: number;
  /** Calls refused for want of a slot. */
  refused: number;
  queued: Record<Api, number>;
  pausedUntil: Record<Api, number>;
  /** Upstream calls whose result reached a caller: a direct call's, or one a finished load used. */
  served: number;
  /** Tokens reserved by loads, and given back unspent (at the end of a load or when its reservation expired). */
  reserved: number;
  refunded: number;
  /** Tokens reserved now and not spent yet, per API. */
  held: Record<Api, number>;
  loads: { admitted: number; joined: number; refused: number; finished: number; abandoned: number; expired: number };
}

export function emptyStats(): BudgetStats {
  return {
    granted: { v2: 0, geo: 0 }, shared: 0, refused: 0, queued: { v2: 0, geo: 0 }, pausedUntil: { v2: 0, geo: 0 },
    served: 0, reserved: 0, refunded: 0, held: { v2: 0, geo: 0 },
    loads: { admitted: 0, joined: 0, refused: 0, finished: 0, abandoned: 0, expired: 0 },
  };
}

/** One upstream call's outcome and which call it was (null when none was made: refused, unconfigured). */
export interface Performed {
  result: BudgetResult;
  serial: number | null;
}

/** Upstream calls remembered as not yet served (for `served`); the oldest are forgotten beyond this. */
const UNSERVED_LIMIT = 10_000;

/** Upstream calls made, numbered; those made and not yet served, oldest first. */
export class ServedLedger {
  private serial = 0;
  private readonly unserved = new Set<number>();

  /** Numbers a new upstream call, not served yet. */
  open(): number {
    const serial = ++this.serial;
    this.unserved.add(serial);
    if (this.unserved.size > UNSERVED_LIMIT) this.unserved.delete(this.unserved.values().next().value!);
    return serial;
  }

  /** True the first time the call's result reaches a caller. */
  serve(serial: number | null): boolean {
    return serial !== null && this.unserved.delete(serial);
  }

  /** Forgets what is unserved; the numbering goes on (a call still running keeps a number nobody reuses). */
  clear(): void {
    this.unserved.clear();
  }
}
