// The options the embed bundle (dist/reelgate.js) is built with, shared by components/build.mjs and the bench's
// embed section, so the bench weighs exactly what ships.
import { readdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { minifySync } from 'rolldown/utils';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Minifies the CSS inside the elements' `css` tagged templates (esbuild leaves template text as written, indentation
 * and all) and hands it to Lit's `unsafeCSS` instead, which makes the same `CSSResult` from a string: with no `css`
 * call left, the tag function and its checks (for interpolated values, which these never have) stay out of the
 * bundle. Only literal CSS is touched: a template with `${…}` in it is an error, so nothing is ever guessed.
 * Then collapses the whitespace in the static text of their `html` templates (what Lit's production builds do with a
 * template minifier), keeping what renders: see `collapseHtmlWhitespace`. Before all that, gives the private custom
 * properties their short names (see `privateCustomProperties`).
 */
export const minifyTemplates = {
  name: 'reelgate-minify-templates',
  setup(build) {
    let privateProperties;
    build.onLoad({ filter: /[\\/]components[\\/].*\.ts$/ }, async ({ path }) => {
      privateProperties ??= privateCustomProperties();
      const names = await privateProperties;
      const source = (await readFile(path, 'utf8')).replace(PRIVATE_PROPERTY, (name) => names.get(name))
        // Lit gives a `state` property no attribute by itself; the sources also say so for the manifest's analyzer.
        .replaceAll('{ state: true, attribute: false }', '{ state: true }');
      if (!source.includes('css`') && !source.includes('html`')) return { contents: source, loader: 'ts' };
      let out = '';
      let last = 0;
      for (const match of source.matchAll(/\bcss`([^`]*)`/g)) {
        if (match[1].includes('${')) throw new Error(`${path}: a css template with an interpolation cannot be minified`);
        const { code } = await transform(match[1], { loader: 'css', minify: true, logLevel: 'silent' });
        out += `${source.slice(last, match.index)}${CSS_FROM_STRING}(\`${tightenCss(code.trim())}\`)`;
        last = match.index + match[0].length;
      }
      // Its own import, beside the module's `css` one (left in place, and unused now).
      if (last > 0) out = `import { unsafeCSS as ${CSS_FROM_STRING} } from 'lit';\n${out}`;
      return { contents: await minifyHtmlTemplates(out + source.slice(last), path), loader: 'ts' };
    });
  },
};

/**
 * The elements' private custom properties (`--_accent`, `--_ratio`…: a `_` after the dashes, set and read only inside
 * their shadow roots, never documented; the ones a page sets are `--reel-*`), and the short names the embed gives them
 * (`--_a`, `--_b`…), the same in every module: the sources' names in alphabetical order, each renamed wherever it is
 * written (styles, and the inline style a template sets).
 */
const PRIVATE_PROPERTY = /--_[\w-]+/g;
async function privateCustomProperties() {
  const names = new Set();
  for (const file of await readdir(join(root, 'components'), { recursive: true })) {
    if (!file.endsWith('.ts')) continue;
    for (const [name] of (await readFile(join(root, 'components', file), 'utf8')).matchAll(PRIVATE_PROPERTY)) names.add(name);
  }
  const short = (i) => (i < 26 ? String.fromCharCode(97 + i) : short(Math.floor(i / 26) - 1) + short(i % 26));
  return new Map([...names].sort().map((name, i) => [name, `--_${short(i)}`]));
}

/** The name `unsafeCSS` is imported under where a `css` template was, picked to collide with nothing of ours. */
const CSS_FROM_STRING = 'reelgateCssFromString';

/**
 * What esbuild leaves in minified CSS because it keeps custom property values and `var()` fallbacks as written: the
 * space after a custom property's colon (a value's leading whitespace is not part of it) and after a comma (in every
 * CSS grammar a comma separates, and whitespace beside it means nothing). Quoted strings are left alone.
 */
