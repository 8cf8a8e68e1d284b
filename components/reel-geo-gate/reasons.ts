/**
 * A gate decision's reason in the visitor's language. Why the gate could not decide is built in (it must be said even
 * when the worker cannot be reached); why a location is refused comes with the refusal's chunk (refusal.ts).
 */
import type { GateDecisionReason } from '../shared/events.ts';
import { lazyPart, localeOf, type Localized, msg } from '../shared/i18n/localize.ts';
import { loadRefusal } from './refusal-chunk.ts';

/** The refusal's chunk; until it loads (or if it cannot), a location's reason is not said: the headline still is. */
export const useRefusal = lazyPart(loadRefusal, (refusal) => refusal.refusalEnglish);

/**
 * `reason` in words. A location's needs the refusal's chunk, asked for as the gate asked its question: until it is
 * there (a server render given its decision, hydrating), nothing, in the two lines the reason keeps, and the gate
 * renders again when it arrives.
 */
export function describeReason(host: Localized, reason: GateDecisionReason, country: string | null): string {
  if (reason === 'gate_unreachable' || reason === 'gate_refused') return msg(host, reason);
  const words = useRefusal();
  if (words instanceof Promise) {
    void words.then((loaded) => loaded && host.requestUpdate());
    return '';
  }
  return words.describeRefusal((id, values) => msg(host, id, values), localeOf(host),
    reason as keyof typeof words.refusalEnglish, country);
}
