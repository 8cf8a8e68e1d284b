// `npm run check:imports` (part of `npm test`): the module graph of worker/, components/ and demo/sandbox/ has no import
// cycle, and each layer imports only what lies below it. Plain Node plus the `typescript` package the repo already
// has (its parser, not its type checker): every relative import of a `.ts` module is an edge, whether it is
// `import … from`, `export … from`, `import('…')`, `import x = require('…')` or a type position's `import('…').T`.
// Type-only imports count too: a type names the module it comes from, so a type that has to be imported from a layer
// above is the same layering mistake as a value would be (it is how `Visit` tied geo/, playback/ and embed/ to
// routes/), and a cycle of types is a knot a reader still has to untie. Generated declaration files (`*.d.ts`:
// wrangler's worker-configuration.d.ts) are ambient, not modules anyone imports, and are left out.
//
// Prints `architecture: N modules, 0 cycles, layering ok` (naming any waived cycle, below) and exits 0, or lists each
// cycle and each rule a module breaks and exits 1.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const roots = ['worker', 'components', 'demo/sandbox'];
const skipDirs = new Set(['node_modules', '.wrangler', 'dist', '.build']);

/** Every `.ts` module (not `.d.ts`) under a folder, as repo-relative paths with forward slashes. */
function modulesUnder(dir) {
  const out = [];
  for (const name of readdirSync(join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) {
      if (!skipDirs.has(name)) out.push(...modulesUnder(rel));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
      out.push(rel);
    }
  }
  return out;
}

