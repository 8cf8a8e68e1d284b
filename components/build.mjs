// `npm run build`: the embed bundle and everything the worker serves from dist/.
//   dist/reelgate.js              one minified ES module, Lit inside: the file publishers' script tags load
//   dist/reelgate.<hash>.js       the same bytes under a content hash (served immutable)
//   dist/reelgate.css             the elements' geometry before the bundle defines them (components/reelgate.css)
//   dist/lib/index.js             the element classes for bundler users (Lit left as an import so it is shared)
//   dist/server/index.js          `reelgate/server`: the helper publishers' servers render the elements with (Node and
//                                 edge runtimes; components/server/), no dependency, never part of the embed
//   dist/types/                   their declarations (dist/types/components/index.d.ts)
//   dist/custom-elements.json     the custom elements manifest, from the classes' JSDoc
//   dist/types/frameworks/        typed JSX (react.d.ts) and Vue (vue.d.ts) declarations, from the manifest
//   dist/index.html + demo files  the publisher demo page, served at /
//   dist/admin/                   the operator console (components/console/), served at /admin/: its own bundle
//                                 (console.js, Lit inside), index.html and console.css; nothing of it is in the embed
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  embedOptions, embedPlugins, hlsOptions, kitOptions, minifyAgain, minifyTemplates, packFile, packLanguages, packOptions,
  partOptions,
} from './build-options.mjs';
import { writeFrameworkTypes } from './framework-types.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const at = (...parts) => join(root, ...parts);

mkdirSync(dist, { recursive: true });
for (const name of readdirSync(dist)) {
  if (/^reelgate(-kit|-hls|-panel|-refusal|-lang-[\w-]+)?\..+\.js$/.test(name) || ['lib', 'types', 'server'].includes(name)) rmSync(join(dist, name), { recursive: true, force: true });
}

const common = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  tsconfig: at('components/tsconfig.json'),
  legalComments: 'none',
  logLevel: 'warning',
};

const contentHash = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);
const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

// The player's chunks first (hls.js, then the kit that imports it), each named by its content: the bundle names them.
/** Builds one chunk and writes it as `<prefix>.<hash>.js`; answers its file name and bytes. */
async function chunk(prefix, options) {
  const out = await build({ ...options, logLevel: 'warning', outfile: join(dist, `${prefix}.js`) });
  const bytes = out.outputFiles[0].contents;
  const file = `${prefix}.${contentHash(bytes)}.js`;
  writeFileSync(join(dist, file), bytes);
  return { file, bytes };
}
const hlsChunk = await chunk('reelgate-hls', hlsOptions);
const kitChunk = await chunk('reelgate-kit', kitOptions(hlsChunk.file));
const panelChunk = await chunk('reelgate-panel', partOptions('components/reel-player-config/panel.ts'));
const refusalChunk = await chunk('reelgate-refusal', partOptions('components/reel-geo-gate/refusal.ts'));

// The language packs: one chunk each, all named with one hash of the whole set, so the bundle knows every name from it.
const packs = await Promise.all(packLanguages().map(async (language) => {
  const out = await build({ ...packOptions(language), logLevel: 'warning', outfile: join(dist, `${language}.js`) });
  return { language, bytes: out.outputFiles[0].contents };
}));
const packHash = contentHash(Buffer.concat(packs.flatMap(({ language, bytes }) => [Buffer.from(`${language}\n`), bytes])));
const packChunks = packs.map(({ language, bytes }) => {
  const file = packFile(language, packHash);
  writeFileSync(join(dist, file), bytes);
  return { file, bytes };
});

