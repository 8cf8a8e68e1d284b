// The language packs' lint: every pack (components/shared/i18n/packs/<language>.ts) has every message of the English
// catalogue (the elements', and those of the playback kit, the configuration panel and the gate's refusal), nothing else, and each with the same placeholders: a placeholder
// a pack drops leaves a number or a title out of what the visitor reads, and one it invents prints nothing. A message
// that counts has a form for every plural category its language has (`Intl.PluralRules`): without Polish `few`, "3
// filmy" would read "3 filmu". The packs must be the languages the bundle offers (packs.ts), each its own chunk.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importTs as load } from '../support/import-ts.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packsDir = join(root, 'components/shared/i18n/packs');

const { english } = await load(join(root, 'components/shared/i18n/en.ts'));
const { kitEnglish } = await load(join(root, 'components/reel-player/kit/en.ts'));
const { configEnglish } = await load(join(root, 'components/reel-player-config/en.ts'));
const { refusalEnglish } = await load(join(root, 'components/reel-geo-gate/refusal-words.ts'));
const catalogue = { ...english, ...kitEnglish, ...configEnglish, ...refusalEnglish };
const languages = readdirSync(packsDir).filter((name) => name.endsWith('.ts')).map((name) => name.slice(0, -3)).sort();

/** The placeholders a text names, as a sorted list. */
const placeholders = (text) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
/** Every placeholder of a message, whatever its form. */
const allPlaceholders = (message) =>
  [...new Set((typeof message === 'string' ? [message] : Object.values(message)).flatMap(placeholders))].sort();

describe('language packs', () => {
  test('the English catalogues share no id, and every plural message has `other` and `{count}`', () => {
    const ids = [english, kitEnglish, configEnglish, refusalEnglish].flatMap((part) => Object.keys(part));
    assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'ids in two catalogues');
    for (const [id, message] of Object.entries(catalogue)) {
      if (typeof message === 'string') continue;
      assert.equal(typeof message.other, 'string', `${id}: no "other" form`);
      assert.ok(allPlaceholders(message).includes('count'), `${id}: a plural message without {count}`);
    }
  });

  test('the reference lists every message, by id (components/docs/languages.md)', () => {
    const doc = readFileSync(join(root, 'components/docs/languages.md'), 'utf8');
    assert.deepEqual(Object.keys(catalogue).filter((id) => !doc.includes(`| \`${id}\` |`)), [], 'ids the reference leaves out');
  });

  test('the bundle offers exactly the packs there are (packs.ts, pack-languages.ts)', async () => {
    const offered = [...readFileSync(join(root, 'components/shared/i18n/packs.ts'), 'utf8')
      .matchAll(/import\('\.\/packs\/([\w-]+)\.ts'\)/g)].map((m) => m[1]).sort();
    assert.deepEqual(offered, languages);
    const { PACK_LANGUAGES } = await load(join(root, 'components/shared/i18n/pack-languages.ts'));
    assert.deepEqual([...PACK_LANGUAGES].sort(), languages, 'pack-languages.ts names the packs there are');
    assert.ok(languages.length >= 13, `only ${languages.length} packs`);
  });

  for (const language of languages) {
    test(`${language}: every message, no other, with the same placeholders and its plural forms`, async () => {
      const { default: pack } = await load(join(packsDir, `${language}.ts`));
      assert.deepEqual(Object.keys(pack).filter((id) => !(id in catalogue)), [], 'ids English does not have');
      assert.deepEqual(Object.keys(catalogue).filter((id) => !(id in pack)), [], 'ids missing');
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const [id, source] of Object.entries(catalogue)) {
        const message = pack[id];
        assert.ok(typeof message === 'string' || (message && typeof message === 'object'), `${id}: not a message`);
        assert.ok(Object.values(typeof message === 'string' ? [message] : message).every((t) => typeof t === 'string' && t.trim()),
          `${id}: an empty text`);
        if (typeof source === 'string') {
          assert.equal(typeof message, 'string', `${id}: English has one form, so must the pack`);
          assert.deepEqual(placeholders(message), placeholders(source), `${id}: placeholders differ`);
          continue;
        }
        // A form per category the language has, and none it has not.
        const forms = typeof message === 'string' ? { other: message } : message;
        assert.deepEqual(Object.keys(forms).filter((c) => !categories.includes(c)), [], `${id}: forms ${language} has no use for`);
        assert.deepEqual(categories.filter((c) => !(c in forms)), [], `${id}: plural forms missing`);
        for (const [category, text] of Object.entries(forms)) {
          assert.deepEqual(placeholders(text).filter((p) => !allPlaceholders(source).includes(p)), [],
            `${id}.${category}: a placeholder English does not have`);
        }
        assert.deepEqual(allPlaceholders(forms), allPlaceholders(source), `${id}: placeholders differ`);
      }
    });
  }
});
