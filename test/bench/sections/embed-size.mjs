// Section 3: the embed bundle's weight. dist/reelgate.js as `npm run build` wrote it (raw = its bytes, already
// minified), the same entry built without minifying (what minifying saves), gzip and brotli at their highest levels,
// against the 20 KB min+gzip budget and the 16 KB goal; Lit's share, measured by building the same entry with
// Lit left out; and what each element costs:
//   alone     a bundle of that element's module only (Lit and the shared code it uses inside), min+gzip: what a page
//             using only that element would load if it were shipped on its own;
//   own       alone minus Lit alone (a bundle of exactly the Lit exports the elements import): the element plus the
//             shared code it pulls in;
//   marginal  the full bundle minus the full bundle built without that element: what it adds to the shipped file.
// gzip is not additive, so the marginals do not sum to the total; `shared_and_overlap` is what is left once Lit and
// every marginal are taken away (the shared modules, and what gzip finds in common between the elements).
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { embedOptions as shippedOptions, embedPlugins, trimLit } from '../../../components/build-options.mjs';
import { embedChunkNames } from './chunk-load.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const BUDGET_MIN_GZIP_BYTES = 20 * 1024;
/** The goal: the embed ≤ 16 KB min+gzip with every feature kept. */
export const GOAL_MIN_GZIP_BYTES = 16 * 1024;
/** Lit itself: the packages `lit` re-exports, and the task controller the elements once used. */
const LIT_PACKAGES = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element', '@lit/task'];
const LIT_SPECIFIER = /^(?:lit|lit-html|lit-element|@lit\/[^/]+)(?:\/|$)/;
/** The elements, each registered by `components/<tag>/define.ts` (the class is in `<tag>.ts`). */
export const ELEMENTS = ['reel-playlist', 'reel-player', 'reel-player-config', 'reel-geo-gate'];

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const brotli = (bytes) => brotliCompressSync(bytes, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
}).length;

/** The options components/build.mjs bundles the embed with (the same object), writing nothing. */
const embedOptions = { ...shippedOptions, logLevel: 'silent', write: false, outfile: `${root}.build/bench-embed.js` };

/** A minified bundle of a few lines of TypeScript written in components/ (imports resolve from there). */
async function bundleOf(contents) {
  const { entryPoints, ...options } = embedOptions;
  const result = await build({ ...options,
    stdin: { contents, resolveDir: `${root}components`, sourcefile: 'bench-entry.ts', loader: 'ts' } });
  return result.outputFiles[0].contents;
}

/** Every value the element sources import from Lit's packages, by specifier (type-only imports left out). */
function litImports() {
  const bySpecifier = new Map();
  (function walk(dir) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        const source = readFileSync(path, 'utf8');
        for (const [, names, specifier] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
          if (!LIT_SPECIFIER.test(specifier) || /^\s*import\s+type\b/.test(names)) continue;
          const set = bySpecifier.get(specifier) ?? new Set();
          bySpecifier.set(specifier, set);
          for (const name of names.split(',').map((s) => s.trim())) if (name && !name.startsWith('type ')) set.add(name);
        }
      }
    }
  })(join(root, 'components'));
  return bySpecifier;
}

/** Lit alone: exactly the Lit exports the elements use, in one minified bundle. */
async function litAlone() {
  const imports = litImports();
  let i = 0;
  const entry = [...imports].map(([specifier, names]) =>
    `export { ${[...names].map((name) => `${name.split(/\s+as\s+/)[0]} as _${i++}`).join(', ')} } from '${specifier}';`).join('\n');
  const bytes = await bundleOf(entry);
  return { imports: Object.fromEntries([...imports].map(([s, names]) => [s, [...names].sort()])), min_bytes: bytes.length, min_gzip_bytes: gzip(bytes) };
}

async function perElement(fullMinGzip, lit) {
  const out = {};
  for (const tag of ELEMENTS) {
    const alone = await bundleOf(`import './${tag}/define.ts';`);
    const without = await bundleOf(ELEMENTS.filter((other) => other !== tag).map((other) => `import './${other}/define.ts';`).join('\n'));
    const aloneGzip = gzip(alone);
    out[tag] = {
      alone_min_bytes: alone.length,
      alone_min_gzip_bytes: aloneGzip,
      own_min_gzip_bytes: aloneGzip - lit.min_gzip_bytes,
      marginal_min_gzip_bytes: fullMinGzip - gzip(without),
    };
  }
  return out;
}

export async function embedSize() {
  const bundlePath = `${root}dist/reelgate.js`;
  if (!existsSync(bundlePath)) throw new Error('dist/reelgate.js is missing (npm run build)');
  const shipped = readFileSync(bundlePath);

  // The same code, Lit's unused parts cut as in the shipped file (that is not minifying), written out in full.
  const unminified = (await build({ ...embedOptions, minify: false, plugins: [embedPlugins()[0], trimLit] }))
    .outputFiles[0].contents;
  // With the chunk names the shipped file imports (components/build.mjs names them by content).
  const minified = await build({ ...embedOptions, metafile: true, plugins: embedPlugins(embedChunkNames(`${root}dist`)) });
  const rebuilt = minified.outputFiles[0].contents;
  const output = Object.values(minified.metafile.outputs)[0];
  const litInputs = Object.entries(output.inputs).filter(([path]) =>
    LIT_PACKAGES.some((name) => path.includes(`node_modules/${name}/`)));
  const litMinBytes = litInputs.reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
  // The same entry with Lit external: what the elements weigh on their own.
  const withoutLit = (await build({
    ...embedOptions,
    external: [...LIT_PACKAGES, ...LIT_PACKAGES.map((name) => `${name}/*`)],
  })).outputFiles[0].contents;

  const minGzip = gzip(shipped);
  const ownMinGzip = gzip(withoutLit);
  const lit = await litAlone();
  const elements = await perElement(minGzip, lit);
  const marginals = Object.values(elements).reduce((sum, e) => sum + e.marginal_min_gzip_bytes, 0);
  return {
    file: 'dist/reelgate.js',
    raw_bytes: shipped.length,
    // Whether dist/ is current: the shipped file should equal a fresh minified build of the same entry.
    dist_matches_fresh_build: Buffer.compare(Buffer.from(rebuilt), shipped) === 0,
    unminified_bytes: unminified.length,
    minified_bytes: shipped.length,
    min_gzip_bytes: minGzip,
    min_brotli_bytes: brotli(shipped),
    budget_min_gzip_bytes: BUDGET_MIN_GZIP_BYTES,
    within_budget: minGzip <= BUDGET_MIN_GZIP_BYTES,
    goal_min_gzip_bytes: GOAL_MIN_GZIP_BYTES,
    meets_goal: minGzip <= GOAL_MIN_GZIP_BYTES,
    lit: {
      packages: LIT_PACKAGES,
      in_bundle: litInputs.map(([path]) => path.replace(/^.*node_modules\//, '')).sort(),
      min_bytes_in_bundle: litMinBytes,
      share_of_min_bytes: Math.round((litMinBytes / rebuilt.length) * 1000) / 10,
      elements_alone_min_gzip_bytes: ownMinGzip,
      lit_min_gzip_bytes: minGzip - ownMinGzip,
      share_of_min_gzip: Math.round(((minGzip - ownMinGzip) / minGzip) * 1000) / 10,
      alone: lit,
    },
    elements,
    shared_and_overlap_min_gzip_bytes: minGzip - lit.min_gzip_bytes - marginals,
  };
}