const embed = await build({
  ...embedOptions,
  plugins: embedPlugins({
    kit: kitChunk.file, hls: hlsChunk.file, panel: panelChunk.file, refusal: refusalChunk.file,
    lang: { hash: packHash, languages: packs.map((p) => p.language) },
  }),
  logLevel: 'warning',
  write: false,
  outfile: join(dist, 'reelgate.js'),
});
const code = embed.outputFiles[0].contents;
const hash = contentHash(code);
writeFileSync(join(dist, 'reelgate.js'), code);
writeFileSync(join(dist, `reelgate.${hash}.js`), code);
copyFileSync(at('components/reelgate.css'), join(dist, 'reelgate.css'));

// Split: the player's kit and its hls.js engine stay chunks of their own (dist/lib/chunk-*.js), which the page's bundler
// loads only when a player needs them; Lit and hls.js are the page's own dependencies.
await build({
  ...common,
  entryPoints: { index: at('components/index.ts') },
  outdir: join(dist, 'lib'),
  splitting: true,
  chunkNames: 'chunk-[hash]',
  external: ['lit', 'lit/*', 'hls.js'],
});

// `reelgate/server` (components/server/index.ts): one plain ES module for publishers' servers, Node and edge runtimes
// alike (`platform: 'neutral'`: no Node built-in is reachable from it), unminified so a stack trace reads.
await build({
  ...common,
  platform: 'neutral',
  entryPoints: { index: at('components/server/index.ts') },
  outdir: join(dist, 'server'),
});

// Declarations for bundler users, with the `.ts` specifiers of the sources turned into `.js` ones (in `from`,
// `import(…)` and the entry's bare `import './…/define.ts'`).
rmSync(join(dist, 'types'), { recursive: true, force: true });
execFileSync(process.execPath, [at('node_modules/typescript/bin/tsc'), '-p', at('components/tsconfig.types.json')],
  { cwd: root, stdio: 'inherit' });
