/**
 * What both clients do around a call: a timeout through `AbortSignal` combined with the caller's signal, a transport
 * that may be swapped (the worker routes calls through its budget), and failures turned into `UpstreamRequestError`.
 */
import { GeoApiError, UpstreamRequestError, V2ApiError } from './errors.ts';

export type Transport = (request: Request) => Promise<Response>;

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Per-call options every client method accepts as its last argument. */
export interface CallOptions {
  /** The caller's own cancellation (e.g. the visitor went away). Its abort reason is rethrown as is. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

export function checkTimeout(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError('timeoutMs must be a positive number.');
  return value;
}

export interface CallSignal {
  signal: AbortSignal;
  timeout: AbortSignal;
  caller: AbortSignal | undefined;
}

export function callSignal(timeoutMs: number, caller: AbortSignal | undefined): CallSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return { signal: caller ? AbortSignal.any([timeout, caller]) : timeout, timeout, caller };
}

/**
 * Runs `work`, failing as soon as the signal aborts even when a custom transport ignores the signal. A caller's abort
 * surfaces as the caller's reason; our timeout as `UpstreamRequestError('timeout')`; anything else as `network`.
 */
export async function guarded<T>(call: CallSignal, work: () => Promise<T>, what: string): Promise<T> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(call, what));
    if (call.signal.aborted) onAbort();
    else call.signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {}); // the race below observes it; this keeps an unused rejection quiet
  try {
    return await Promise.race([work(), aborted]);
  } catch (error) {
    // Answers we already understood (an API error, a refused redirect, an unreadable body) pass through as they are.
    if (error instanceof UpstreamRequestError || error instanceof V2ApiError || error instanceof GeoApiError) throw error;
    if (call.signal.aborted) throw abortError(call, what, error);
    throw new UpstreamRequestError('network', `${what}: the upstream could not be reached.`, null, { cause: error });
  } finally {
    if (onAbort) call.signal.removeEventListener('abort', onAbort);
  }
}

function abortError(call: CallSignal, what: string, cause?: unknown): unknown {
  if (call.caller?.aborted) return call.caller.reason;
  return new UpstreamRequestError('timeout', `${what}: no answer in time.`, null, { cause });
}

export function isRedirect(response: Response): boolean {
  // `opaqueredirect` is what browsers hand back for redirect: 'manual' (status 0).
  return (response.type as string) === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/** Drops a body we will not read, so the connection can be reused. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}

export function trimBaseUrl(baseUrl: string, option: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`${option} must be an absolute http(s) URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${option} must be an http(s) URL.`);
  if (url.search || url.hash) throw new TypeError(`${option} must not carry a query or fragment.`);
  return url.href.replace(/\/+$/, '');
}
