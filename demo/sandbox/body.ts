// Request bodies: the envelope rule every write route shares (spec rule 2), and small field validators whose
// messages name the exact field, so a caller can fix a request from the description alone.
import { HttpError, invalid } from './http.ts';

// A type, not an interface: it then fits `Record<string, unknown>`, as an action's body does.
export type Envelope = {
  metadata?: Record<string, unknown>;
  upload?: Record<string, unknown>;
  relationships?: Record<string, unknown>;
};

const ENVELOPE_KEYS = ['metadata', 'upload', 'relationships'];

/**
 * Reads an action route's body (the tag actions): a JSON object of the action's own members at its top level, as
 * the platform's definition has them, instead of the envelope. The handler checks each member.
 */
export function readActionBody(text: string, contentType: string, members: readonly string[]): Record<string, unknown> {
  const expected = members.map((member) => `'${member}'`).join(', ');
  if (text.trim() === '') throw invalid('invalid_body', `This route needs a JSON body: an object with ${expected}.`);
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new HttpError(400, 'invalid_body',
      `A request body must be sent with Content-Type: application/json (got '${contentType || 'none'}').`);
  }
  const parsed = readJsonObject(text);
  const unknown = Object.keys(parsed).filter((key) => !members.includes(key));
  if (unknown.length > 0) {
    throw invalid('invalid_body', `Unknown member(s) ${unknown.map((key) => `'${key}'`).join(', ')}: this body holds ${expected}.`);
  }
  return parsed;
}

/** Reads and checks a write route's body: JSON, Content-Type application/json, an object of the three envelope keys. */
export function readEnvelope(text: string, contentType: string): Envelope {
  if (text.trim() === '') {
    throw invalid('invalid_body', 'This route needs a JSON body: an object with one or more of metadata, upload, relationships.');
  }
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new HttpError(400, 'invalid_body',
      `A request body must be sent with Content-Type: application/json (got '${contentType || 'none'}').`);
  }
  const parsed = readJsonObject(text);
  const keys = Object.keys(parsed);
  const unknown = keys.filter((key) => !ENVELOPE_KEYS.includes(key));
  if (unknown.length > 0) {
    throw invalid('invalid_body',
      `Unknown top-level member(s) ${unknown.map((key) => `'${key}'`).join(', ')}: a body holds only metadata, upload and relationships.`);
  }
  if (keys.length === 0) throw invalid('invalid_body', 'The request body is empty: give one or more of metadata, upload, relationships.');
  for (const key of keys) {
    if (!isObject(parsed[key])) throw invalid('invalid_body', `'${key}' must be a JSON object.`);
  }
  return parsed as Envelope;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Refuses members a section does not know, with the v2 name when a v1 name was used. */
export function onlyKnown(section: Record<string, unknown>, path: string, known: readonly string[], hints: Record<string, string> = {}): void {
  for (const key of Object.keys(section)) {
    if (known.includes(key)) continue;
    const hint = hints[key] ? ` (the v2 name is '${hints[key]}')` : '';
    throw invalid('invalid_parameter', `${path}.${key} is not a known field${hint}; known: ${known.join(', ')}.`);
  }
}

export function requireSection(body: Envelope, key: keyof Envelope): Record<string, unknown> {
  const section = body[key];
  if (!section) throw invalid('invalid_parameter', `This route needs '${key}' in the body.`);
  return section;
}

export const field = {
  string(value: unknown, path: string, opts: { nullable?: boolean; nonEmpty?: boolean; max?: number } = {}): string | null {
    if (value === null && opts.nullable) return null;
    if (typeof value !== 'string') throw invalid('invalid_parameter', `${path} must be a string${opts.nullable ? ' or null' : ''}.`);
    if (opts.nonEmpty && value.trim() === '') throw invalid('invalid_parameter', `${path} must not be empty.`);
    if (value.length > (opts.max ?? 10_000)) throw invalid('invalid_parameter', `${path} is longer than ${opts.max ?? 10_000} characters.`);
    return value;
  },
  timestamp(value: unknown, path: string): string | null {
    if (value === null) return null;
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) ||
      Number.isNaN(Date.parse(value))) {
      throw invalid('invalid_parameter', `${path} must be an ISO 8601 date or timestamp (e.g. 2026-05-01T12:00:00Z) or null.`);
    }
    return new Date(value).toISOString().replace('.000Z', 'Z');
  },
  int(value: unknown, path: string, min: number, max: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw invalid('invalid_parameter', `${path} must be an integer from ${min} to ${max}.`);
    }
    return value;
  },
  boolean(value: unknown, path: string): boolean {
    if (typeof value !== 'boolean') throw invalid('invalid_parameter', `${path} must be true or false.`);
    return value;
  },
  oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
    if (typeof value !== 'string' || !allowed.includes(value as T)) {
      throw invalid('invalid_parameter', `${path} must be one of ${allowed.join(', ')}.`);
    }
    return value as T;
  },
  strings(value: unknown, path: string, opts: { max?: number } = {}): string[] {
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === '')) {
      throw invalid('invalid_parameter', `${path} must be an array of non-empty strings.`);
    }
    if (value.length > (opts.max ?? 500)) throw invalid('invalid_parameter', `${path} holds more than ${opts.max ?? 500} items.`);
    return value as string[];
  },
  customParams(value: unknown, path: string): Record<string, string> {
    if (!isObject(value)) throw invalid('invalid_parameter', `${path} must be an object of string values.`);
    for (const [key, member] of Object.entries(value)) {
      if (typeof member !== 'string') throw invalid('invalid_parameter', `${path}.${key} must be a string.`);
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(key)) throw invalid('invalid_parameter', `${path} key '${key}' may hold only letters, digits, _ . - (1-64).`);
    }
    return { ...(value as Record<string, string>) };
  },
  url(value: unknown, path: string): string {
    const text = field.string(value, path, { nonEmpty: true }) as string;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw invalid('invalid_parameter', `${path} must be an absolute http(s) URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('invalid_parameter', `${path} must be an http(s) URL.`);
    return text;
  },
};

/** A JSON object from a request body (empty text is an empty object), or a 400 `invalid_body`. */
export function readJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('invalid_body', 'The request body is not valid JSON.');
  }
  if (!isObject(parsed)) throw invalid('invalid_body', 'The request body must be a JSON object.');
  return parsed;
}
