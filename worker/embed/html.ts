/**
 * The embed pages' HTML: small documents that load the worker's versioned bundle and render the existing elements,
 * and the short pages an embed answers with when it cannot show its content (a refusal names nothing of it).
 * Everything interpolated is escaped; ids are checked before they get here.
 */
import { type EmbedLanguage, type EmbedWords, isRightToLeft } from './words.ts';
import { FRAME_SCRIPT, frameLayout } from './frame-script.ts';
import type { EmbedKind, EmbedTarget } from './targets.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * The page's own styles: no margin (the iframe is the frame), the player's 16:9 reserved before the bundle defines it
 * (no layout shift), and light/dark following the viewer's `prefers-color-scheme` as the elements do. Nothing here
 * moves, so `prefers-reduced-motion` is the elements' own business.
 */
const BASE_STYLE = [
  ':root{color-scheme:light dark}',
  'html,body{margin:0;background:transparent}',
  // In rem, as the frame's posted height is (frame-script.ts `frameLayout`): the player's rows scale with it.
  'body{font:1rem/1.4 system-ui,sans-serif}',
  '.note{margin:0;padding:1rem}',
].join('');
const ELEMENT_STYLE = [
  'reel-player,reel-playlist{display:block}',
  'reel-player:not(:defined){aspect-ratio:16/9;background:#000;color:#fff}',
  'reel-playlist:not(:defined){min-block-size:12rem}',
  '.fallback{margin:0;padding:1rem}',
].join('');

/** What the embed URL alone says of the frame: the same for every visitor, refused or not. */
export interface FrameShape {
  kind: EmbedKind;
  /** Whether the URL names a player (`?player=`): its toolbar row is part of the layout. */
  player: boolean;
}

interface PageParts {
  title: string;
  /** The frame's layout (its posted height); null for a page no URL of ours names. */
  frame: FrameShape | null;
  body: string;
  /** The bundle to load; null for a page with no element (a refusal). */
  bundle: string | null;
  /** The oEmbed discovery URL; null when the page describes nothing. */
  oembed: string | null;
  /** DEV_MODE's stand-in address for the elements' own calls, or null. */
  devIp: string | null;
  /** The page's language (words.ts). */
  lang: string;
}

function frameMeta(frame: FrameShape | null): string {
  if (!frame) return '';
  const { ratio, rem } = frameLayout(frame.kind, frame.player);
  return `<meta name="reelgate-frame" content="${ratio} ${rem}">`;
}

function page({ title, frame, body, bundle, oembed, devIp, lang }: PageParts): string {
  return [
    '<!doctype html>',
    // The elements inside take their language from it (components/docs/languages.md).
    `<html lang="${escapeHtml(lang)}"${isRightToLeft(lang) ? ' dir="rtl"' : ''}>`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(title)}</title>`,
    oembed ? `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(oembed)}" title="${escapeHtml(title)}">` : '',
    devIp ? `<meta name="reelgate-dev-ip" content="${escapeHtml(devIp)}">` : '',
    frameMeta(frame),
    `<style>${BASE_STYLE}${bundle ? ELEMENT_STYLE : ''}</style>`,
    `<script>${FRAME_SCRIPT}</script>`,
    bundle ? `<script type="module" src="${escapeHtml(bundle)}"></script>` : '',
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].filter(Boolean).join('\n');
}

export interface EmbedPageOptions {
  target: EmbedTarget;
  title: string;
  bundle: string;
  oembed: string;
  devIp: string | null;
  language: EmbedLanguage;
}

/** A media embed: one player. A playlist embed: a player following a shelf, as the script-tag embed pairs them. */
export function embedPage({ target, title, bundle, oembed, devIp, language }: EmbedPageOptions): string {
  const player = target.player ? ` player="${target.player}"` : '';
  const fallback = `<p class="fallback">${escapeHtml(language.words.needsScript.replace('{title}', title))}</p>`;
  const body = target.kind === 'media'
    ? `<reel-player site="${target.site}" media="${target.id}"${player}>${fallback}</reel-player>`
    : `<reel-player site="${target.site}"${player} for="shelf"></reel-player>\n`
      + `<reel-playlist id="shelf" site="${target.site}" playlist="${target.id}">${fallback}</reel-playlist>`;
  return page({ title, frame: { kind: target.kind, player: target.player !== null }, body, bundle, oembed, devIp,
    lang: language.lang });
}

/** What an embed page shows when it cannot show its content, by status. Names nothing of the content. */
const REFUSALS: Record<number, keyof EmbedWords> = {
  400: 'refusal400', 403: 'refusal403', 404: 'refusal404', 429: 'refusal429', 451: 'refusal451',
};

/**
 * A refusal, laid out as the frame its URL asked for (`frame`): it posts the heights an allowed page of that URL posts,
 * so the parent cannot tell the two apart by them.
 */
export function refusalPage(status: number, frame: FrameShape | null, { lang, words }: EmbedLanguage): string {
  const text = words[REFUSALS[status] ?? 'refusalOther'];
  return page({ title: status === 451 ? words.titleNotAvailable : words.titleUnavailable, frame,
    body: `<p class="note" role="alert">${escapeHtml(text)}</p>`, bundle: null, oembed: null, devIp: null, lang });
}
