// List semantics shared by every list route: `q` filtering, `sort`, and page/page_length/total pagination
// (syntax documented on `ListParams` in worker/contract/v2-types.ts).
import { checkPage, checkPageLength, checkSort } from '../../worker/contract/list-query.ts';
import { DEFAULT_PAGE_LENGTH } from '../../worker/contract/v2-types.ts';
import { invalid } from './http.ts';

/** How a resource's fields are found and compared. */
export interface FieldSet {
  /** Resource name used in error descriptions. */
  name: string;
  /** Fields that live on the resource itself. */
  top: readonly string[];
  /** Fields that live under `metadata`. */
  metadata: readonly string[];
  /** Fields matched as "contains" (free text) rather than equality. */
  text?: readonly string[];
  /** Fields holding ISO timestamps (ranges compare as dates). */
  dates?: readonly string[];
  /** Whether `custom_params.<name>` is a field (it lives in metadata). */
  customParams?: boolean;
}

type Value = { kind: 'exact'; value: string } | { kind: 'range'; from: string | null; to: string | null };
type Term = { field: string; value: Value };
/** OR of ANDs of terms. */
type Query = Term[][];

export function parseQuery(q: string, fields: FieldSet): Query {
  const tokens = tokenize(q);
  const query: Query = [[]];
  let expectTerm = true;
  for (const token of tokens) {
    if (token.kind === 'op') {
      if (expectTerm) throw invalid('invalid_query', `q: '${token.text}' at position ${token.at + 1} must follow a term.`);
      if (token.text === 'OR') query.push([]);
      expectTerm = true;
      continue;
    }
    checkField(token.term.field, fields, token.at);
    (query[query.length - 1] as Term[]).push(token.term);
    expectTerm = false;
  }
  if (tokens.length === 0) throw invalid('invalid_query', 'q: the query is empty; give at least one field:value term.');
  if (expectTerm) throw invalid('invalid_query', 'q: the query ends with an operator; a term must follow AND/OR.');
  return query;
}

type Token = { kind: 'op'; text: 'AND' | 'OR'; at: number } | { kind: 'term'; term: Term; at: number };

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    if (/\s/.test(q[i] as string)) { i++; continue; }
    const at = i;
    const word = /^(AND|OR)(?=\s|$)/.exec(q.slice(i));
    if (word) {
      tokens.push({ kind: 'op', text: word[1] as 'AND' | 'OR', at });
      i += word[1]!.length;
      continue;
    }
    const field = /^([A-Za-z_][A-Za-z0-9_.-]*):/.exec(q.slice(i));
    if (!field) {
      throw invalid('invalid_query', `q: expected a field:value term at position ${at + 1} (near '${q.slice(at, at + 20)}').`);
    }
    i += field[0].length;
    // `external_id: abcdefgh`: the official clients' documentation writes a space after the colon.
    while (i < q.length && /\s/.test(q[i] as string)) i++;
    if (i >= q.length || /^(AND|OR)(?=\s|$)/.test(q.slice(i))) {
      throw invalid('invalid_query', `q: the term '${field[1]}:' at position ${at + 1} has no value.`);
    }
    let value: Value;
    if (q[i] === '"') {
      const end = q.indexOf('"', i + 1);
      if (end < 0) throw invalid('invalid_query', `q: the quoted value starting at position ${i + 1} is not closed.`);
      value = { kind: 'exact', value: q.slice(i + 1, end) };
      i = end + 1;
    } else if (q[i] === '[') {
      const end = q.indexOf(']', i);
      if (end < 0) throw invalid('invalid_query', `q: the range starting at position ${i + 1} is not closed with ']'.`);
      const range = /^\s*(\S+)\s+TO\s+(\S+)\s*$/.exec(q.slice(i + 1, end));
      if (!range) throw invalid('invalid_query', `q: a range is written [from TO to] (position ${i + 1}); use * for an open end.`);
      value = { kind: 'range', from: range[1] === '*' ? null : range[1]!, to: range[2] === '*' ? null : range[2]! };
      i = end + 1;
    } else {
      const bare = /^[^\s"[\]]+/.exec(q.slice(i));
      if (!bare) throw invalid('invalid_query', `q: the term '${field[1]}:' at position ${at + 1} has no value.`);
      value = { kind: 'exact', value: bare[0] };
      i += bare[0].length;
    }
    if (i < q.length && !/\s/.test(q[i] as string)) {
      throw invalid('invalid_query', `q: unexpected '${q[i]}' at position ${i + 1}; separate terms with spaces.`);
    }
    tokens.push({ kind: 'term', term: { field: field[1]!, value }, at });
  }
  return tokens;
}

function checkField(field: string, fields: FieldSet, at: number): void {
  if (fields.customParams && field.startsWith('custom_params.') && field.length > 'custom_params.'.length) return;
  if (fields.top.includes(field) || fields.metadata.includes(field)) return;
  const known = [...fields.top, ...fields.metadata, ...(fields.customParams ? ['custom_params.<name>'] : [])].join(', ');
  throw invalid('invalid_query', `q: unknown field '${field}' at position ${at + 1} for ${fields.name}; known fields: ${known}.`);
}

export function fieldValue(doc: Record<string, unknown>, field: string, fields: FieldSet): unknown {
  const metadata = (doc.metadata ?? {}) as Record<string, unknown>;
  if (fields.customParams && field.startsWith('custom_params.')) {
    const params = (metadata.custom_params ?? {}) as Record<string, unknown>;
    return params[field.slice('custom_params.'.length)] ?? null;
  }
  if (fields.top.includes(field)) return doc[field] ?? null;
  return metadata[field] ?? null;
}

