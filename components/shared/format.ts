/**
 * Numbers, durations and dates in the page's language: the closest `[lang]` ancestor (crossing shadow roots), then
 * the document's `lang`, then the browser's. On the server (Lit SSR), which has no document around the element: the
 * element's own `lang`, else English, which the browser's first render must match to hydrate
 * (components/docs/server-rendering.md, "Server-side rendering (Lit SSR)").
 */
export function pageLang(node: Node): string {
  // Up through the elements (from a shadow root to its host) to the document, which has no `getAttribute`. On the
  // server an element has no parent: its own `lang` is all there is.
  for (let current: Node | null | undefined = node; current;
    current = current.parentNode ?? (current as ShadowRoot).host) {
    const lang = (current as Element).getAttribute?.('lang')?.trim();
    if (lang) return supported(() => lang);
  }
  // On the server, `document` throws (a ReferenceError): English, as `supported` answers for anything unreadable.
  return supported(() => document.documentElement.lang || navigator.language || 'en');
}

/** The language `lang()` names, in its canonical spelling; English when it names none, or throws. */
function supported(lang: () => string): string {
  try {
    return Intl.getCanonicalLocales(lang())[0] ?? 'en';
  } catch {
    return 'en';
  }
}

/**
 * Formatters by language (and options): building one costs far more than using it (a new `Intl.DateTimeFormat` per
 * card was the largest single cost of rendering a playlist page).
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const listFormats = new Map<string, Intl.ListFormat>();
function cachedFormat<F>(formats: Map<string, F>, key: string, create: () => F): F {
  let format = formats.get(key);
  if (!format) formats.set(key, (format = create()));
  return format;
}

export function formatNumber(value: number, lang: string, options: Intl.NumberFormatOptions = {}): string {
  return cachedFormat(numberFormats, `${lang}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(lang, options))
    .format(value);
}

/** A clock-style duration, `4:05` or `1:02:03`, with the locale's digits. */
export function formatClock(seconds: number, lang: string): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => formatNumber(n, lang, { minimumIntegerDigits: 2, useGrouping: false });
  const one = (n: number) => formatNumber(n, lang, { useGrouping: false });
  return h > 0 ? `${one(h)}:${two(m)}:${two(s)}` : `${one(m)}:${two(s)}`;
}

/** A spoken duration, "4 minutes, 5 seconds", for screen readers. */
export function formatSpokenDuration(seconds: number, lang: string): string {
  const total = Math.max(0, Math.round(seconds));
  const parts: Array<[number, string]> = [
    [Math.floor(total / 3600), 'hour'], [Math.floor((total % 3600) / 60), 'minute'], [total % 60, 'second'],
  ];
  const words = parts.filter(([n]) => n > 0)
    .map(([n, unit]) => formatNumber(n, lang, { style: 'unit', unit, unitDisplay: 'long' }));
  if (words.length === 0) return formatNumber(0, lang, { style: 'unit', unit: 'second', unitDisplay: 'long' });
  return cachedFormat(listFormats, lang, () => new Intl.ListFormat(lang, { style: 'narrow', type: 'unit' })).format(words);
}

/**
 * A publish date, as the day it is in UTC (what the platform records, and the JSON-LD's `uploadDate` says): the same
 * wherever it is formatted, so a server's render (whose clock is UTC, often) and the browser's first render agree.
 */
export function formatDate(iso: string, lang: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return cachedFormat(dateFormats, lang, () => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }))
    .format(date);
}
