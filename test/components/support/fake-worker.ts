/**
 * Stands in for the edge worker inside the page: replaces `window.fetch`, answers the worker's routes with bodies
 * typed by worker/public-api.ts, records every call, and can hold an answer back to stage races. The elements' own
 * code path (api client, Task, abort) runs unchanged; only the network is replaced.
 */
import type { ErrorResponse } from '../../../worker/contract/public-api.ts';

export interface Call {
  url: URL;
  headers: Headers;
  signal: AbortSignal | null;
}

type Answer = Response | Promise<Response>;
type Handler = (url: URL, call: Call) => Answer;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export function apiError(status: number, code: string, description: string): Response {
  const body: ErrorResponse = { errors: [{ code, description }] };
  return json(body, status);
}

/** An answer to give later: `release(response)` resolves the held fetch. */
export interface Held {
  promise: Promise<Response>;
  release(response: Response): void;
}

export function hold(): Held {
  let release!: (response: Response) => void;
  const promise = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

export class FakeWorker {
  readonly calls: Call[] = [];
  private readonly routes: Array<{ pattern: RegExp; handler: Handler }> = [];
  private original: typeof fetch | null = null;

  /** Answers GET requests whose path matches `pattern` (later routes win). */
  on(pattern: RegExp, handler: Handler): this {
    this.routes.unshift({ pattern, handler });
    return this;
  }

  /** Calls whose path matches. */
  callsTo(pattern: RegExp): Call[] {
    return this.calls.filter((call) => pattern.test(call.url.pathname));
  }

  install(): this {
    this.original = window.fetch;
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => this.handle(input, init);
    return this;
  }

  restore(): void {
    if (this.original) window.fetch = this.original;
    this.original = null;
  }

  private handle(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const call: Call = { url, headers: new Headers(init?.headers), signal: init?.signal ?? null };
    this.calls.push(call);
    const route = this.routes.find((r) => r.pattern.test(url.pathname));
    const answer: Promise<Response> = route
      ? Promise.resolve(route.handler(url, call))
      : Promise.resolve(apiError(404, 'not_found', 'No such route.'));
    const signal = call.signal;
    if (!signal) return answer;
    // Like the real fetch: an abort rejects the call at once, whatever the server does later.
    return new Promise<Response>((resolve, reject) => {
      const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      answer.then(resolve, reject);
    });
  }
}
