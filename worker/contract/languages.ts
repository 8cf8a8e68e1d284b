/**
 * Which of the languages there are fits the one a visitor asks for: shared by the elements (the page's `lang`) and the
 * worker's own pages (`?lang=`, `Accept-Language`), so both pick the same.
 */

/**
 * The language of `available` that fits `wanted` best (the same tag, else the same language written in the same script:
 * `de-AT` takes `de`, `pt-PT` takes `pt-BR`, `zh-TW` does not take the Simplified `zh-CN`), and `wanted` as a canonical
 * tag; null when none fits, or `wanted` is no language tag.
 */
export function bestFit(wanted: string, available: readonly string[]): [string, string] | null {
  try {
    const want = new Intl.Locale(wanted);
    const tag = want.toString();
    const same = (a: string) => {
      try {
        const have = new Intl.Locale(a).maximize();
        return have.language === want.maximize().language && have.script === want.maximize().script;
      } catch {
        return false; // a page's own language that is no language tag fits nothing
      }
    };
    const fit = available.includes(tag) ? tag : available.find(same);
    return fit ? [fit, tag] : null;
  } catch {
    return null;
  }
}

/** The languages an `Accept-Language` header asks for, most wanted first (`*` and `q=0` left out). */
export function acceptedLanguages(header: string | null): string[] {
  return (header ?? '').split(',').map((part, order) => {
    const [tag = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), order };
  }).filter(({ tag, weight }) => tag && tag !== '*' && weight > 0 && weight <= 1)
    .sort((a, b) => b.weight - a.weight || a.order - b.order).map(({ tag }) => tag).slice(0, 8);
}
