// The elements' language packs, read from their sources: what a page in that language must show.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importTs } from '../support/import-ts.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

export async function pack(language) {
  return (await importTs(join(root, `components/shared/i18n/packs/${language}.ts`))).default;
}

/** A message's `other` form with its placeholders filled. */
export function said(message, values = {}) {
  const text = typeof message === 'string' ? message : message.other;
  return text.replace(/\{(\w+)\}/g, (_, name) => values[name] ?? '');
}
