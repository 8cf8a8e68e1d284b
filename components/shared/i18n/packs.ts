/**
 * The language packs, each a module of its own, loaded the first time an element shows its language (localize.ts).
 * A plain dynamic import per language in the library build (a bundler makes each its own chunk) and in the test
 * server; the embed build swaps this module for one importing the versioned files it wrote beside the bundle
 * (`/embed/reelgate-lang.<hash>.<language>.js`; components/build-options.mjs, `chunkModules`), so a page in English
 * loads none of them.
 */
import { type PackLanguage, PACK_LANGUAGES as LANGUAGES } from './pack-languages.ts';
import type { Pack } from './types.ts';

const PACKS: Record<PackLanguage, () => Promise<{ default: Pack }>> = {
  ar: () => import('./packs/ar.ts'),
  de: () => import('./packs/de.ts'),
  es: () => import('./packs/es.ts'),
  fr: () => import('./packs/fr.ts'),
  it: () => import('./packs/it.ts'),
  ja: () => import('./packs/ja.ts'),
  ko: () => import('./packs/ko.ts'),
  nl: () => import('./packs/nl.ts'),
  pl: () => import('./packs/pl.ts'),
  'pt-BR': () => import('./packs/pt-BR.ts'),
  sv: () => import('./packs/sv.ts'),
  tr: () => import('./packs/tr.ts'),
  'zh-CN': () => import('./packs/zh-CN.ts'),
};

/** The languages there are packs for (English is built in). */
export const PACK_LANGUAGES: readonly string[] = LANGUAGES;

export const loadPack = (lang: string): Promise<Pack> => PACKS[lang as PackLanguage]().then((module) => module.default);
