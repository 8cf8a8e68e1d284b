/**
 * What every reelgate element is beyond a `LitElement`: it speaks the visitor's language (i18n/localize.ts), renders
 * again when the page's language changes or its pack arrives, and takes a page's or its own words.
 */
import { LitElement, type PropertyDeclarations } from 'lit';
import { hosts, type Messages, watch } from './i18n/localize.ts';

export class ReelElement extends LitElement {
  static override properties: PropertyDeclarations = {
    messages: { attribute: false },
  };

  /**
   * The element's own words for any of its messages, by id, in whatever language it shows; they win over the page's
   * and the language pack's (components/docs/languages.md).
   */
  messages?: Messages | null;

  override connectedCallback(): void {
    super.connectedCallback();
    hosts.add(this);
    watch();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    hosts.delete(this);
  }
}