/** Every module specifier a source file names, with the line it is on. */
function specifiers(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const add = (node) => {
    if (node && ts.isStringLiteralLike(node)) {
      found.push({ specifier: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The repo-relative module a relative specifier names, or null when it names no `.ts` module. */
function resolveSpecifier(from, specifier) {
  const base = resolve(root, dirname(from), specifier);
  const candidates = [base, base.replace(/\.(m?js)$/, (_, ext) => (ext === 'mjs' ? '.mts' : '.ts')), `${base}.ts`,
    join(base, 'index.ts')];
  for (const candidate of candidates) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) {
      return relative(root, candidate).split(sep).join('/');
    }
  }
  return null;
}

const modules = roots.flatMap(modulesUnder).sort();
/** module → [{ to, line, specifier }] */
const graph = new Map();
const problems = [];
for (const file of modules) {
  const edges = [];
  for (const { specifier, line } of specifiers(file, readFileSync(join(root, file), 'utf8'))) {
    if (!specifier.startsWith('.')) continue; // packages (lit, itty-router) and runtime modules (cloudflare:workers)
    const to = resolveSpecifier(file, specifier);
    if (to === null) {
      // A relative import of something else (JSON, CSS, a script): not a module of the graph, but still a reach
      // across the tree the layering rules below judge by path.
      const target = relative(root, resolve(root, dirname(file), specifier)).split(sep).join('/');
      edges.push({ to: target, line, specifier, external: true });
    } else {
      edges.push({ to, line, specifier });
    }
  }
  graph.set(file, edges);
}

// Cycles: Tarjan's strongly connected components; a component of more than one module is a cycle, and so is a module
// that imports itself. Each is printed as one path through it that returns to its start.
function stronglyConnected() {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const strongConnect = (v) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v) ?? []) {
      if (!graph.has(to)) continue;
      if (!indices.has(to)) {
        strongConnect(to);
        low.set(v, Math.min(low.get(v), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(v, Math.min(low.get(v), indices.get(to)));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) strongConnect(v);
  return components;
}

/** A shortest path from `start` back to `start` inside one component (breadth-first), as a list of modules. */
function cyclePath(start, members) {
  const previous = new Map();
  const queue = [start];
  const seen = new Set([start]);
  while (queue.length) {
    const v = queue.shift();
    for (const { to } of graph.get(v)) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let w = v; w !== start; w = previous.get(w)) path.splice(1, 0, w);
        return [...path, start];
      }
      if (!seen.has(to)) {
        seen.add(to);
        previous.set(to, v);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

// Cycles this check knows about and lets stand for now, each as `{ members: [...paths], why }`, matched by its exact
// set of modules: a cycle that grows, shrinks or changes fails as a new one, and a waiver whose cycle is gone fails too,
// so the list is emptied as soon as it can be. Empty: the last one (the player's chunk loader and its kit) was untied
// by giving the kit its own loader for hls.js (kit/hls-chunk.ts) and its host types their own module (kit/host.ts).
const waivers = [];

const cycles = [];
const waived = [];
for (const component of stronglyConnected()) {
  const members = new Set(component);
  const selfImport = component.length === 1 && graph.get(component[0]).some(({ to }) => to === component[0]);
  if (component.length > 1 || selfImport) {
    const sorted = [...component].sort();
    const cycle = { members: sorted, path: cyclePath(sorted[0], members) };
    const waiver = waivers.find((w) => w.members.length === sorted.length && [...w.members].sort().every((m, i) => m === sorted[i]));
    if (waiver) waived.push({ ...cycle, waiver });
    else cycles.push(cycle);
  }
}
const describe = ({ members, path }) => `${path.join(' → ')}` +
  (members.length > path.length - 1 ? ` (and ${members.filter((m) => !path.includes(m)).join(', ')})` : '');
for (const cycle of cycles) problems.push(`cycle (${cycle.members.length} module${cycle.members.length === 1 ? '' : 's'}): ${describe(cycle)}`);
for (const waiver of waivers) {
  if (!waived.some((w) => w.waiver === waiver)) {
    problems.push(`waiver without its cycle (remove it from test/architecture/imports.mjs): ${waiver.members.join(', ')}`);
  }
}

// Layering: who may import whom, on direct imports. The worker's layers, bottom up, each importing only layers below
// it (and its own folder):
//   contract/ (the public API's types, shipped to the elements: it imports nothing else) · the plumbing: http/ (a
//   request's reading, addresses included) and the root's env.ts and config.ts · upstream/ (the platform's typed
//   clients) · metrics/ · budget/ (the Durable Object that meters
//   upstream calls, and its client) · cache/ · catalog/ · signing/ · delivery/ (the Delivery API's client, and the media
//   answers made from it) · geo/ · playback/ · resources/ (the public API's resources and
//   their pipeline) · embed/ · render/ · gateway/ · index.ts (the front door).
// A domain folder is entered through its one entry module (`index.ts`): from outside it, nothing imports the modules
// behind it. The worker's root holds the entry, `env` and `config` only. components/ and demo/sandbox/ stand beside the
// worker and share only its contract with it.
const under = (dir) => (path) => path.startsWith(`${dir}/`);
const LAYERS = ['contract', 'plumbing', 'upstream', 'metrics', 'budget', 'cache', 'catalog', 'signing', 'delivery', 'geo', 'playback', 'resources',
  'embed', 'render', 'gateway', 'front door'];
const DOMAIN_FOLDERS = ['budget', 'cache', 'catalog', 'delivery', 'embed', 'gateway', 'geo', 'metrics', 'playback', 'render', 'resources',
  'signing', 'upstream'];
const ROOT_MODULES = ['worker/index.ts', 'worker/env.ts', 'worker/config.ts'];
/** The worker layer a module is in (null: not a worker module). */
function layerOf(path) {
  if (!under('worker')(path)) return null;
  if (path === 'worker/index.ts') return 'front door';
  const rest = path.slice('worker/'.length);
  if (!rest.includes('/')) return 'plumbing';
  const folder = rest.slice(0, rest.indexOf('/'));
  return folder === 'http' ? 'plumbing' : folder;
}
/** The domain folder a module is in (null: none). */
const domainOf = (path) => DOMAIN_FOLDERS.find((dir) => under(`worker/${dir}`)(path)) ?? null;
const rules = [
  {
    name: `each worker layer imports only the layers below it (${LAYERS.join(', ')})`,
    from: (path) => layerOf(path) !== null && LAYERS.includes(layerOf(path)),
    forbid: (to, from) => {
      const [a, b] = [layerOf(from), layerOf(to)];
      if (b === null || a === b) return false;
      if (!LAYERS.includes(b)) return true;
      return LAYERS.indexOf(b) > LAYERS.indexOf(a);
    },
  },
  {
    name: 'a domain folder is imported from outside it only through its entry module (index.ts)',
    from: (path) => under('worker')(path),
    forbid: (to, from) => {
      const domain = domainOf(to);
      return domain !== null && domainOf(from) !== domain && to !== `worker/${domain}/index.ts`;
    },
  },
  {
    name: 'worker/contract/ imports nothing outside worker/contract/',
    from: under('worker/contract'),
    forbid: (to) => !under('worker/contract')(to),
  },
  {
    name: 'components/ imports from worker/ only worker/contract/',
    from: under('components'),
    forbid: (to) => under('worker')(to) && !under('worker/contract')(to),
  },
  {
    name: 'demo/sandbox/ imports from worker/ only worker/contract/',
    from: under('demo/sandbox'),
    forbid: (to) => under('worker')(to) && !under('worker/contract')(to),
  },
];
const rootModules = modules.filter((path) => under('worker')(path) && !path.slice('worker/'.length).includes('/'));
for (const path of rootModules) {
  if (!ROOT_MODULES.includes(path)) {
    problems.push(`layout: ${path} sits in the worker's root, which holds only ${ROOT_MODULES.join(', ')}: give it a folder (http/ for plumbing)`);
  }
}
for (const rule of rules) {
  for (const [file, edges] of graph) {
    if (!rule.from(file)) continue;
    for (const { to, line, specifier } of edges) {
      if (rule.forbid(to, file)) problems.push(`layering: ${file}:${line} imports '${specifier}' (${to}): ${rule.name}`);
    }
  }
}

if (problems.length) {
  console.error(`architecture: ${modules.length} modules, ${cycles.length} cycle${cycles.length === 1 ? '' : 's'}, ` +
    `${problems.length} problem${problems.length === 1 ? '' : 's'}:`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
const waivedNote = waived.length ? ` besides ${waived.length} waived (${waived.map((w) => `${describe(w)}: ${w.waiver.why}`).join('; ')})` : '';
console.log(`architecture: ${modules.length} modules, 0 cycles${waivedNote}, layering ok`);