export function tightenCss(code) {
  return code.split(/("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/).map((part, i) => (i % 2 ? part
    : part.replace(/(--[\w-]+):\s+/g, '$1:').replace(/,\s+/g, ','))).join('');
}

/**
 * Elements our templates use that are block-level by default, and that no style of ours makes inline: whitespace
 * beside one of them is never rendered (it would start or end a line, where a run of spaces collapses to nothing), so
 * it can go. (A page restyling such a part as inline would change the layout itself.)
 */
const BLOCK_TAGS = new Set(['div', 'p', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'section', 'header', 'footer']);

/**
 * `source` with the static text of every `html`-tagged template's whitespace collapsed, the way the HTML renders it
 * under the default `white-space: normal` (the elements' styles never set `pre`, and a template holding an element
 * whose text keeps its spaces, `<pre>`, `<textarea>`, `<script>`, `<style>`, is left alone):
 *   - a run of whitespace between a tag's attributes becomes one space;
 *   - a run in text beside a block-level tag (BLOCK_TAGS, opened or closed) goes, and any other run becomes one space
 *     (between inline elements, or beside text or a `${…}`, one space is what renders);
 *   - attribute values in quotes, and runs that are already a single space, are left as they are.
 * Lit finds its bindings again in the collapsed text: their markers sit where the `${…}` were, and no binding is ever
 * inside a run of whitespace.
 */
async function minifyHtmlTemplates(source, path) {
  if (!source.includes('html`')) return source;
  const { default: ts } = await import('typescript');
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  // Each template's own tokens (head, middles, tail: delimiters included), in order.
  const templates = [];
  (function visit(node) {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'html') {
      const template = node.template;
      templates.push(ts.isNoSubstitutionTemplateLiteral(template) ? [template]
        : [template.head, ...template.templateSpans.map((span) => span.literal)]);
    }
    ts.forEachChild(node, visit);
  })(file);
  const edits = [];
  for (const tokens of templates) {
    const texts = tokens.map((token) => {
      const text = source.slice(token.getStart(file), token.end);
      // The text between the delimiters: ` or } before, ${ or ` after.
      return text.slice(1, text.endsWith('${') ? -2 : -1);
    });
    if (hasElementBinding(texts)) {
      const { line } = file.getLineAndCharacterOfPosition(tokens[0].getStart(file));
      throw new Error(`${path}:${line + 1}: a binding inside a tag (an element part), which the embed's Lit lacks (LIT_CUTS)`);
    }
    const collapsed = collapseHtmlWhitespace(texts);
    tokens.forEach((token, i) => {
      const start = token.getStart(file) + 1;
      edits.push({ start, end: start + texts[i].length, text: collapsed[i] });
    });
  }
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let last = 0;
  for (const edit of edits) {
    out += source.slice(last, edit.start) + edit.text;
    last = edit.end;
  }
  return out + source.slice(last);
}

/**
 * Whether a `${…}` of a template (its static `strings`, split where the `${…}` are) sits where Lit makes an element
 * part of it: inside a tag but not as an attribute's value, quoted or not (`<div ${ref(…)}>`). Comments are skipped;
 * text and attribute values are never a tag.
 */
export function hasElementBinding(strings) {
  let state = 'text'; // 'text', 'comment', 'tag' or the quote character of the attribute value being read
  return strings.slice(0, -1).some((text) => {
    for (let i = 0; i < text.length; i++) {
      if (state === 'comment') {
        if (text.startsWith('-->', i)) state = 'text';
      } else if (state === 'text') {
        if (text.startsWith('<!--', i)) state = 'comment';
        else if (/^<\/?[a-zA-Z]/.test(text.slice(i, i + 3))) state = 'tag';
      } else if (state === 'tag') {
        if (text[i] === '"' || text[i] === "'") state = text[i];
        else if (text[i] === '>') state = 'text';
      } else if (text[i] === state) state = 'tag';
    }
    return state === 'tag' && !/=\s*$/.test(text);
  });
}

