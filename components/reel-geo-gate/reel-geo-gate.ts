import { html, type PropertyDeclarations, nothing } from 'lit';
import type { GateResponse } from '../../worker/contract/public-api.ts';
import { fetchGate, ReelApiError } from '../shared/api.ts';
import { emit, type GateDecisionReason, ReelGateDecisionEvent } from '../shared/events.ts';
import { msg } from '../shared/i18n/localize.ts';
import { HELD, type Holder, IDLE, Load, reportError } from '../shared/load.ts';
import { ReelElement } from '../shared/reel-element.ts';
import { tokens } from '../shared/theme.ts';
import { describeReason, useRefusal } from './reasons.ts';
import { geoGateStyles } from './reel-geo-gate.styles.ts';

export type GateState = 'idle' | 'pending' | 'allowed' | 'denied';

interface Decision {
  allowed: boolean;
  reason: GateDecisionReason;
  country: string | null;
}

/**
 * Shows its content only to visitors a geo policy of the worker allows. While it asks, the `pending` slot shows; when
 * allowed, the default slot; when denied, the `denied` slot and the reason in words. reelgate's elements inside it
 * (a `<reel-playlist>`, say) load nothing until it allows, so they never load anything for a visitor who is refused;
 * other content can go in a `<template>` child, which is only created after an allowed decision. When the worker cannot be reached (network failure, 5xx), the
 * gate opens or stays closed as `fail` says; a refused question (an unknown policy) always stays closed.
 *
 * Its block size never shrinks once a policy is set, so the page under it does not move when it decides: while
 * asking, the pending message, the denied message (with two lines kept for the reason) and content put inside it
 * directly share one grid cell, the last two laid out but invisible, so the gate is already as tall as the largest;
 * once decided it keeps at least that height. Content stamped from a `<template>` does not exist before it is allowed,
 * so its size cannot be kept: give the gate a `min-block-size` in the page for it (or put the content in directly).
 *
 * The worker enforces its policies on its own routes too: the gate decides what the page shows, not who may fetch.
 *
 * @tag reel-geo-gate
 * @summary Geo-gated content.
 *
 * @event {ReelGateDecisionEvent} reel-gate-decision - The gate decided. `event.allowed`, `event.reason`, `event.country`, `event.policy`,
 *   `event.failed` (true when the decision came from `fail`).
 * @event {ReelErrorEvent} reel-error - The worker could not be asked. `event.status`, `event.code`, `event.description`.
 *
 * @slot - The gated content (shown when allowed; reelgate's elements in it wait for the decision). A `<template>` child
 *   is stamped here only when allowed.
 * @slot pending - Shown while asking (default: a spinner and "Checking availability…", in the visitor's language).
 * @slot denied - Shown when denied, above the reason (default: "This content isn't available where you are.", in the
 *   visitor's language).
 *
 * @csspart pending - The default pending indicator.
 * @csspart denied - The box around the denied slot and the reason.
 * @csspart reason - The reason, in words.
 *
 * @cssproperty --reel-color-muted - Reason and pending text colour.
 * @cssproperty --reel-color-accent - Spinner colour.
 * @cssproperty --reel-font - Font family.
 */
export class ReelGeoGate extends ReelElement implements Holder {
  static override styles = [tokens, geoGateStyles];
  static override properties: PropertyDeclarations = {
    policy: {},
    fail: {},
    endpoint: {},
    state: { reflect: true },
    reason: { reflect: true },
    data: { type: Object },
  };

  /** The policy name, as configured in the worker (e.g. `europe`). */
  policy = '';
  /** What to do when the worker cannot be reached: `closed` (default, deny) or `open` (show the content). */
  fail: 'open' | 'closed' = 'closed';
  /** Another worker to ask (default: the origin the bundle was loaded from). */
  endpoint: string | null = null;
  /** `pending`, `allowed` or `denied` (`idle` without a policy). Read-only. */
  state: GateState = 'idle';
  /** The decision's reason code, once decided. Read-only. */
  reason: GateDecisionReason | null = null;
  /**
   * The gate's answer for this visitor when the page has it already (asked on its server, as the visitor, e.g. by
   * `reelgate/server`): decided at once, with no request, by a server-side render and by the browser's first render
   * alike. The `data` attribute takes it as JSON. Read at the first decision only; `recheck()` and a later `policy` ask.
   */
  data?: GateResponse | null;