export function matches(doc: Record<string, unknown>, query: Query, fields: FieldSet): boolean {
  return query.some((all) => all.every((term) => matchTerm(fieldValue(doc, term.field, fields), term, fields)));
}

function matchTerm(actual: unknown, term: Term, fields: FieldSet): boolean {
  if (Array.isArray(actual)) return actual.some((item) => matchTerm(item, term, fields));
  const { value } = term;
  if (value.kind === 'exact') {
    if (actual === null || actual === undefined) return value.value === 'null';
    if (typeof actual === 'number') return Number(value.value) === actual;
    if (typeof actual === 'boolean') return String(actual) === value.value.toLowerCase();
    const have = String(actual).toLowerCase();
    const want = value.value.toLowerCase();
    return fields.text?.includes(term.field) ? have.includes(want) : have === want;
  }
  if (actual === null || actual === undefined) return false;
  if (fields.dates?.includes(term.field)) {
    const time = Date.parse(String(actual));
    const from = value.from === null ? -Infinity : dateBound(value.from, 'from');
    const to = value.to === null ? Infinity : dateBound(value.to, 'to');
    return time >= from && time <= to;
  }
  if (typeof actual === 'number') {
    return (value.from === null || actual >= Number(value.from)) && (value.to === null || actual <= Number(value.to));
  }
  const have = String(actual).toLowerCase();
  return (value.from === null || have >= value.from.toLowerCase()) && (value.to === null || have <= value.to.toLowerCase());
}

/** A date-only bound covers its whole day: `[2026-01-01 TO 2026-06-30]` includes 30 June at noon. */
function dateBound(text: string, side: 'from' | 'to'): number {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const time = Date.parse(dateOnly ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(time)) throw invalid('invalid_query', `q: '${text}' is not a date (use YYYY-MM-DD or an ISO 8601 timestamp).`);
  return dateOnly && side === 'to' ? time + 86_399_999 : time;
}

/** Validates date bounds once up front, so a bad range is a 400 even when no resource would reach it. */
export function validateQueryDates(query: Query, fields: FieldSet): void {
  for (const all of query) {
    for (const term of all) {
      if (term.value.kind === 'range' && fields.dates?.includes(term.field)) {
        if (term.value.from !== null) dateBound(term.value.from, 'from');
        if (term.value.to !== null) dateBound(term.value.to, 'to');
      }
    }
  }
}

export interface Sort {
  field: string;
  direction: 'asc' | 'desc';
}

export function parseSort(text: string, fields: FieldSet): Sort {
  // `created:dsc` (the documentation's spelling) is `created:desc`: worker/contract/list-query.ts, shared with the gateway.
  const checked = checkSort(text);
  if (!checked.ok) throw invalid(checked.code, checked.description);
  const { field, direction } = checked.value;
  const known = fields.top.includes(field) || fields.metadata.includes(field) ||
    (fields.customParams === true && field.startsWith('custom_params.'));
  if (!known) throw invalid('invalid_sort', `sort: unknown field '${field}' for ${fields.name}.`);
  return { field, direction };
}

export function sortDocs<T extends { id: string }>(docs: T[], sort: Sort, fields: FieldSet): T[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...docs].sort((a, b) => {
    const x = fieldValue(a as unknown as Record<string, unknown>, sort.field, fields);
    const y = fieldValue(b as unknown as Record<string, unknown>, sort.field, fields);
    // Missing values sort last whatever the direction, then ties fall back to the id so pages never overlap.
    if (x === null && y !== null) return 1;
    if (y === null && x !== null) return -1;
    const order = compare(x, y);
    return order !== 0 ? order * sign : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

function compare(x: unknown, y: unknown): number {
  if (x === null && y === null) return 0;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const a = Array.isArray(x) ? x.join(',') : String(x).toLowerCase();
  const b = Array.isArray(y) ? y.join(',') : String(y).toLowerCase();
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface Paging {
  page: number;
  page_length: number;
}

/** `page` (default 1) and `page_length` (default 10, at most 1000), by the rules the gateway applies too. */
export function parsePaging(params: URLSearchParams): Paging {
  const page = params.get('page');
  const length = params.get('page_length');
  const checkedPage = page === null ? { ok: true as const, value: 1 } : checkPage(page);
  if (!checkedPage.ok) throw invalid(checkedPage.code, checkedPage.description);
  const checkedLength = length === null ? { ok: true as const, value: DEFAULT_PAGE_LENGTH } : checkPageLength(length);
  if (!checkedLength.ok) throw invalid(checkedLength.code, checkedLength.description);
  return { page: checkedPage.value, page_length: checkedLength.value };
}

/** Applies q, sort and paging from a list route's query string. */
export function listPage<T extends { id: string }>(
  docs: T[], params: URLSearchParams, fields: FieldSet, defaultSort: string,
): { items: T[]; page: number; page_length: number; total: number } {
  const paging = parsePaging(params);
  const q = params.get('q');
  let selected = docs;
  // An empty `q` filters nothing, as an absent one; anything else must parse.
  if (q !== null && q.trim() !== '') {
    const query = parseQuery(q, fields);
    validateQueryDates(query, fields);
    selected = docs.filter((doc) => matches(doc as unknown as Record<string, unknown>, query, fields));
  }
  const sorted = sortDocs(selected, parseSort(params.get('sort') ?? defaultSort, fields), fields);
  const start = (paging.page - 1) * paging.page_length;
  return { items: sorted.slice(start, start + paging.page_length), ...paging, total: sorted.length };
}