/**
 * One template's static strings (`strings`, split where its `${…}` are) with their whitespace collapsed (see
 * minifyHtmlTemplates); returned unchanged when they hold anything this small parser does not follow (a backslash
 * escape, a comment, an element whose text keeps its whitespace).
 */
export function collapseHtmlWhitespace(strings) {
  if (/\\|<!--|<(pre|textarea|script|style|title|listing|xmp|plaintext)\b/i.test(strings.join(''))) return strings;
  let state = 'text'; // 'text', 'tag' (between a tag's attributes) or a quote character (inside an attribute value)
  let tagName = ''; // the tag being read, or the one whose `>` was read last
  return strings.map((text, index) => {
    let out = '';
    let tagEnd = -1; // where the text after that `>` starts in this string
    let i = 0;
    while (i < text.length) {
      const char = text[i];
      if (state !== 'text' && state !== 'tag') {
        if (char === state) state = 'tag';
      } else if (/\s/.test(char)) {
        const run = /^\s+/.exec(text.slice(i))[0];
        if (state === 'tag') out += ' ';
        else {
          const before = i === tagEnd ? tagName : i === 0 ? (index === 0 ? 'start' : 'binding') : 'text';
          const after = /^<\/?([a-zA-Z][\w-]*)/.exec(text.slice(i + run.length))?.[1].toLowerCase() ?? 'text';
          out += BLOCK_TAGS.has(before) || BLOCK_TAGS.has(after) ? '' : ' ';
        }
        i += run.length;
        continue;
      } else if (state === 'text' && char === '<') {
        const name = /^<\/?([a-zA-Z][\w-]*)/.exec(text.slice(i));
        if (name) {
          state = 'tag';
          tagName = name[1].toLowerCase();
          out += name[0];
          i += name[0].length;
          continue;
        }
      } else if (state === 'tag' && (char === '"' || char === "'")) state = char;
      else if (state === 'tag' && char === '>') {
        state = 'text';
        tagEnd = i + 1;
      }
      out += char;
      i++;
    }
    return out;
  });
}

/**
 * Plumbing in Lit's production modules that only serves what the embed bundle never has, cut from the copy it
 * bundles (Lit's own sources are left alone, and so is the library build, dist/lib/, which imports the page's Lit):
 *   - the polyfill and hydration hooks: Lit calls `globalThis.litHtmlPolyfillSupport` (and its siblings) when a page
 *     has loaded `lit/polyfill-support.js` for browsers without native shadow DOM, and `litElementHydrateSupport`
 *     when @lit-labs/ssr-client hydrates server-rendered elements. The embed's elements are always rendered on the
 *     client, and every browser that runs its ES2022 has shadow DOM (so the ShadyCSS check goes too);
 *   - the version registries (`globalThis.litHtmlVersions`…), which only Lit's development builds read;
 *   - the decorator plumbing: `static addInitializer` and the initializers it collects, and the `Symbol.metadata`
 *     (and `litPropertyMetadata`) that `@property` and `@state` record into. The elements declare `static properties`
 *     and use no decorator (see mangleProps below);
 *   - the SVG and MathML template types, whose tags (`svg`, `mathml`) no element uses, and element parts;
 *   - directives, and the connection plumbing of async directives: no element uses one (see NO_DIRECTIVES);
 *   - the `useDefault` property option, which no element declares, `removeController` and `getUpdateComplete`, which
 *     nothing calls or overrides, and the reuse of a shadow root the element already has (a server-rendered,
 *     declarative one): the embed renders into it afresh, emptied by `attachShadow`.
 * Each cut names the exact text of the installed Lit version; one that does not match exactly once fails the build
 * (a Lit upgrade then needs its cuts checked again), so nothing is ever removed by a guess.
 */
