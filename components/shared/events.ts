/**
 * The elements' events: typed `Event` subclasses that bubble and cross shadow roots, declared in
 * `GlobalEventHandlersEventMap` so `addEventListener('reel-select', (e) => e.mediaId)` is typed for page code.
 */
import type { FeedItem, FeedResponse, GateReason } from '../../worker/contract/public-api.ts';

const init: EventInit = { bubbles: true, composed: true };

/** A playlist card was chosen (click, Enter or Space). */
export class ReelSelectEvent extends Event {
  static readonly type = 'reel-select';
  constructor(readonly mediaId: string, readonly item: FeedItem) {
    super(ReelSelectEvent.type, init);
  }
}

/** A playlist page arrived (the first, or one more after "load more"). */
export class ReelLoadEvent extends Event {
  static readonly type = 'reel-load';
  constructor(readonly feed: FeedResponse, readonly items: readonly FeedItem[]) {
    super(ReelLoadEvent.type, init);
  }
}

/**
 * A reason the gate gives, or `gate_unreachable` when the worker could not be asked (network failure or 5xx) and the
 * gate fell back on its `fail` attribute, or `gate_refused` when the worker refused the question (e.g. an unknown
 * policy).
 */
export type GateDecisionReason = GateReason | 'gate_unreachable' | 'gate_refused';

/** A geo gate decided: `allowed` tells whether its content is shown. */
export class ReelGateDecisionEvent extends Event {
  static readonly type = 'reel-gate-decision';
  constructor(
    readonly policy: string,
    readonly allowed: boolean,
    readonly reason: GateDecisionReason,
    readonly country: string | null,
  ) {
    super(ReelGateDecisionEvent.type, init);
  }

  /** True when the decision came from the `fail` attribute rather than the worker. */
  get failed(): boolean {
    return this.reason === 'gate_unreachable' || this.reason === 'gate_refused';
  }
}

/** A call to the worker failed; the element shows its error state. `status` is 0 when the worker was unreachable. */
export class ReelErrorEvent extends Event {
  static readonly type = 'reel-error';
  constructor(readonly status: number, readonly code: string, readonly description: string) {
    super(ReelErrorEvent.type, init);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'reel-select': ReelSelectEvent;
    'reel-load': ReelLoadEvent;
    'reel-gate-decision': ReelGateDecisionEvent;
    'reel-error': ReelErrorEvent;
  }
}

/**
 * Dispatches one of the events above. (Going through here also keeps the manifest analyzer from guessing event names
 * from constructor arguments: the manifest lists exactly the `@event`s in each class's JSDoc.)
 */
export function emit(target: EventTarget, event: Event): boolean {
  return target.dispatchEvent(event);
}

