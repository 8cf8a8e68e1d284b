/**
 * The list query as the platform takes it: `q`, `page`, `page_length`, `sort`, in the forms the official clients and
 * their documentation send (`sort=created:dsc`, `page_length=1000`, `q=external_id: abcdefgh`). One module for the
 * typed client, the gateway and the sandbox, so what one accepts the others accept, and what one refuses the others
 * refuse with the same code and a description that says what is accepted.
 */
import { MAX_PAGE_LENGTH } from './v2-types.ts';

export const LIST_PARAMS = ['q', 'page', 'page_length', 'sort'] as const;
export const MAX_QUERY_LENGTH = 2048;
export const MAX_Q_LENGTH = 1024;

export interface QueryRefusal {
  code: 'invalid_query' | 'invalid_page' | 'invalid_page_length' | 'invalid_sort' | 'invalid_parameter';
  description: string;
}
export type QueryCheck<T> = { ok: true; value: T } | ({ ok: false } & QueryRefusal);

const refuse = (code: QueryRefusal['code'], description: string): QueryCheck<never> => ({ ok: false, code, description });
const shown = (text: string): string => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/** `page`: an integer of at least 1. */
export function checkPage(text: string): QueryCheck<number> {
  const value = Number(text);
  if (!/^\d{1,15}$/.test(text) || value < 1) {
    return refuse('invalid_page', `page must be an integer of at least 1, got '${shown(text)}'.`);
  }
  return { ok: true, value };
}

/** `page_length`: an integer from 1 to `MAX_PAGE_LENGTH` (1000, the page the official clients ask for). */
export function checkPageLength(text: string): QueryCheck<number> {
  const value = Number(text);
  if (!/^\d{1,15}$/.test(text) || value < 1 || value > MAX_PAGE_LENGTH) {
    return refuse('invalid_page_length', `page_length must be an integer from 1 to ${MAX_PAGE_LENGTH}, got '${shown(text)}'.`);
  }
  return { ok: true, value };
}

export interface SortSpec {
  field: string;
  direction: 'asc' | 'desc';
}

/** `<field>:asc`, `<field>:desc`, or `<field>:dsc` (the documentation's spelling of descending). */
export function checkSort(text: string): QueryCheck<SortSpec> {
  const match = /^([A-Za-z_][A-Za-z0-9_.-]{0,63}):(asc|desc|dsc)$/.exec(text);
  if (!match) {
    return refuse('invalid_sort', `sort must be <field>:asc or <field>:dsc (or :desc), got '${shown(text)}'.`);
  }
  return { ok: true, value: { field: match[1]!, direction: match[2] === 'asc' ? 'asc' : 'desc' } };
}

/** `q`: at most `MAX_Q_LENGTH` printable characters (its syntax is the list route's to judge). */
export function checkQ(text: string): QueryCheck<string> {
  if (text.length > MAX_Q_LENGTH || /[\u0000-\u001f\u007f]/.test(text)) {
    return refuse('invalid_query', `q must be at most ${MAX_Q_LENGTH} printable characters.`);
  }
  return { ok: true, value: text };
}

/**
 * A whole query string: list routes take the four list parameters (once each, well-formed), other routes none.
 * Answers the pairs to forward, in their order.
 */
export function checkListQuery(search: string, list: boolean): QueryCheck<Array<[string, string]>> {
  if (search.length > MAX_QUERY_LENGTH) return refuse('invalid_query', `The query string is longer than ${MAX_QUERY_LENGTH} characters.`);
  const pairs = [...new URLSearchParams(search)];
  if (pairs.length === 0) return { ok: true, value: [] };
  if (!list) {
    return refuse('invalid_parameter', `This route takes no query parameters (got '${shown(pairs[0]![0])}'); only list routes take ${LIST_PARAMS.join(', ')}.`);
  }
  const seen = new Set<string>();
  for (const [name, value] of pairs) {
    if (!(LIST_PARAMS as readonly string[]).includes(name)) {
      return refuse('invalid_parameter', `Unknown query parameter '${shown(name)}'; list routes take ${LIST_PARAMS.join(', ')}.`);
    }
    if (seen.has(name)) return refuse('invalid_parameter', `The query parameter ${name} is given more than once; give it once.`);
    seen.add(name);
    const checked = name === 'page' ? checkPage(value)
      : name === 'page_length' ? checkPageLength(value)
      : name === 'sort' ? checkSort(value)
      : checkQ(value);
    if (!checked.ok) return checked;
  }
  return { ok: true, value: pairs };
}
