/**
 * Why a location is refused, in words a visitor understands: the gate's lazily loaded part in the embed
 * (refusal-chunk.ts), asked for as the gate asks its question, so it is there by the answer. It imports no catalogue:
 * the gate hands it its words in the visitor's language (country names by `Intl.DisplayNames`).
 */
import type { MessageId, Values } from '../shared/i18n/types.ts';
import { refusalEnglish } from './refusal-words.ts';

export { refusalEnglish };

/** The reason `reason` (a location's), naming `country` when it is known, in the words `msg` gives. */
export function describeRefusal(msg: (id: MessageId, values?: Values) => string, locale: string,
  reason: keyof typeof refusalEnglish, country: string | null): string {
  const where = countryName(country, locale);
  const here = `${reason}_here`;
  return msg(!where && here in refusalEnglish ? here as MessageId : reason, { country: where });
}

function countryName(code: string | null, locale: string): string | null {
  if (!code) return null;
  try {
    return new Intl.DisplayNames(locale, { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
