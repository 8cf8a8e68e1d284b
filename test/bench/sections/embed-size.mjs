// Section 3: the embed bundle's weight. dist/reelgate.js as `npm run build` wrote it (raw = its bytes, already
// minified), the same entry built without minifying (what minifying saves), gzip and brotli at their highest levels,
// against the 20 KB min+gzip budget; and Lit's share, measured by building the same entry with Lit left out.
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const BUDGET_MIN_GZIP_BYTES = 20 * 1024;
/** Lit itself: the packages `lit` re-exports, and the task controller the elements use. */
const LIT_PACKAGES = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element', '@lit/task'];

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const brotli = (bytes) => brotliCompressSync(bytes, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
}).length;

/** The options components/build.mjs bundles the embed with. */
const embedOptions = {
  entryPoints: [`${root}components/embed.ts`],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  tsconfig: `${root}components/tsconfig.json`,
  legalComments: 'none',
  logLevel: 'silent',
  write: false,
  outfile: `${root}.build/bench-embed.js`,
};

export async function embedSize() {
  const bundlePath = `${root}dist/reelgate.js`;
  if (!existsSync(bundlePath)) throw new Error('dist/reelgate.js is missing (npm run build)');
  const shipped = readFileSync(bundlePath);

  const unminified = (await build({ ...embedOptions, minify: false })).outputFiles[0].contents;
  const minified = await build({ ...embedOptions, minify: true, metafile: true });
  const rebuilt = minified.outputFiles[0].contents;
  const output = Object.values(minified.metafile.outputs)[0];
  const litInputs = Object.entries(output.inputs).filter(([path]) =>
    LIT_PACKAGES.some((name) => path.includes(`node_modules/${name}/`)));
  const litMinBytes = litInputs.reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
  // The same entry with Lit external: what the elements weigh on their own.
  const withoutLit = (await build({
    ...embedOptions,
    minify: true,
    external: [...LIT_PACKAGES, ...LIT_PACKAGES.map((name) => `${name}/*`)],
  })).outputFiles[0].contents;

  const minGzip = gzip(shipped);
  const ownMinGzip = gzip(withoutLit);
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
    lit: {
      packages: LIT_PACKAGES,
      min_bytes_in_bundle: litMinBytes,
      share_of_min_bytes: Math.round((litMinBytes / rebuilt.length) * 1000) / 10,
      elements_alone_min_gzip_bytes: ownMinGzip,
      lit_min_gzip_bytes: minGzip - ownMinGzip,
      share_of_min_gzip: Math.round(((minGzip - ownMinGzip) / minGzip) * 1000) / 10,
    },
  };
}
