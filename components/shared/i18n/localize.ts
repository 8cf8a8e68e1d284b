/**
 * The elements' words in the visitor's language.
 *
 * Which language: the element's own `lang`, else its closest ancestor's (across shadow roots), else the document's;
 * with none anywhere, the browser's `navigator.languages`, first to last. The wanted language is matched to the
 * catalogues there are, best fit: the same language in the same script (`de-AT` takes `de`, `pt-PT` takes `pt-BR`,
 * `zh-TW`, written in Traditional characters, does not take the Simplified `zh-CN`). A page's language no catalogue
 * matches is shown in English, not in the browser's, which would be a third language on the page.
 *
 * Where a message comes from, first to last: the element's `messages` property, the page's own words for that language
 * (`window.reelgate.messages`, or `defineMessages`), the language's pack, English. English is built in; every other
 * pack is a chunk of its own, loaded the first time an element needs it (packs.ts), and every element renders again
 * when it arrives. The renders before it are in English: an element never waits to render, so the box it keeps is
 * there from its first render on (a few milliseconds: its loading states, whose words are mostly for screen readers,
 * and the pack is cached for a year).
 *
 * A change of `lang` anywhere in the document renders every element again (a change of the browser's languages shows
 * at the next render: a page that follows them has no `lang`, and is rarely open across one). A right-to-left language
 * turns the element right to left by its styles (../theme.ts), unless the page gave it a `dir` of its own.
 */
import type { ReactiveControllerHost } from 'lit';
import { bestFit } from '../../../worker/contract/languages.ts';
import { formatNumber } from '../format.ts';
import { settings } from '../settings.ts';
import { english } from './en.ts';
import { loadPack, PACK_LANGUAGES } from './packs.ts';
import type { MessageId, Messages, Values } from './types.ts';

export type { Message, MessageId, Messages, Pack, PluralForms, Values } from './types.ts';

/** An element that shows words: what it may override. */
export interface Localized extends ReactiveControllerHost, HTMLElement {
  messages?: Messages | null;
}

/** English, with the words of the chunks loaded since (the kit's, the panel's, the refusal's). */
const catalogue: Messages = { ...english };
/** Packs loaded, by language; a language loading has a promise. */
const packs = new Map<string, Messages | Promise<unknown>>();
/** Every element in a document, to render again when the language changes (../reel-element.ts keeps it). */
export const hosts = new Set<Localized>();
/** The best fit of each language asked for so far (a page asks for one or two, thousands of times). */
const fits = new Map<string, [string, string] | null>();

/** The page's own words, by language. */
const pageWords = (): Record<string, Messages> => settings().messages ?? {};

/**
 * A page's own words for `lang`: overrides of any of its messages, or a whole new language (any message it leaves out
 * is English). Every element shows them at once. (The same as setting `window.reelgate.messages[lang]` before the
 * elements render.)
 */
export function defineMessages(lang: string, messages: Messages): void {
  const all = (globalThis as { reelgate?: object }).reelgate ??= {};
  const words = ((all as { messages?: Record<string, Messages> }).messages ??= {});
  words[lang] = { ...words[lang], ...messages };
  renderAll();
}

/** Adds a chunk's English to the catalogue. */
export function addEnglish(messages: Messages): void {
  Object.assign(catalogue, messages);
}

/**
 * The language `node` writes numbers and dates in: the one asked for, when its catalogue is that language's (`en-GB`
 * dates for a British page, in English words), else the catalogue's (never Finnish dates in an English sentence).
 */
export function localeOf(node: Node): string {
  return resolve(node)[1];
}

/** The message `id` for `host`, its placeholders filled. */
export function msg(host: Localized, id: MessageId, values: Values = {}): string {
  return parts(host, id, values).join('');
}

/**
 * The message `id` for `host` as pieces: text, and the values of its placeholders as given (numbers as the language
 * writes them), for a template that marks a value up (`Up next: <strong>title</strong>`).
 */