(function rewrite(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) rewrite(path);
    else if (name.endsWith('.d.ts')) {
      writeFileSync(path, readFileSync(path, 'utf8').replace(/(from\s+|import\s*\(?)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2'));
    }
  }
})(join(dist, 'types'));

// The manifest comes from the element classes' JSDoc (@event, @slot, @csspart, @cssproperty).
execFileSync(process.execPath, [
  at('node_modules/@custom-elements-manifest/analyzer/cem.js'), 'analyze', '--litelement',
  '--globs', 'components/reel-*/reel-*.ts', '--exclude', 'components/**/*.styles.ts', '--outdir', 'dist', '--quiet',
], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
// The analyzer names the TypeScript sources; a package user imports the built library, which exports every class. So
// every module path (and every reference to one) names dist/lib/index.js, the file the package's "." export resolves to.
{
  const file = join(dist, 'custom-elements.json');
  const shipped = 'dist/lib/index.js';
  const text = readFileSync(file, 'utf8').replace(/"(path|module)": "components\/[^"]+\.ts"/g, `"$1": "${shipped}"`);
  writeFileSync(file, text);
}
// Typed JSX (React 19) and Vue declarations, from the manifest just written.
writeFrameworkTypes(dist);

// The demo page and its files (never the sandbox, the start script or the example apps, which Vite builds into
// .build/apps/: npm run check:apps).
function copyDemo(from) {
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const rel = relative(at('demo'), source);
    if (['sandbox', 'start.mjs', 'react-app', 'vue-app'].includes(rel)) continue;
    if (statSync(source).isDirectory()) copyDemo(source);
    else if (/\.(html|css|js|svg|png|jpg|webp|ico|txt)$/.test(name) && !name.startsWith('screenshot')) {
      mkdirSync(dirname(join(dist, rel)), { recursive: true });
      copyFileSync(source, join(dist, rel));
    }
  }
}
copyDemo(at('demo'));

// The operator console: a bundle of its own from components/console/define.ts, with a whole Lit (the embed's trimmed
// one has no `svg` templates, which its charts use), minified like the embed (templates, then oxc) but with no member
// renaming (it would save 0.3 KB gzip). Nothing of it is shared with the embed, whose build never reaches these files.
// The page is served under `script-src 'self'; style-src 'self'`, so index.html may hold no inline script, style or
// handler: checked here.
const consoleDir = join(dist, 'admin');
rmSync(consoleDir, { recursive: true, force: true });
mkdirSync(consoleDir, { recursive: true });
const consoleBuild = await build({
  ...common,
  entryPoints: [at('components/console/define.ts')],
  outfile: join(consoleDir, 'console.js'),
  minify: true,
  write: false,
  plugins: [minifyTemplates, minifyAgain],
});
const consoleCode = consoleBuild.outputFiles[0].contents;
writeFileSync(join(consoleDir, 'console.js'), consoleCode);
const consolePage = readFileSync(at('components/console/index.html'), 'utf8');
if (/<script(?![^>]*\ssrc=)[^>]*>|<style[\s>]|\sstyle\s*=|\son[a-z]+\s*=/i.test(consolePage)) {
  throw new Error('components/console/index.html: an inline script, style or event handler, which the console\'s CSP refuses');
}
writeFileSync(join(consoleDir, 'index.html'), consolePage);
copyFileSync(at('components/console/console.css'), join(consoleDir, 'console.css'));

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const gz = gzipSync(code, { level: 9 }).length;
console.log(`build: dist/reelgate.js ${kb(code.length)} min, ${kb(gz)} min+gzip = ${gz} B (core embed goal 16,384 B); ` +
  `versioned copy reelgate.${hash}.js`);
const loadedBy = new Map([[kitChunk, 'players that need it'], [hlsChunk, 'players that need it'],
  [panelChunk, 'configuration panels'], [refusalChunk, 'gates, as they ask']]);
for (const [{ file, bytes }, by] of loadedBy) {
  console.log(`build: dist/${file} ${kb(bytes.length)} min, ${kb(gzipSync(bytes, { level: 9 }).length)} min+gzip (loaded only by ${by})`);
}
const packSizes = packChunks.map(({ bytes }) => gzipSync(bytes, { level: 9 }).length);
console.log(`build: ${packChunks.length} language packs, dist/${packFile('<language>', packHash)}, ` +
  `${kb(Math.min(...packSizes))}–${kb(Math.max(...packSizes))} min+gzip each (loaded only by a page in that language)`);
// The recommended embed pins the versioned copy with Subresource Integrity (components/README.md, "Embedding details", Content-Security-Policy), and
// its chunks too: a dynamic import() cannot carry an integrity attribute, so an import map's `integrity` section
// (Chrome 127+, Safari 18+, Firefox 138+) gives theirs, keyed by their URLs. Without it (older browsers) the chunks
// load unpinned from the same worker, still versioned by content.
const tag = (origin) => `<script type="importmap">${JSON.stringify({ integrity: Object.fromEntries(
  [kitChunk, hlsChunk, panelChunk, refusalChunk, ...packChunks].map(({ file, bytes }) => [`${origin}/embed/${file}`, sri(bytes)])) })}</script>\n` +
  `<script type="module" src="${origin}/embed/reelgate.${hash}.js" integrity="${sri(code)}" crossorigin="anonymous"></script>\n`;
writeFileSync(join(dist, 'embed-tag.txt'), tag(''));
console.log(`build: the pinned tag (dist/embed-tag.txt), for https://<your worker>:\n${tag('https://<your worker>')}`);
console.log(`build: dist/admin/console.js ${kb(consoleCode.length)} min, ${kb(gzipSync(consoleCode, { level: 9 }).length)} ` +
  'min+gzip (the operator console, served at /admin/ with index.html and console.css; not part of the embed)');
const manifest = JSON.parse(readFileSync(join(dist, 'custom-elements.json'), 'utf8'));
const tags = manifest.modules.flatMap((m) => m.declarations ?? []).map((d) => d.tagName).filter(Boolean);
console.log(`build: dist/custom-elements.json (${tags.join(', ') || 'no tags found'}), dist/lib/index.js, demo files`);
