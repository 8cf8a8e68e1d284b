// The options the embed bundle (dist/reelgate.js) is built with, shared by components/build.mjs and the bench's
// embed section, so the bench weighs exactly what ships.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Minifies the CSS inside the elements' `css` tagged templates (esbuild leaves template text as written, indentation
 * and all). Only literal CSS is touched: a template with `${…}` in it is an error, so nothing is ever guessed.
 */
export const minifyCssTemplates = {
  name: 'reelgate-minify-css-templates',
  setup(build) {
    build.onLoad({ filter: /[\\/]components[\\/].*\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      if (!source.includes('css`')) return undefined;
      let out = '';
      let last = 0;
      for (const match of source.matchAll(/\bcss`([^`]*)`/g)) {
        if (match[1].includes('${')) throw new Error(`${path}: a css template with an interpolation cannot be minified`);
        const { code } = await transform(match[1], { loader: 'css', minify: true, logLevel: 'silent' });
        out += `${source.slice(last, match.index)}css\`${code.trim()}\``;
        last = match.index + match[0].length;
      }
      return { contents: out + source.slice(last), loader: 'ts' };
    });
  },
};

/** The embed build: one minified ES module with Lit inside. */
export const embedOptions = {
  entryPoints: [join(root, 'components/embed.ts')],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  tsconfig: join(root, 'components/tsconfig.json'),
  legalComments: 'none',
  minify: true,
  // Our private members (`_items`, `_onKeydown`…) get short names. Safe because nothing reaches them by a string:
  // reactive properties are declared in `static properties` (an object key, renamed with the member), never through
  // decorators (which pass the name as a string). Lit's own internals are `_$…` and left alone, as is anything
  // public. esbuild never picks a name that is used unmangled anywhere in the bundle.
  mangleProps: /^_[a-z]/,
  plugins: [minifyCssTemplates],
};
