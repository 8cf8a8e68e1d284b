/**
 * What every reelgate element is beyond a `LitElement`: it speaks the visitor's language (i18n/localize.ts). Its
 * renders wait for that language's words, so the first is already in it, and a page or an element may give its own.
 */
import { LitElement, type PropertyDeclarations } from 'lit';
import { hosts, type Messages, whenReady } from './i18n/localize.ts';

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
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    hosts.delete(this);
  }

  /** Its first render, and every one after a language change, waits for that language's words. */
  protected override scheduleUpdate(): void | Promise<void> {
    return whenReady(this, () => super.scheduleUpdate());
  }
}
