// The elements' language packs, read from their sources (TypeScript, bundled in memory by esbuild): what a page in
// that language must show.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

export async function pack(language) {
  const out = await build({ entryPoints: [join(root, `components/shared/i18n/packs/${language}.ts`)], bundle: true,
    format: 'esm', write: false, logLevel: 'silent' });
  return (await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`)).default;
}

/** A message's `other` form with its placeholders filled. */
export function said(message, values = {}) {
  const text = typeof message === 'string' ? message : message.other;
  return text.replace(/\{(\w+)\}/g, (_, name) => values[name] ?? '');
}
