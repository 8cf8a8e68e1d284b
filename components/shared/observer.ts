/**
 * A `ResizeObserver` or `IntersectionObserver` as a reactive controller: it observes one target at a time, and only
 * while the host is connected (given a `target`, the element it returns at each connection, if any).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

type AnyObserver = ResizeObserver | IntersectionObserver;

export class Observer implements ReactiveController {
  private _observer: AnyObserver | null | undefined;

  constructor(host: ReactiveControllerHost, private readonly _create: () => AnyObserver,
    private readonly _target?: () => Element | null | undefined) {
    host.addController(this);
  }

  hostConnected(): void {
    this.observe(this._target?.());
  }

  hostDisconnected(): void {
    this.observe();
  }

  /** Stops observing, then observes `target` (if given) with a new observer. */
  observe(target?: Element | null): void {
    this._observer?.disconnect();
    this._observer = target && this._create();
    this._observer?.observe(target!);
  }
}
