/**
 * Numbers, durations and dates in the page's language: the closest `[lang]` ancestor (crossing shadow roots), then
 * the document's `lang`, then the browser's.
 */

export function pageLang(node: Node): string {
  let current: Node | null = node;
  while (current) {
    if (current instanceof Element && current.hasAttribute('lang')) {
      const lang = current.getAttribute('lang')!.trim();
      if (lang) return supported(lang);
    }
    current = current.parentNode ?? (current instanceof ShadowRoot ? current.host : null);
  }
  return supported(document.documentElement.lang || navigator.language || 'en');
}

function supported(lang: string): string {
  try {
    return Intl.getCanonicalLocales(lang)[0] ?? 'en';
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

export function formatDate(iso: string, lang: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return cachedFormat(dateFormats, lang, () => new Intl.DateTimeFormat(lang, { dateStyle: 'medium' })).format(date);
}

/** A playback rate as the rate menu shows it: `1.5×`. */
export function formatRate(rate: number, lang: string): string {
  return `${formatNumber(rate, lang, { maximumFractionDigits: 2 })}×`;
}
