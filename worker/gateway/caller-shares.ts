/**
 * Each gateway caller's share of the upstream budget, for the `svc-request-limit` / `svc-request-remaining` headers it
 * receives: the budget's rate split evenly between the callers active in the last minute, minus what this caller
 * spent in that minute. The lanes enforce fairness; these figures let a well-behaved client pace itself.
 */
export interface CallerShare {
  limit: number;
  remaining: number;
}

export const SHARE_WINDOW_MS = 60_000;
const MAX_CALLERS = 1000;

export class CallerShares {
  private readonly calls = new Map<string, number[]>();

  record(caller: string, now: number): void {
    const times = this.calls.get(caller) ?? [];
    times.push(now);
    this.calls.delete(caller);
    this.calls.set(caller, times);
    this.prune(now);
  }

  figures(caller: string, ratePerMinute: number, now: number): CallerShare {
    this.prune(now);
    const active = this.calls.size + (this.calls.has(caller) ? 0 : 1);
    const limit = Math.max(1, Math.floor(ratePerMinute / active));
    const used = this.calls.get(caller)?.length ?? 0;
    return { limit, remaining: Math.max(0, limit - used) };
  }

  clear(): void {
    this.calls.clear();
  }

  private prune(now: number): void {
    const since = now - SHARE_WINDOW_MS;
    for (const [caller, times] of this.calls) {
      while (times.length > 0 && times[0]! <= since) times.shift();
      if (times.length === 0) this.calls.delete(caller);
    }
    // Oldest-active first (Map order follows the last call), so a flood of one-off callers cannot grow this forever.
    while (this.calls.size > MAX_CALLERS) this.calls.delete(this.calls.keys().next().value!);
  }
}
