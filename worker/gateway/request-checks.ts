/**
 * What a gateway request may carry besides its path: a few list parameters, and for writes one bounded JSON object
 * made of the spec's body attributes. Each check returns the clean value to forward, or a reason to refuse.
 */
import { readBoundedUtf8 } from '../http/bounded-text.ts';
import { checkListQuery } from '../contract/list-query.ts';
import type { RouteSpec } from './v2-routes.ts';

export { LIST_PARAMS, MAX_Q_LENGTH, MAX_QUERY_LENGTH } from '../contract/list-query.ts';
export const MAX_BODY_BYTES = 1024 * 1024;
export const BODY_ATTRIBUTES = ['metadata', 'upload', 'relationships'] as const;

export type Checked<T> = { ok: true; value: T } | { ok: false; status: number; code: string; description: string };

const refuse = (description: string, status = 400, code = 'invalid_request'): Checked<never> =>
  ({ ok: false, status, code, description });

/**
 * The query to forward, as ordered pairs; only list routes take one, and only the list parameters, by the rules the
 * platform's sandbox applies too (contract/list-query.ts): same forms accepted, same codes and descriptions refused.
 */
export function checkQuery(spec: RouteSpec, search: string): Checked<Array<[string, string]>> {
  const checked = checkListQuery(search, spec.list);
  return checked.ok ? checked : refuse(checked.description, 400, checked.code);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The JSON body of a write, parsed from its raw text: an object holding one or more of `metadata`, `upload`,
 * `relationships` (each an object), and nothing else. Routes without a body must not send one.
 */
export function checkBody(spec: RouteSpec, text: string, contentType: string | null): Checked<Record<string, unknown> | undefined> {
  if (!spec.body) {
    return text.length === 0 ? { ok: true, value: undefined } : refuse('This route takes no request body.');
  }
  if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES) {
    return refuse(`The request body is larger than ${MAX_BODY_BYTES} bytes.`, 413, 'payload_too_large');
  }
  if (text.length === 0) {
    return refuse(spec.members ? `This route needs a JSON body: ${spec.members.map((m) => `"${m}"`).join(', ')}.`
      : 'This route needs a JSON body with metadata, upload or relationships.');
  }
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return refuse('The request body must be application/json.', 415, 'unsupported_media_type');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse('The request body is not valid JSON.');
  }
  if (!isPlainObject(body)) return refuse('The request body must be a JSON object.');
  const keys = Object.keys(body);
  if (spec.members) return checkActionBody(spec.members, body);
  if (keys.length === 0) return refuse('The request body must hold metadata, upload or relationships.');
  for (const key of keys) {
    if (!(BODY_ATTRIBUTES as readonly string[]).includes(key)) {
      return refuse(`The request body may only hold ${BODY_ATTRIBUTES.join(', ')}.`);
    }
    if (!isPlainObject(body[key])) return refuse(`${key} must be a JSON object.`);
  }
  return { ok: true, value: body };
}

/** An action's body: exactly its members, each a non-empty string (`{"tag": "news"}`). */
function checkActionBody(members: readonly string[], body: Record<string, unknown>): Checked<Record<string, unknown>> {
  const expected = members.map((member) => `"${member}"`).join(', ');
  for (const key of Object.keys(body)) {
    if (!members.includes(key)) return refuse(`The request body holds ${expected} only; "${key.slice(0, 40)}" is not one of them.`);
  }
  for (const member of members) {
    const value = body[member];
    if (typeof value !== 'string' || value.trim() === '') return refuse(`"${member}" must be a non-empty string.`);
  }
  return { ok: true, value: body };
}

/** Reads at most `MAX_BODY_BYTES + 1` bytes of a request body, so an endless stream cannot exhaust memory. */
export async function readBoundedText(request: Request, limit = MAX_BODY_BYTES): Promise<Checked<string>> {
  const read = await readBoundedUtf8(request, limit);
  if (read.ok) return { ok: true, value: read.text };
  return read.reason === 'too_large'
    ? refuse(`The request body is larger than ${limit} bytes.`, 413, 'payload_too_large')
    : refuse('The request body is not valid UTF-8.');
}
