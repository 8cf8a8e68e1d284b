/**
 * Registers a tag unless the page already has it, so the embed script (or two copies of it, or the script plus a
 * bundled copy) can load twice on one page without `customElements.define` throwing.
 */
export function define(tag: string, element: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, element);
}
