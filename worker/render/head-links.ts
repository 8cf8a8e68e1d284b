/**
 * What a rendered page's `<head>` gets so its first frame comes sooner: the first visible player's poster preloaded at
 * high priority (the element paints it from its `poster` attribute the moment it is defined, without waiting for the
 * media answer), and the worker's bundle as a module preload when the page loads it from further down than its head
 * (the script in the head is found as early as a preload would be). Nothing is added that the page already preloads.
 *
 * The head is written before the players after it are seen, so the links go in at a mark left at `</head>`, replaced
 * once the page has been read (it is buffered anyway). Every value here is attribute text as the page holds it
 * (HTMLRewriter gives and takes it undecoded): it is written back as it is, its double quotes escaped.
 */
import { isEmbedScript } from '../http/assets.ts';

/** Attribute text → its value, for comparing URLs (the references URLs hold; anything else is left as written). */
function decoded(text: string): string {
  return text.replace(/&(amp|quot|apos|lt|gt|#\d+|#x[\da-f]+);/gi, (entity, name: string) => {
    const code = name[0] !== '#' ? null : name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    if (code !== null) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    return ({ amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' } as Record<string, string>)[name.toLowerCase()]!;
  });
}

/** Attribute text, double-quoted. */
const quoted = (text: string) => `"${text.replace(/"/g, '&quot;')}"`;

interface Script {
  src: string;
  integrity: string | null;
  crossorigin: string | null;
}

export class HeadLinks {
  /** Unguessable, so no page can hold it already. */
  readonly mark = `<!--reelgate-head-${crypto.randomUUID()}-->`;
  private readonly _preloaded = new Set<string>();
  private _poster: string | null = null;
  private _bundle: Script | null = null;

  constructor(private readonly _page: URL) {}

  /** A `<link>` of the page: what it preloads is not preloaded twice. */
  link(rel: string, href: string): void {
    if (/(^|\s)(module)?preload(\s|$)/i.test(rel)) this._preloaded.add(this._resolve(href));
  }

  /** A `<script type="module" src>` of the page, outside its head or in it. */
  script(script: Script, inHead: boolean): void {
    const url = this._resolve(script.src);
    if (inHead) this._preloaded.add(url);
    else if (!this._bundle && url.startsWith(`${this._page.origin}/`) && isEmbedScript(new URL(url).pathname)) {
      this._bundle = script;
    }
  }

  /** A player's poster; the first one shown (not inside a `<template>` or a gate) is preloaded. */
  poster(url: string): void {
    this._poster ??= url;
  }

  /** The page with its links in place of the mark. */
  write(html: string): string {
    const links: string[] = [];
    if (this._poster && !this._preloaded.has(this._resolve(this._poster))) {
      links.push(`<link rel="preload" as="image" fetchpriority="high" href=${quoted(this._poster)}>`);
    }
    const bundle = this._bundle;
    if (bundle && !this._preloaded.has(this._resolve(bundle.src))) {
      links.push(`<link rel="modulepreload" href=${quoted(bundle.src)}` +
        (bundle.integrity !== null ? ` integrity=${quoted(bundle.integrity)}` : '') +
        (bundle.crossorigin !== null ? ` crossorigin=${quoted(bundle.crossorigin)}` : '') + '>');
    }
    return html.replace(this.mark, () => links.join(''));
  }

  private _resolve(href: string): string {
    try {
      return new URL(decoded(href), this._page).href;
    } catch {
      return href;
    }
  }
}