const LIT_CUTS = {
  '@lit/reactive-element/css-tag.js': [
    ['(void 0===t.ShadyCSS||t.ShadyCSS.nativeShadow)&&', ''],
  ],
  '@lit/reactive-element/reactive-element.js': [
    // A server-rendered element (declarative shadow DOM, Lit SSR) gets its root from `attachShadow`, which empties a
    // declarative one: the embed has no hydration, so it renders afresh (what a page's `data` gave the server, it gives
    // the first render too) instead of adding a second copy after the server's.
    ['const t=this.shadowRoot??this.attachShadow(', 'const t=this.attachShadow('],
    // The `useDefault` property option (Lit 3.3), which no element declares: its defaults map and checks.
    ['useDefault:!1,', ''],
    ['||i.useDefault&&i.reflect&&h===this._$Ej?.get(t)&&!this.hasAttribute(r._$Eu(t,i))', ''],
    ['C(t,s,{useDefault:i,reflect:e,wrapped:h},r){i&&!(this._$Ej??=new Map).has(t)&&(this._$Ej.set(t,r??s??this[t]),!0!==h||void 0!==r)||(this._$AL.has(t)||(this.hasUpdated||i||(s=void 0),this._$AL.set(t,s)),!0===e&&this._$Em!==t&&(this._$Eq??=new Set).add(t))}',
      'C(t,s,{reflect:e}){this._$AL.has(t)||(this.hasUpdated||(s=void 0),this._$AL.set(t,s)),!0===e&&this._$Em!==t&&(this._$Eq??=new Set).add(t)}'],
    ['this[e]=r??this._$Ej?.get(e)??r', 'this[e]=r'],
    // Hooks for controllers and subclasses from outside, which the embed's elements do not have: removing a controller
    // (each element's own live as long as it does), and `getUpdateComplete` (`updateComplete` stays, as every test and
    // page awaits it; no element overrides the hook).
    ['removeController(t){this._$EO?.delete(t)}', ''],
    ['get updateComplete(){return this.getUpdateComplete()}getUpdateComplete(){return this._$ES}', 'get updateComplete(){return this._$ES}'],
    [',p=a.reactiveElementPolyfillSupport,', ','],
    ['Symbol.metadata??=Symbol("metadata"),a.litPropertyMetadata??=new WeakMap;', ''],
    ['static addInitializer(t){this._$Ei(),(this.l??=[]).push(t)}', ''],
    ['void 0!==t.l&&(this.l=[...t.l]),', ''],
    ['const t=this[Symbol.metadata];if(null!==t){const s=litPropertyMetadata.get(t);if(void 0!==s)for(const[t,i]of s)this.elementProperties.set(t,i)}', ''],
    [',this.constructor.l?.forEach(t=>t(this))', ''],
    [',p?.({ReactiveElement:y}),(a.reactiveElementVersions??=[]).push("2.1.2");', ';'],
  ],
  'lit-html/lit-html.js': [
    [',B=t.litHtmlPolyfillSupport;B?.(S,k),(t.litHtmlVersions??=[]).push("3.3.3");', ';'],
    // SVG and MathML templates: made only by the `svg` and `mathml` tags, which no element imports (a value from an
    // answer cannot pose as one: a template's strings must be a real template literal's, which Lit checks).
    ['l=2===i?"<svg>":3===i?"<math>":""', 'l=""'],
    ['+(2===i?"</svg>":3===i?"</math>":"")', ''],
    ['if(this.el=S.createElement(f,e),P.currentNode=this.el.content,2===i||3===i){const t=this.el.content.firstChild;t.replaceWith(...t.childNodes)}',
      'this.el=S.createElement(f,e),P.currentNode=this.el.content;'],
    // Element parts (a binding inside a tag, not an attribute's value: `<div ${ref(…)}>`), which only directives use
    // and no template has: minifyHtmlTemplates fails the build on one (see hasElementBinding).
    ['else t.startsWith(o)&&(d.push({type:6,index:l}),r.removeAttribute(t));', ';'],
    ['1===r.type?i=new r.ctor(h,r.name,r.strings,this,t):6===r.type&&(i=new Z(h,this,t))', 'i=new r.ctor(h,r.name,r.strings,this,t)'],
    ['class Z{constructor(t,i,s){this.element=t,this.type=6,this._$AN=void 0,this._$AM=i,this.options=s}get _$AU(){return this._$AM._$AU}_$AI(t){M(this,t)}}', ''],
    [',F:Z}', '}'],
    // Directives (see NO_DIRECTIVES): every value a part receives is the value itself.
    ['function M(t,i,s=t,e){if(i===E)return i;let h=void 0!==e?s._$Co?.[e]:s._$Cl;const o=a(i)?void 0:i._$litDirective$;return h?.constructor!==o&&(h?._$AO?.(!1),void 0===o?h=void 0:(h=new o(t),h._$AT(t,s,e)),void 0!==e?(s._$Co??=[])[e]=h:s._$Cl=h),void 0!==h&&(i=M(t,h._$AS(t,i.values),h,e)),i}',
      'function M(t,i){return i}'],
    // Telling async directives their element's connection (none exist).
    ['setConnected(t){void 0===this._$AM&&(this._$Cv=t,this._$AP?.(t))}', ''],
  ],
  'lit-element/lit-element.js': [
    [',s.litElementHydrateSupport?.({LitElement:i});const o=s.litElementPolyfillSupport;o?.({LitElement:i});', ';'],
    [';(s.litElementVersions??=[]).push("4.2.2");', ';'],
    // Its connection callbacks only pass the connection on to async directives (ReactiveElement's own remain).
    ['connectedCallback(){super.connectedCallback(),this._$Do?.setConnected(!0)}disconnectedCallback(){super.disconnectedCallback(),this._$Do?.setConnected(!1)}', ''],
  ],
};