export function parts(host: Localized, id: MessageId, values: Values = {}): unknown[] {
  const [lang, locale] = resolve(host);
  const message = host.messages?.[id] ?? pageWords()[lang]?.[id] ?? packOf(lang)?.[id] ?? catalogue[id] ?? id;
  const count = values.count;
  const text = typeof message === 'string' ? message
    : message[typeof count === 'number' ? new Intl.PluralRules(locale).select(count) : 'other'] ?? message.other;
  return text.split(/\{(\w+)\}/).map((piece, i) => {
    if (i % 2 === 0) return piece;
    const value = values[piece];
    return typeof value === 'number' ? formatNumber(value, locale) : value ?? '';
  });
}

/**
 * The pack of `lang`, once loaded; else nothing, and its loading starts (once), after which every element renders
 * again. English and a language only the page speaks have none.
 */
function packOf(lang: string): Messages | undefined {
  if (!PACK_LANGUAGES.includes(lang)) return undefined;
  const pack = packs.get(lang);
  if (!pack) {
    packs.set(lang, loadPack(lang).then((loaded) => {
      packs.set(lang, loaded);
      renderAll();
    }, () => packs.set(lang, {})));
  }
  return pack instanceof Promise ? undefined : pack;
}

/**
 * Loads the pack `lang` fits (none for English or a language only the page speaks), so what renders next is in it:
 * for a server render (Lit SSR), which renders without waiting, await it first. A pack that cannot load leaves its
 * language English.
 */
export async function loadLanguage(lang: string): Promise<void> {
  const fit = bestFit(lang, ['en', ...PACK_LANGUAGES, ...Object.keys(pageWords())])?.[0] ?? 'en';
  packOf(fit);
  await packs.get(fit);
}

let watching = false;
/** One observer for the whole page, from the first element connected on (never on a server): a `lang` changed anywhere. */
export function watch(): void {
  if (watching) return;
  watching = true;
  new MutationObserver(renderAll).observe(document.documentElement, { attributeFilter: ['lang'], subtree: true });
}

function renderAll(): void {
  fits.clear();
  for (const host of hosts) host.requestUpdate();
}

/** The catalogue and the locale for `node`. */
function resolve(node: Node): [string, string] {
  for (const wanted of wantedLanguages(node)) {
    let fit = fits.get(wanted);
    if (fit === undefined) fits.set(wanted, fit = bestFit(wanted, ['en', ...PACK_LANGUAGES, ...Object.keys(pageWords())]));
    if (fit) return fit;
  }
  return ['en', 'en'];
}

/**
 * The languages `node`'s page asks for, first to last: the closest `lang` (the element's, an ancestor's, the
 * document's), else the browser's. On the server (Lit SSR) there is no document: the element's own `lang`, or none.
 */
function wantedLanguages(node: Node): readonly string[] {
  for (let current: Node | null | undefined = node; current;
    current = current.parentNode ?? (current as ShadowRoot).host) {
    const lang = (current as Element).getAttribute?.('lang')?.trim();
    if (lang) return [lang];
  }
  return globalThis.navigator?.languages ?? [];
}

/**
 * An element's lazily loaded part (the configuration panel, the gate's refusal) as one call: the module once loaded,
 * its English added to the catalogue, or a promise of it, which resolves to nothing when it could not load (offline):
 * a failed import stays failed in the page, so it is not asked again.
 */
export function lazyPart<M>(load: () => M | Promise<M>, words: (loaded: M) => Messages): () => M | Promise<M | void> {
  let part: M | Promise<M | void> | undefined;
  const ready = (loaded: M) => {
    addEnglish(words(loaded));
    return part = loaded;
  };
  return () => {
    if (!part) {
      const loading = load();
      part = loading instanceof Promise ? loading.then(ready, () => {}) : ready(loading);
    }
    return part;
  };
}
