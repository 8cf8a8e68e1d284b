/** What every admin API route reads the same way: a bounded JSON body, and no query parameter it does not take. */
import { readBoundedText } from '../request-checks.ts';
import { invalid } from '../errors.ts';

const MAX_ADMIN_BODY_BYTES = 16 * 1024;
/** An access key's id, as `/admin/keys/<id>` names it. */
export const KEY_ID = /^key_[A-Za-z0-9_-]{1,32}$/;

export async function readJson(request: Request): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw invalid('The request body must be application/json.', 415, 'unsupported_media_type');
  const text = await readBoundedText(request, MAX_ADMIN_BODY_BYTES);
  if (!text.ok) throw invalid(text.description, text.status, text.code);
  try {
    return JSON.parse(text.value);
  } catch {
    throw invalid('The request body is not valid JSON.');
  }
}

export function onlyParams(url: URL, allowed: string[]): void {
  for (const name of url.searchParams.keys()) {
    if (!allowed.includes(name)) throw invalid(`Unknown query parameter; this route accepts ${allowed.join(', ') || 'none'}.`);
  }
}

/** Epoch seconds as an ISO time. */
export const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
