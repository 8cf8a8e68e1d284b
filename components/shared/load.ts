/**
 * One call to the worker as a reactive controller: what `@lit/task` did for the elements, in the few lines they use,
 * plus the plumbing each element had pasted around it (the status the `state` attribute shows, `reel-error` on
 * failure, the error box with its retry button).
 *
 * With `args`, the call runs on each host update whose args differ (shallowly) from the last run's; without, only
 * through `run()`. A newer run aborts the one in flight (its `AbortSignal` goes into `fetch`), and a stale outcome is
 * dropped, so an old answer never overwrites a newer one. `reset()` cancels and forgets the run in flight.
 *
 * Server-side rendering (Lit SSR calls the host's `willUpdate` and `render`, never a controller's `hostUpdate`): the
 * status `state()` answers is the one `render()` shows, so a server render shows what the browser's first render will
 * (the loading view for a call about to be made), which hydration requires. An answer the page already has (`given`:
 * the elements' `data`, fetched on the publisher's server) is taken at the first load in place of the call, on the
 * server and in the browser alike.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { errorMessage, ReelApiError } from './api.ts';
import { emit, ReelErrorEvent } from './events.ts';
import { english } from './i18n/en.ts';
import { type Localized, msg } from './i18n/localize.ts';

/** What a task returns when there is nothing to ask (an id is missing): the load goes back to `idle`. */
export const IDLE: unique symbol = Symbol();

/** `idle` (nothing asked), `loading`, `complete` or `error`: the words the elements' `state` attributes use. */
export type LoadStatus = 'idle' | 'loading' | 'complete' | 'error';

export interface LoadOptions<A extends readonly unknown[], T> {
  /** The values the call depends on; a change runs it again. */
  args?: () => A;
  task: (args: A, signal: AbortSignal) => Promise<T | typeof IDLE> | T | typeof IDLE;
  onComplete?: (value: T) => void;
  /** Default: `reel-error` from the host. */
  onError?: (error: unknown) => void;
  /**
   * The answer the page already has for the first load (the host's `data`): taken as if it had just arrived, with no
   * call, when the first load is due. Later loads (new args, a retry) call as usual.
   */
  given?: () => T | null | undefined;
}

type Host = ReactiveControllerHost & HTMLElement;

/**
 * What an element that holds the elements inside it answers under (`<reel-geo-gate>`): `true` while they must not
 * load. A load asks the closest element around its host that answers (see `Load`), so it never needs to know that
 * element's tag; the holder updates its descendants when its answer turns to `false`.
 */
export const HELD: unique symbol = Symbol();

/** An element that holds what it contains (see {@link HELD}). */
export interface Holder {
  readonly [HELD]: boolean;
}

export class Load<A extends readonly unknown[], T> implements ReactiveController {
  status: LoadStatus = 'idle';
  value: T | undefined;
  error: unknown;
  private _args: A | undefined;
  private _run = 0;
  private _abort: AbortController | null = null;

  constructor(private readonly _host: Host, private readonly _options: LoadOptions<A, T>) {
    _host.addController(this);
  }

  hostUpdate(): void {
    if (this._options.args && this._changed() && !this._held()) void this.run();
  }

  /**
   * The host's `state` for this load, from its `willUpdate`: a change of args (run right after) counts as loading, and
   * so does the status `render()` shows, unless the first load is given its answer (`given`), which completes it now.
   */
  state(ready: boolean): LoadStatus {
    if (!this._changed()) return this.status;
    if (!ready || this._held()) return 'idle';
    // Given at the first load only: no run has started (a run sets `_args` first), so there is nothing to cancel.
    const given = !this._args && this._options.given?.();
    if (given) {
      this._args = this._options.args!();
      this.value = given;
      this._options.onComplete?.(given);
    }
    return (this.status = given ? 'complete' : 'loading');
  }

  /**
   * Held by the closest element around it that holds what it contains ({@link HELD}: a `<reel-geo-gate>` that has not
   * allowed, yet): no call is made, so a refused visitor's browser asks for nothing gated, whether the content came from
   * a `<template>` or was put there directly (as React and Vue do). The holder updates what it holds once it allows.
   */
  private _held(): boolean | undefined {
    for (let el: Element | null = this._host; (el = el.parentElement);) if (HELD in el) return (el as Holder)[HELD];
  }

  async run(): Promise<void> {
    const args = (this._args = this._options.args?.() ?? ([] as unknown as A));
    this._abort?.abort();
    const controller = (this._abort = new AbortController());
    const run = ++this._run;
    this.status = 'loading';
    this._host.requestUpdate();
    let value: T | typeof IDLE | undefined;
    let failed = false;
    try {
      value = await this._options.task(args, controller.signal);
    } catch (error) {
      failed = true;
      this.error = error;
    }
    if (run !== this._run) return;
    this._abort = null;
    if (value === IDLE) this.status = 'idle';
    else {
      this.value = value;
      this.status = failed ? 'error' : 'complete';
      if (failed) (this._options.onError ?? ((error) => reportError(this._host, error)))(this.error);
      else this._options.onComplete?.(value as T);
    }
    this._host.requestUpdate();
  }

  /** Cancels the run in flight, if any (its outcome is dropped), and goes back to `idle`. */
  reset(): void {
    this._run++;
    this._abort?.abort();
    this._abort = null;
    this.status = 'idle';
  }

  /** The view for the current status; a failed run shows the shared error box, whose "Try again" runs it again. */
  render(views: { idle?: () => unknown; loading: () => unknown; complete: (value: T) => unknown }) {
    switch (this.status) {
      case 'idle': return views.idle ? views.idle() : nothing;
      case 'loading': return views.loading();
      case 'complete': return views.complete(this.value as T);
      default: return errorBox(this._host, this.error, () => this.run());
    }
  }

  private _changed(): boolean {
    const next = this._options.args?.();
    const last = this._args;
    return !!next && (!last || next.some((value, i) => !Object.is(value, last[i])));
  }
}

/** `reel-error` from `host` for a failed call. */
export function reportError(host: EventTarget, error: unknown): void {
  // The event is for the page's code: its description stays in English, whatever the visitor reads.
  const e = error instanceof ReelApiError ? error : new ReelApiError(0, 'unknown_error', english.errorOther);
  emit(host, new ReelErrorEvent(e.status, e.code, e.message));
}

/** The error box every element shows for a failed call, with "Try again" when trying again may help. */
export function errorBox(host: Localized, error: unknown, retry: () => unknown) {
  return html`
    <div class="message error" part="error" role="alert">
      <p>${errorMessage(host, error)}</p>
      ${error instanceof ReelApiError && error.transient
        ? html`<button part="retry" @click=${retry}>${msg(host, 'tryAgain')}</button>` : nothing}
    </div>`;
}
