// Response helpers: every error the sandbox gives is the v2 error body, like the platform's.
import type { V2ErrorBody } from '../../worker/contract/v2-types.ts';

/** An error a handler throws to refuse a request; the dispatcher turns it into the v2 error body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function errorResponse(status: number, code: string, description: string, headers: Record<string, string> = {}): Response {
  const body: V2ErrorBody = { errors: [{ code, description }] };
  return json(body, status, headers);
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

export const notFound = (what: string): HttpError => new HttpError(404, 'not_found', `${what} was not found.`);
export const invalid = (code: string, description: string): HttpError => new HttpError(400, code, description);

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
