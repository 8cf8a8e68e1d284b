/**
 * Structured data for search engines: a schema.org `VideoObject` per video a page names, built once for both the
 * worker's own rendered pages (worker/render/) and a publisher's server render (`reelgate/server`). Typed by
 * schema-dts (the schema.org vocabulary as TypeScript types). Google's video results read `name`, `thumbnailUrl` and
 * `uploadDate` (required), `description`, `duration`, `embedUrl`, `url` and the regions.
 */
import type { Graph, VideoObject as SchemaVideoObject } from 'schema-dts';
import { httpUrl } from './links.ts';
import type { FeedItem } from './public-api.ts';

/**
 * Where a video may be watched: `regionsAllowed` when its policies allow fewer than half the world, `ineligibleRegion`
 * otherwise; null for anywhere, or when the builder does not know (the public API does not tell a publisher's server).
 */
export type Regions = { allowed: string[] } | { ineligible: string[] } | null;

/**
 * One video as structured data. schema.org types `regionsAllowed` as a Place; Google documents (and reads) ISO 3166-1
 * codes in text, space-separated, which is what publishers' validators expect: the two fields typed here by hand.
 */
export interface VideoObject {
  '@type': 'VideoObject';
  '@id': string;
  name: string;
  embedUrl: string;
  description?: string;
  thumbnailUrl?: string[];
  uploadDate?: string;
  duration?: string;
  url?: string;
  regionsAllowed?: string;
  ineligibleRegion?: string;
}

/** Seconds → ISO 8601 duration (`PT1M30S`). */
export function isoDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

/**
 * Every URL in structured data is absolute: crawlers do not resolve relative ones. A picture of content under a
 * policy is the worker's own playback URL (a path), resolved against the origin the page's links name (the embed
 * URL's). It is bound to the network it was handed to and expires with its token, so a crawler that fetches it later,
 * or from another address, gets 403: search results may show no picture of such content, by design.
 */
function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/** A feed item or media answer as a `VideoObject`, its embed page as its id. */
export function videoObject(item: FeedItem, embedUrl: string, regions: Regions = null): VideoObject {
  const video: VideoObject = { '@type': 'VideoObject', '@id': embedUrl, name: item.title, embedUrl };
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
  return video satisfies Omit<Exclude<SchemaVideoObject, string>, 'regionsAllowed'>;
}

/**
 * The page's one JSON-LD block for `videos`, or '' for none. `<` is escaped so no title can end the script element;
 * the type makes it a data block, which no CSP blocks and no browser runs.
 */
export function jsonLdScript(videos: readonly VideoObject[]): string {
  if (videos.length === 0) return '';
  const graph: Graph = { '@context': 'https://schema.org', '@graph': [...videos] as unknown as Graph['@graph'] };
  return `<script type="application/ld+json">${JSON.stringify(graph).replace(/</g, '\\u003c')}</script>`;
}
