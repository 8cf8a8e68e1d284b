/**
 * The first state of the elements as plain HTML, put into each element's light DOM: what crawlers and visitors
 * without scripts read. The elements render their shadow DOM over it once defined (light-DOM children that fill no
 * named slot are never shown), so the same markup needs no hydration and no Lit on the server. Everything
 * interpolated is escaped.
 */
import { httpUrl } from '../contract/links.ts';
import type { FeedItem, FeedResponse, MediaResponse } from '../contract/public-api.ts';
import { escapeHtml } from '../embed/index.ts';

/** The class publishers style it by, e.g. `reel-playlist:not(:defined) > .reel-fallback`. */
export const FALLBACK_CLASS = 'reel-fallback';

function minutes(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * Where a title links: the publisher's article for the item when it has one that is an http(s) URL, otherwise the
 * worker's embed page. Never another scheme (`javascript:`): the answer was checked when projected, and is again here,
 * as a cache entry may predate that check.
 */
export function itemHref(item: Pick<FeedItem, 'permalink'>, embedUrl: string): string {
  return httpUrl(item.permalink) ?? embedUrl;
}

function itemHtml(item: FeedItem, embedUrl: string): string {
  const duration = item.duration !== null ? ` <span>(${minutes(item.duration)})</span>` : '';
  const description = item.description ? `<br>${escapeHtml(item.description)}` : '';
  return `<li><a href="${escapeHtml(itemHref(item, embedUrl))}">${escapeHtml(item.title)}</a>${duration}${description}</li>`;
}

/** A shelf: its title and a list of linked titles. `embedUrlOf` gives each item's embed page. */
export function playlistFallback(feed: FeedResponse, embedUrlOf: (item: FeedItem) => string): string {
  const link = httpUrl(feed.playlist.link);
  const title = link
    ? `<a href="${escapeHtml(link)}">${escapeHtml(feed.playlist.title)}</a>`
    : escapeHtml(feed.playlist.title);
  const items = feed.items.map((item) => itemHtml(item, embedUrlOf(item))).join('');
  return `<div class="${FALLBACK_CLASS}" data-reelgate-rendered="playlist"><p>${title}</p>` +
    (items ? `<ul>${items}</ul>` : '') + '</div>';
}

/** A player with its media named: the title, linked, and the description. */
export function mediaFallback(media: MediaResponse, embedUrl: string): string {
  const description = media.description ? `<br>${escapeHtml(media.description)}` : '';
  return `<p class="${FALLBACK_CLASS}" data-reelgate-rendered="player"><a href="${escapeHtml(itemHref(media, embedUrl))}">` +
    `${escapeHtml(media.title)}</a>${description}</p>`;
}
