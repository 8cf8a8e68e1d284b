import type { Messages } from './i18n/types.ts';

/**
 * Page-wide settings a page may set on `window.reelgate` before or after loading the bundle.
 *
 * `devIp`: a documentation address (e.g. `192.0.2.30`) sent as `x-reelgate-dev-ip` so a worker running with
 * DEV_MODE on treats the visitor as coming from there. Only sent when the page sets it: the elements never invent one.
 *
 * `endpoint`: the worker every element on the page calls unless it has its own `endpoint` attribute. Bundler users
 * need it (their copy of the elements was not loaded from the worker, so the bundle's own origin is not the worker's).
 *
 * `messages`: the page's own words for the elements, by language (components/docs/languages.md), read as they render.
 */
export interface ReelgateSettings {
  devIp?: string | null;
  endpoint?: string | null;
  /** The page's own words, by language (a BCP 47 tag): overrides of any message, or a language of its own. */
  messages?: Record<string, Messages>;
}

declare global {
  interface Window {
    reelgate?: ReelgateSettings;
  }
}

export const DEV_IP_HEADER = 'x-reelgate-dev-ip';

export function settings(): ReelgateSettings {
  return (globalThis as { reelgate?: ReelgateSettings }).reelgate ?? {};
}
