/** What the console's panels share: the view of the console they render in, and how a failure reads. */
import { html, nothing, type ReactiveControllerHost } from 'lit';
import { AdminError, type AdminClient, type ConsoleConfig, type Metrics } from './client.ts';

/** The console as its panels see it (`<reel-console>` implements it). */
export interface ConsoleView extends ReactiveControllerHost {
  readonly client: AdminClient;
  readonly config: ConsoleConfig | null;
  readonly metrics: Metrics | null;
  /** The metrics window, in minutes (60, 360 or 1440). */
  readonly minutes: number;
  readonly language: string;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** A failed call in words an operator can act on (a 401 never gets here: the console returns to sign-in). */
export function failure(error: unknown): string {
  if (error instanceof AdminError) {
    if (error.code === 'csrf_refused') return 'The worker refused the request as cross-site. Reload the console and try again.';
    if (error.code === 'rate_limited') {
      return `Too many attempts. Try again${error.retryAfter ? ` in ${error.retryAfter} seconds` : ' later'}.`;
    }
    return error.status ? `${error.message} (${error.status} ${error.code})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A call aborted on purpose (a newer one replaced it). */
export function aborted(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** An expired session is handled by the console itself (back to sign-in); panels show nothing for it. */
export function expired(error: unknown): boolean {
  return error instanceof AdminError && error.status === 401;
}

export function errorNote(error: unknown) {
  return error == null || expired(error) ? nothing : html`<p class="note error" role="alert">${failure(error)}</p>`;
}
