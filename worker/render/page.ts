/**
 * Server-rendered first paint for the pages the worker serves (the demo page, and any HTML page routed through it):
 * every `<reel-playlist site playlist>` and `<reel-player site media>` gets its content as plain HTML in its light DOM
 * (fallback-html.ts), and the page gets one JSON-LD block describing each video it names (contract/video-object.ts).
 *
 * The content comes from the public API as this visitor gets it (`RenderSource`), so it obeys exactly the geo policies
 * the elements' own requests obey: a refused feed or media renders nothing and names nothing, a gated item missing
 * from a feed is missing from the HTML. An element whose content cannot be had (refused, not found, the budget spent)
 * keeps the publisher's own fallback. The page is buffered (HTML pages are small) so its caching can follow what it
 * contains: shared caches may keep it only when every answer in it was public.
 *
 * A player the visitor may see also gets its media's poster as its `poster` attribute (the element paints it before
 * its own media answer arrives), and the page's head a preload of the first one (head-links.ts).
 */
import type { FeedItem, FeedResponse, MediaResponse } from '../contract/public-api.ts';
import { mediaFallback, playlistFallback } from './fallback-html.ts';
import { HeadLinks } from './head-links.ts';
import { jsonLdScript, videoObject } from '../contract/video-object.ts';
import type { Regions } from './regions.ts';

/** What the elements' default page holds (components/reel-playlist: `page-size`, 12, at most 50). */
const DEFAULT_PAGE_SIZE = 12;
const MAX_PAGE_SIZE = 50;
/** An id as the platform spells them; anything else is left to the element to refuse. */
const ID = /^[A-Za-z0-9]{8}$/;

export interface Answer<T> {
  body: T;
  /** The API answer's Cache-Control. */
  cacheControl: string | null;
}

/** The public API as the visitor who asked for the page gets it. null: no content (refused, missing, unavailable). */
export interface RenderSource {
  feed(site: string, playlist: string, pageLength: number): Promise<Answer<FeedResponse> | null>;
  media(site: string, media: string): Promise<Answer<MediaResponse> | null>;
  /** The regions structured data names for a media item the visitor was given. */
  regions(site: string, media: string): Promise<Regions>;
  /** Absolute URL of the worker's embed page for a media item. */
  embedUrl(site: string, media: string): string;
  /** The page's URL (on this worker: the elements its bundle defines ask this origin). */
  readonly page: URL;
}

export function pageSizeOf(value: string | null): number {
  const size = Math.trunc(Number(value ?? DEFAULT_PAGE_SIZE));
  return Number.isFinite(size) ? Math.min(MAX_PAGE_SIZE, Math.max(1, size)) : DEFAULT_PAGE_SIZE;
}

/** The most a shared cache may keep the page, given the answers in it. */
export function combinedCacheControl(answers: ReadonlyArray<string | null>, page: string | null): string {
  let maxAge = Number.POSITIVE_INFINITY;
  for (const value of [...answers, page]) {
    if (value === null) continue;
    if (/private|no-store|no-cache/i.test(value)) return 'private, no-store';
    const match = /max-age=(\d+)/i.exec(value);
    if (match) maxAge = Math.min(maxAge, Number(match[1]));
  }
  return `public, max-age=${Number.isFinite(maxAge) ? maxAge : 0}`;
}

/**
 * The media's poster as the element loads it (components/shared/api.ts `mediaUrl`): resolved against the worker it
 * asks, its `endpoint` or, without one, this worker (its bundle's). null for an element that asks another worker: what
 * this worker answered is not what that one will.
 */
export function posterUrl(poster: string | null, endpoint: string | null, page: URL): string | null {
  if (!poster) return null;
  try {
    const base = new URL(`${(endpoint?.trim() || page.origin).replace(/\/+$/, '')}/`, page);
    return base.origin === page.origin ? new URL(poster, base).href : null;
  } catch {
    return null;
  }
}

export async function renderPage(page: Response, source: RenderSource): Promise<Response> {
  const videos = new Map<string, ReturnType<typeof videoObject>>();
  const cacheControls: Array<string | null> = [];
  const describe = async (site: string, item: FeedItem): Promise<void> => {
    const embedUrl = source.embedUrl(site, item.id);
    if (!videos.has(embedUrl)) videos.set(embedUrl, videoObject(item, embedUrl, await source.regions(site, item.id)));
  };

  const head = new HeadLinks(source.page);
  let inHead = false;
  /** How deep inside `<template>`s and gates: a player there may never show, so its poster is not preloaded. */
  let hidden = 0;

  const rewriter = new HTMLRewriter()
    .on('head', {
      element(element) {
        inHead = true;
        element.onEndTag((end) => {
          inHead = false;
          end.before(head.mark, { html: true });
        });
      },
    })
    .on('link[rel][href]', {
      element(element) {
        head.link(element.getAttribute('rel')!, element.getAttribute('href')!);
      },
    })
    .on('script[type="module"][src]', {
      element(element) {
        head.script({ src: element.getAttribute('src')!, integrity: element.getAttribute('integrity'),
          crossorigin: element.getAttribute('crossorigin') }, inHead);
      },
    })
    .on('template, reel-geo-gate', {
      element(element) {
        hidden++;
        element.onEndTag(() => {
          hidden--;
        });
      },
    })
    .on('reel-playlist', {
      async element(element) {
        const site = element.getAttribute('site');
        const playlist = element.getAttribute('playlist');
        if (!site || !playlist || !ID.test(site) || !ID.test(playlist)) return;
        const answer = await source.feed(site, playlist, pageSizeOf(element.getAttribute('page-size')));
        if (!answer) return;
        cacheControls.push(answer.cacheControl);
        for (const item of answer.body.items) await describe(site, item);
        element.prepend(playlistFallback(answer.body, (item) => source.embedUrl(site, item.id)), { html: true });
      },
    })
    .on('reel-player', {
      async element(element) {
        const site = element.getAttribute('site');
        const media = element.getAttribute('media');
        if (!site || !media || !ID.test(site) || !ID.test(media)) return;
        const answer = await source.media(site, media);
        if (!answer) return;
        cacheControls.push(answer.cacheControl);
        await describe(site, answer.body);
        element.prepend(mediaFallback(answer.body, source.embedUrl(site, media)), { html: true });
        // The publisher's own poster stays. (Attribute text: HTMLRewriter escapes only the double quotes it writes.)
        let poster = element.getAttribute('poster');
        if (poster === null) {
          poster = posterUrl(answer.body.poster, element.getAttribute('endpoint'), source.page)?.replace(/&/g, '&amp;') ?? null;
          if (poster) element.setAttribute('poster', poster);
        }
        if (poster && !hidden) head.poster(poster);
      },
    })
    .on('body', {
      element(element) {
        element.onEndTag((end) => {
          if (videos.size) end.before(jsonLdScript([...videos.values()]), { html: true });
        });
      },
    });

  const html = head.write(await rewriter.transform(page).text());
  const headers = new Headers(page.headers);
  headers.delete('content-length');
  headers.delete('etag');
  if (cacheControls.length) headers.set('cache-control', combinedCacheControl(cacheControls, page.headers.get('cache-control')));
  return new Response(html, { status: page.status, headers });
}
