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
 * Then drops the indentation after each line break in the static text of their `html` templates (what Lit's
 * production builds do with a template minifier, kept conservative): the line break stays, so every run of
 * whitespace is still whitespace and renders as it did.
 */
export const minifyTemplates = {
  name: 'reelgate-minify-templates',
  setup(build) {
    build.onLoad({ filter: /[\\/]components[\\/].*\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      if (!source.includes('css`') && !source.includes('html`')) return undefined;
      let out = '';
      let last = 0;
      for (const match of source.matchAll(/\bcss`([^`]*)`/g)) {
        if (match[1].includes('${')) throw new Error(`${path}: a css template with an interpolation cannot be minified`);
        const { code } = await transform(match[1], { loader: 'css', minify: true, logLevel: 'silent' });
        out += `${source.slice(last, match.index)}css\`${code.trim()}\``;
        last = match.index + match[0].length;
      }
      return { contents: await dedentHtmlTemplates(out + source.slice(last), path), loader: 'ts' };
    });
  },
};

/** `source` with `\n` + indentation turned into `\n` in the static parts of every `html`-tagged template. */
async function dedentHtmlTemplates(source, path) {
  if (!source.includes('html`')) return source;
  const { default: ts } = await import('typescript');
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  // The template's own tokens (head, middles, tail: delimiters included, which hold no line break), in source order.
  const parts = [];
  (function visit(node) {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'html') {
      const template = node.template;
      if (ts.isNoSubstitutionTemplateLiteral(template)) parts.push(template);
      else parts.push(template.head, ...template.templateSpans.map((span) => span.literal));
    }
    ts.forEachChild(node, visit);
  })(file);
  parts.sort((a, b) => a.getStart(file) - b.getStart(file));
  let out = '';
  let last = 0;
  for (const part of parts) {
    const start = part.getStart(file);
    out += source.slice(last, start) + source.slice(start, part.end).replace(/\n[ \t]+/g, '\n');
    last = part.end;
  }
  return out + source.slice(last);
}

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
  plugins: [minifyTemplates],
};