  private _stamped: ChildNode[] = [];
  /** The block size reached while pending, kept once decided (px). */
  private _keep = 0;


  private readonly _gate = new Load(this, {
    args: () => [this.endpoint, this.policy, this.fail] as const,
    task: async ([endpoint, policy, fail], signal): Promise<Decision | typeof IDLE> => {
      if (!policy) return IDLE;
      // The words of a refusal load beside the question, so they are there by the answer.
      void useRefusal();
      try {
        const answer = await fetchGate(endpoint, policy, signal);
        return { allowed: answer.allowed === true, reason: answer.reason, country: answer.country };
      } catch (error) {
        if (signal.aborted || !(error instanceof ReelApiError)) throw error;
        reportError(this, error);
        if (error.transient) return { allowed: fail === 'open', reason: 'gate_unreachable', country: null };
        return { allowed: false, reason: 'gate_refused', country: null };
      }
    },
    onComplete: (decision) => {
      emit(this, new ReelGateDecisionEvent(this.policy, decision.allowed, decision.reason, decision.country));
    },
    given: () => this.data,
  });

  /** The decision, once made. */
  get decision(): Decision | undefined {
    return this._gate.status === 'complete' ? this._gate.value : undefined;
  }

  /** What it holds waits (shared/load.ts) until it allows, and from the moment it is upgraded. @internal */
  get [HELD](): boolean {
    return this.state !== 'allowed';
  }

  /** Asks the worker again (e.g. after the visitor turned their VPN off). */
  recheck(): Promise<void> {
    return this._gate.run();
  }

  protected override willUpdate(): void {
    // A new question (asked right after this hook) counts as pending: until it is answered, nothing gated shows.
    const status = this._gate.state(!!this.policy);
    const decision = status === 'complete' ? this._gate.value : undefined;
    // Not at the first update: a server-rendered gate's cell (hydration) is what was decided, not a pending one.
    const cell = this.hasUpdated && this.renderRoot.querySelector('.cell');
    if (cell) this._keep = Math.max(this._keep, cell.getBoundingClientRect().height);
    this.state = decision ? (decision.allowed ? 'allowed' : 'denied') : status === 'idle' ? 'idle' : 'pending';
    this.reason = decision?.reason ?? null;
  }

  protected override updated(): void {
    if (this.state !== 'allowed') return this._unstamp();
    this._stamp();
    // Elements put inside directly waited for this ([HELD], shared/load.ts): now they load.
    for (const el of this.querySelectorAll<Element & { requestUpdate?: () => void }>('*')) el.requestUpdate?.();
  }

  /** Creates the `<template>` child's content after it, once. */
  private _stamp(): void {
    if (this._stamped.length) return;
    const template = [...this.children].find((c): c is HTMLTemplateElement => c instanceof HTMLTemplateElement);
    if (!template) return;
    const fragment = document.importNode(template.content, true);
    this._stamped = [...fragment.childNodes];
    template.after(fragment);
  }

  private _unstamp(): void {
    for (const node of this._stamped) node.remove();
    this._stamped = [];
  }

  protected override render() {
    const state = this.state;
    if (state === 'idle') return nothing;
    const pending = state === 'pending';
    // One grid cell: while pending, what either answer can show is laid out under the pending message, invisible.
    return html`
      <div class="cell" .style=${`min-block-size:${this._keep}px`}>
        ${pending ? html`<div><slot name="pending"><div class="pending" part="pending" role="status"><span class="spinner"
          aria-hidden="true"></span>${msg(this, 'checking')}</div></slot></div>` : nothing}
        ${state !== 'denied' ? html`<div class=${pending ? 'off' : ''}><slot></slot></div>` : nothing}
        ${state !== 'allowed' ? html`
          <div class="denied message ${pending ? 'off' : ''}" part="denied" role="status">
            <slot name="denied"><p>${msg(this, 'notHere')}</p></slot>
            <p class="reason" part="reason">${describeReason(this, this.reason ?? 'gate_refused', this.decision?.country ?? null)}</p>
          </div>` : nothing}
      </div>`;
  }
}
