/** The console's numbers, sizes and times, in the page's language (shared/format.ts caches the formatters). */
import { formatNumber } from '../shared/format.ts';

export type Unit = 'count' | 'bytes' | 'percent';

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** `1.5 MB`: decimal units (as network figures are), one decimal above bytes. */
export function formatBytes(bytes: number, lang: string): string {
  let value = Math.max(0, bytes);
  let i = 0;
  while (value >= 1000 && i < BYTE_UNITS.length - 1) {
    value /= 1000;
    i++;
  }
  // Intl spells a plain byte "byte"; the short form beside kB, MB… is B.
  if (i === 0) return `${formatNumber(Math.round(value), lang)} B`;
  return formatNumber(value, lang, { style: 'unit', unit: BYTE_UNITS[i], unitDisplay: 'short', maximumFractionDigits: 1 });
}

export function formatValue(value: number, unit: Unit, lang: string): string {
  if (unit === 'bytes') return formatBytes(value, lang);
  if (unit === 'percent') return formatNumber(value, lang, { style: 'percent', maximumFractionDigits: 1 });
  return formatNumber(value, lang, { maximumFractionDigits: 2 });
}

/** `14:05` for a minute, in the page's language and the browser's time zone. */
export function formatMinute(epochSeconds: number, lang: string): string {
  return new Date(epochSeconds * 1000).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' });
}

/** A moment with its date: `5 Jul 2026, 14:05:09`. */
export function formatMoment(iso: string, lang: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A `datetime-local` input's value (the browser's time zone) as an ISO 8601 instant, or '' when empty or invalid. */
export function localToIso(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}