/**
 * The modules every directive is made with (`directive()`, `AsyncDirective`, the helpers for writing one): `lit/
 * directives/*` and `lit/directive.js` all import them. The embed's Lit has no directive support (LIT_CUTS: no element
 * template uses a directive, not even `repeat` or `styleMap`), so one of them in the bundle fails the
 * build instead of shipping a directive that would render as a plain object.
 */
const NO_DIRECTIVES = ['lit-html/directive.js', 'lit-html/async-directive.js', 'lit-html/directive-helpers.js'];

export const trimLit = {
  name: 'reelgate-trim-lit',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/](?:lit-html|lit-element|@lit[\\/]reactive-element)[\\/][^\\/]+\.js$/ },
      async ({ path }) => {
        const posix = path.replaceAll('\\', '/');
        const directive = NO_DIRECTIVES.find((name) => posix.endsWith(`/node_modules/${name}`));
        if (directive) throw new Error(`${trimLit.name}: ${directive} is imported, but the embed's Lit has no directives (NO_DIRECTIVES)`);
        const file = Object.keys(LIT_CUTS).find((name) => posix.endsWith(`/node_modules/${name}`));
        if (!file) return undefined;
        let source = await readFile(path, 'utf8');
        for (const [find, replace] of LIT_CUTS[file]) {
          const count = source.split(find).length - 1;
          if (count !== 1) throw new Error(`${trimLit.name}: ${file} has ${count} copies of ${find} (a different Lit?)`);
          source = source.replace(find, () => replace);
        }
        return { contents: source, loader: 'js' };
      });
  },
};

/**
 * A second pass over esbuild's minified output with oxc's minifier (Vite's, shipped with rolldown): it names locals
 * by how often they are used in each scope, so the same few letters recur throughout, writes every string with the
 * template literals' backquote, and folds a little more, all of which gzip rewards (about 2 % of the shipped file).
 * It renames no property and leaves template text alone. It rewrites the files esbuild hands back, so the build must
 * keep them in memory (`write: false`, as components/build.mjs and the bench do); esbuild's metafile still describes
 * its own output.
 */
