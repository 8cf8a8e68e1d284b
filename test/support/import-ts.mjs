// A TypeScript module of the repository, imported from Node: bundled in memory by esbuild (with what it imports) and
// loaded from a data: URL. For tests that read the sources' own values (the message catalogues, the language packs).
import { build } from 'esbuild';

export async function importTs(path) {
  const out = await build({ entryPoints: [path], bundle: true, format: 'esm', write: false, logLevel: 'silent' });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
}
