/**
 * Turns an error response's body into v2 `errors[]`. The platform answers `{"errors":[{code, description}]}`, but a
 * proxy or load balancer in front of it may answer HTML or a v1-style `{code, message}`; those become one synthesized
 * item. Upstream text is kept only in small doses so a log or a gateway never relays a whole page.
 */
import type { V2ErrorItem } from '../contract/v2-types.ts';

const MAX_CODE_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 300;
const MAX_ITEMS = 20;
const CODE_SHAPE = /^[A-Za-z][A-Za-z0-9_.-]*$/;

export function synthesizedError(status: number): V2ErrorItem {
  return status >= 500
    ? { code: 'server_error', description: `The upstream failed with HTTP ${status}.` }
    : { code: `http_${status}`, description: `The upstream refused the request with HTTP ${status}.` };
}

function clip(text: string, max: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function item(value: unknown, status: number): V2ErrorItem | null {
  if (typeof value !== 'object' || value === null) return null;
  const { code, description } = value as Record<string, unknown>;
  if (typeof code !== 'string' || code.length > MAX_CODE_LENGTH || !CODE_SHAPE.test(code)) return null;
  const text = typeof description === 'string' && description.trim() ? clip(description, MAX_DESCRIPTION_LENGTH)
    : synthesizedError(status).description;
  return { code, description: text };
}

/** v1 codes are CamelCase (`ServerError`); v2 codes snake_case (`server_error`). */
export function camelToSnake(code: string): string {
  return code.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

export function errorItemsFromBody(text: string, status: number): V2ErrorItem[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [synthesizedError(status)];
  }
  if (typeof body === 'object' && body !== null) {
    const errors = (body as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      const items = errors.slice(0, MAX_ITEMS).map((entry) => item(entry, status)).filter((entry) => entry !== null);
      if (items.length > 0) return items;
    }
    // A v1-shaped body (`{code, message}`) from an older layer: keep its meaning in v2 form.
    const { code, message } = body as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && CODE_SHAPE.test(code) && code.length <= MAX_CODE_LENGTH) {
      const v1 = item({ code: camelToSnake(code), description: message }, status);
      if (v1) return [v1];
    }
  }
  return [synthesizedError(status)];
}
