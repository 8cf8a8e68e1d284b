// The embed build's checks (components/build-options.mjs). The bundle's Lit has no element parts and no directives (its
// LIT_CUTS), so a template binding inside a tag, or a directive, must fail the build rather than ship a template Lit
// cannot fill.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embedOptions, hasElementBinding } from '../../components/build-options.mjs';

test('a binding inside a tag, not as an attribute value, is an element binding', () => {
  assert.equal(hasElementBinding(['<div class="a" ', '>']), true);
  assert.equal(hasElementBinding(['<div\n  ', '\n></div>']), true);
  // A `>` inside a quoted value does not close the tag.
  assert.equal(hasElementBinding(['<a title="x>y" ', '>']), true);
  // The second binding is the element one.
  assert.equal(hasElementBinding(['<p>', '</p><div ', '>']), true);
});

test('attribute values (quoted, unquoted, with a prefix), text and comments are not', () => {
  assert.equal(hasElementBinding(['<div class=', '>']), false);
  assert.equal(hasElementBinding(['<div class = ', '>']), false);
  assert.equal(hasElementBinding(['<div class="a ', ' b">']), false);
  assert.equal(hasElementBinding(["<div title='", "'>"]), false);
  assert.equal(hasElementBinding(['<li .style=', ' ?hidden=', ' @click=', '>', '</li>']), false);
  assert.equal(hasElementBinding(['<p>', '</p>']), false);
  assert.equal(hasElementBinding(['1 < 2 and ', '']), false);
  assert.equal(hasElementBinding(['<!-- <div ', ' -->']), false);
  assert.equal(hasElementBinding(['no bindings at all']), false);
});

test('the embed build refuses an element binding in a component template', async () => {
  // The build's template pass applies to any TypeScript module under a components/ folder.
  const dir = mkdtempSync(join(tmpdir(), 'reelgate-embed-build-'));
  try {
    mkdirSync(join(dir, 'components'));
    const entry = join(dir, 'components', 'view.ts');
    writeFileSync(entry, "import { html } from 'lit';\nexport const view = (x: unknown) => html`<p>${x}</p><div class=\"a\" ${x}></div>`;\n");
    await assert.rejects(build({ ...embedOptions, entryPoints: [entry], outfile: join(dir, 'out.js'), external: ['lit'], logLevel: 'silent' }),
      /view\.ts:2: a binding inside a tag/);
    // The same template without it builds.
    writeFileSync(entry, "import { html } from 'lit';\nexport const view = (x: unknown) => html`<p>${x}</p><div class=${x}></div>`;\n");
    await build({ ...embedOptions, entryPoints: [entry], outfile: join(dir, 'out.js'), external: ['lit'], logLevel: 'silent' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the embed build refuses a directive, and builds the same module without it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'reelgate-embed-build-'));
  try {
    mkdirSync(join(dir, 'components'));
    const entry = join(dir, 'components', 'view.ts');
    const options = { ...embedOptions, entryPoints: [entry], outfile: join(dir, 'out.js'), nodePaths: [new URL('../../node_modules', import.meta.url).pathname], logLevel: 'silent' };
    writeFileSync(entry, "import { html } from 'lit';\nimport { classMap } from 'lit/directives/class-map.js';\n" +
      'export const view = (on: boolean) => html`<p class=${classMap({ on })}></p>`;\n');
    await assert.rejects(build(options), /lit-html\/directive\.js is imported, but the embed's Lit has no directives/);
    writeFileSync(entry, "import { html } from 'lit';\nexport const view = (on: boolean) => html`<p class=${on ? 'on' : ''}></p>`;\n");
    await build(options);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