export const minifyAgain = {
  name: 'reelgate-minify-again',
  setup(build) {
    if (build.initialOptions.write !== false) throw new Error(`${minifyAgain.name}: the build must use write: false`);
    build.onEnd((result) => {
      result.outputFiles = result.outputFiles?.map((file) => {
        if (!file.path.endsWith('.js')) return file;
        const { code, errors } = minifySync(file.path, file.text, {
          module: true, compress: { target: 'es2022' }, mangle: { toplevel: true },
        });
        if (errors.length) throw new Error(`${minifyAgain.name}: ${errors.map((e) => e.message).join('; ')}`);
        return { path: file.path, contents: new TextEncoder().encode(code), hash: file.hash, text: code };
      });
    });
  },
};

/**
 * The embed's lazily loaded chunks: the modules that load them (components/reel-player/chunks.ts, the player's kit;
 * components/reel-player/kit/hls-chunk.ts, hls.js; components/reel-player-config/panel-chunk.ts, the configuration
 * panel; components/reel-geo-gate/refusal-chunk.ts, the gate's refusal; components/shared/i18n/packs.ts, the language
 * packs) are swapped for ones importing the versioned files `names` gives (`{ kit, hls, panel, refusal, lang: { hash,
 * languages } }`, files beside the bundle), resolved against the
 * importing file's own URL, so they load from wherever the bundle was loaded from.
 */
export function chunkModules(names) {
  const packs = names.lang && {
    file: /[\\/]components[\\/]shared[\\/]i18n[\\/]packs\.ts$/,
    contents: packsModule(names.lang),
  };
  const loaders = [
    { file: /[\\/]components[\\/]reel-player[\\/]chunks\.ts$/, name: 'loadKit', chunk: names.kit },
    { file: /[\\/]components[\\/]reel-player[\\/]kit[\\/]hls-chunk\.ts$/, name: 'loadHls', chunk: names.hls },
    { file: /[\\/]components[\\/]reel-player-config[\\/]panel-chunk\.ts$/, name: 'loadPanel', chunk: names.panel,
      also: 'export const panelStyles = [];' },
    { file: /[\\/]components[\\/]reel-geo-gate[\\/]refusal-chunk\.ts$/, name: 'loadRefusal', chunk: names.refusal },
  ];
  return {
    name: 'reelgate-chunk-modules',
    setup(build) {
      if (packs) build.onLoad({ filter: packs.file }, () => ({ loader: 'js', contents: packs.contents }));
      for (const { file, name, chunk, also = '' } of loaders) {
        build.onLoad({ filter: file }, () => {
          if (!chunk) throw new Error(`reelgate-chunk-modules: no file name for ${name}'s chunk`);
          return { loader: 'js',
            contents: `export const ${name} = () => import(new URL(${JSON.stringify(`./${chunk}`)}, import.meta.url).href);${also}` };
        });
      }
    },
  };
}

/**
 * The language packs (components/shared/i18n/packs/<language>.ts), by language: what the embed build makes a chunk
 * of each, `reelgate-lang-<language>.<hash>.js`, one hash for the set (so the bundle names them all with one).
 */
export function packLanguages() {
  return readdirSync(join(root, 'components/shared/i18n/packs')).filter((name) => name.endsWith('.ts'))
    .map((name) => name.slice(0, -3)).sort();
}
export const packFile = (language, hash) => `reelgate-lang-${language}.${hash}.js`;
export const packOptions = (language) => ({
  ...SHIPPED, entryPoints: [join(root, `components/shared/i18n/packs/${language}.ts`)],
});

/** The module the embed swaps components/shared/i18n/packs.ts for: each pack loaded from its file beside the bundle. */
function packsModule({ hash, languages }) {
  return `export const PACK_LANGUAGES = ${JSON.stringify(languages)};\n` +
    `export const loadPack = (l) => import(new URL(\`./reelgate-lang-\${l}.${hash}.js\`, import.meta.url).href)` +
    '.then((m) => m.default);';
}

