/** Small helpers for reaching into the elements' shadow roots. */
import { aTimeout, waitUntil } from '@open-wc/testing';

export function shadow(el: Element): ShadowRoot {
  if (!el.shadowRoot) throw new Error(`${el.localName} has no shadow root`);
  return el.shadowRoot;
}

export function $(el: Element, selector: string): HTMLElement | null {
  return shadow(el).querySelector<HTMLElement>(selector);
}

export function $$(el: Element, selector: string): HTMLElement[] {
  return [...shadow(el).querySelectorAll<HTMLElement>(selector)];
}

/** Waits until the element reflects `state`. */
export async function untilState(el: Element, state: string): Promise<void> {
  await waitUntil(() => el.getAttribute('state') === state, `state never became ${state} (is ${el.getAttribute('state')})`,
    { timeout: 5000 });
  await (el as Element & { updateComplete?: Promise<unknown> }).updateComplete;
}

/** Lets pending promise callbacks and one Lit update run. */
export async function settle(): Promise<void> {
  await aTimeout(0);
  await aTimeout(0);
}

/** The next event of a type, typed by `GlobalEventHandlersEventMap` (so `reel-*` events carry their fields). */
export function nextEvent<K extends keyof GlobalEventHandlersEventMap>(target: EventTarget, type: K)
  : Promise<GlobalEventHandlersEventMap[K]> {
  return new Promise((resolve) => {
    target.addEventListener(type, (event) => resolve(event as GlobalEventHandlersEventMap[K]), { once: true });
  });
}
