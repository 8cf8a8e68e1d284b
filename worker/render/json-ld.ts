/**
 * Structured data for search engines: a schema.org `VideoObject` per media item a page shows, typed by schema-dts
 * (the schema.org vocabulary as TypeScript types), serialised once at the end. Google's video results read `name`,
 * `thumbnailUrl` and `uploadDate` (required), `description`, `duration`, `embedUrl` and the regions.
 */
import type { Graph, VideoObject } from 'schema-dts';
import { httpUrl } from '../contract/links.ts';
import type { FeedItem } from '../contract/public-api.ts';
import type { Regions } from './regions.ts';

/**
 * schema.org types `regionsAllowed` as a Place; Google documents (and reads) ISO 3166-1 codes in text, space-separated,
 * which is what publishers' validators expect. The one field typed here by hand.
 */
type VideoLd = Exclude<VideoObject, string> & { regionsAllowed?: string; ineligibleRegion?: string };

/** Seconds → ISO 8601 duration (`PT1M30S`). */
export function isoDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

/**
 * Every URL in structured data is absolute: crawlers do not resolve relative ones. A picture of content under a policy is
 * the worker's own playback URL (a path), resolved against the origin the page's links name (the embed URL's). It is
 * bound to the network it was handed to and expires with its token, so a crawler that fetches it later, or from
 * another address, gets 403: search results may show no picture of such content, by design (worker/README.md,
 * "Sealed origin").
 */
function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

export function videoObject(item: FeedItem, embedUrl: string, regions: Regions): VideoLd {
  const video: VideoLd = { '@type': 'VideoObject', '@id': embedUrl, name: item.title, embedUrl };
  if (item.description) video.description = item.description;
  if (item.thumbnail) {
    video.thumbnailUrl = (item.thumbnails.length ? item.thumbnails.map((t) => t.url) : [item.thumbnail])
      .map((url) => absolute(url, embedUrl));
  }
  if (item.publish_start_date) video.uploadDate = item.publish_start_date;
  if (item.duration !== null) video.duration = isoDuration(item.duration);
  // Only an http(s) URL is listed as the video's page (a `javascript:` permalink is none).
  const permalink = httpUrl(item.permalink);
  if (permalink) video.url = permalink;
  if (regions && 'allowed' in regions) video.regionsAllowed = regions.allowed.join(' ');
  if (regions && 'ineligible' in regions) video.ineligibleRegion = regions.ineligible.join(' ');
  return video;
}

/**
 * The page's one JSON-LD block. `<` is escaped so no title can close the script element; the type makes it a data
 * block, which no CSP blocks and no browser runs.
 */
export function jsonLdScript(videos: readonly VideoLd[]): string {
  const graph: Graph = { '@context': 'https://schema.org', '@graph': [...videos] as Graph['@graph'] };
  return `<script type="application/ld+json">${JSON.stringify(graph).replace(/</g, '\\u003c')}</script>`;
}