/** What every file the embed ships is built with: one minified ES module each, kept in memory (see minifyAgain). */
const SHIPPED = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  tsconfig: join(root, 'components/tsconfig.json'),
  legalComments: 'none',
  minify: true,
  write: false,
};

/**
 * The player's playback kit (components/reel-player/kit/), built like the bundle but as its own file: it imports no
 * Lit (the element hands it its `html`), and reaches the element through public members only, so renaming private
 * ones per file is safe.
 */
export const kitOptions = (hlsFile) => ({
  ...SHIPPED,
  entryPoints: [join(root, 'components/reel-player/kit/player-kit.ts')],
  mangleProps: /^_[a-z]/,
  plugins: [chunkModules({ hls: hlsFile }), minifyTemplates, minifyAgain],
});

/**
 * An element's lazily loaded part, as its own file: the player configuration's panel
 * (components/reel-player-config/panel.ts) or the gate's refusal (components/reel-geo-gate/refusal.ts). Neither imports
 * Lit or the catalogue: the element hands them its `html` and its words.
 */
export const partOptions = (entry) => ({
  ...SHIPPED,
  entryPoints: [join(root, entry)],
  mangleProps: /^_[a-z]/,
  plugins: [minifyTemplates, stylesAsText, minifyAgain],
});

/**
 * In a part's chunk, its styles stay text (`unsafeCSS` gives back its string): the element makes them a stylesheet with
 * its own Lit, so the chunk carries none.
 */
const stylesAsText = {
  name: 'reelgate-styles-as-text',
  setup(build) {
    build.onResolve({ filter: /^lit$/ }, () => ({ path: 'lit', namespace: 'reelgate-styles-as-text' }));
    build.onLoad({ filter: /.*/, namespace: 'reelgate-styles-as-text' },
      () => ({ loader: 'js', contents: 'export const unsafeCSS = (text) => text;' }));
  },
};

/** hls.js behind the player's MSE engine (components/reel-player/kit/hls-engine.ts), as its own file. */
export const hlsOptions = { ...SHIPPED, entryPoints: [join(root, 'components/reel-player/kit/hls-engine.ts')] };

/**
 * The embed bundle's plugins, given the names of the player's chunk files (components/build.mjs builds those first).
 * Without names, placeholders of the same length: what the bench and the build tests weigh is the same size.
 */
export function embedPlugins(names = {
  kit: 'reelgate-kit.000000000000.js', hls: 'reelgate-hls.000000000000.js', panel: 'reelgate-panel.000000000000.js',
  refusal: 'reelgate-refusal.000000000000.js',
  lang: { hash: '000000000000', languages: packLanguages() },
}) {
  return [chunkModules(names), minifyTemplates, trimLit, minifyAgain];
}

/** The embed build: one minified ES module with Lit inside; the player's chunks apart (chunks.ts). */
export const embedOptions = {
  ...SHIPPED,
  entryPoints: [join(root, 'components/embed.ts')],
  // Our private members (`_items`, `_onKeydown`…) get short names. Safe because nothing reaches them by a string:
  // reactive properties are declared in `static properties` (an object key, renamed with the member), never through
  // decorators (which pass the name as a string). So do Lit's private fields (`_$AH`, `_$Em`…: `_$` and two
  // characters), which its packages keep unmangled only so that separately installed versions of lit-html,
  // lit-element and @lit/reactive-element can work together; here one copy of each is bundled, and nothing outside
  // reads them (Lit's production builds never name them in a string). The fields Lit marks as a protocol between copies
  // (`_$litType$`, `_$cssResult$`, `_$litDirective$`…, a `$` at both ends) keep their names, as does anything public.
  // esbuild never picks a name that is used unmangled anywhere in the bundle.
  mangleProps: /^_[a-z]|^_\$[A-Z][A-Za-z_]$/,
  plugins: embedPlugins(),
};
