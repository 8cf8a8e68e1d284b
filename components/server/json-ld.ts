/**
 * Structured data for what a server-rendered page names: a schema.org `VideoObject` per video (what Google's video
 * results read: `name`, `thumbnailUrl`, `uploadDate`, `description`, `duration`, `embedUrl`, and `url` when the
 * permalink is an http(s) URL), as the worker's own server-rendered pages give them (worker/render/json-ld.ts), built
 * from the typed schema.org definitions (`schema-dts`) and serialised once. Without `regionsAllowed`: which countries a
 * policy allows is the worker's configuration, which the public API does not tell.
 */
import type { Graph, VideoObject as SchemaVideoObject } from 'schema-dts';
import { httpUrl } from '../../worker/contract/links.ts';
import type { FeedItem } from '../../worker/contract/public-api.ts';

/** One video as structured data: a schema.org `VideoObject` (checked against `schema-dts` where it is built). */
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
}

/** Seconds → ISO 8601 duration (`PT1M30S`). */
function isoDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

/** A feed item or media answer (its URLs absolute already) as a `VideoObject`, its embed page as its id. */
export function videoObject(item: FeedItem, embedUrl: string): VideoObject {
  const video: VideoObject = { '@type': 'VideoObject', '@id': embedUrl, name: item.title, embedUrl };
  if (item.description) video.description = item.description;
  if (item.thumbnail) video.thumbnailUrl = item.thumbnails.length ? item.thumbnails.map((t) => t.url) : [item.thumbnail];
  if (item.publish_start_date) video.uploadDate = item.publish_start_date;
  if (item.duration !== null) video.duration = isoDuration(item.duration);
  const permalink = httpUrl(item.permalink);
  if (permalink) video.url = permalink;
  return video satisfies SchemaVideoObject;
}

/**
 * The page's one JSON-LD block for `videos`, or '' for none. `<` is escaped so no title can end the script element;
 * the type makes it a data block, which no CSP blocks and no browser runs.
 */
export function jsonLdScript(videos: readonly VideoObject[]): string {
  if (videos.length === 0) return '';
  const graph: Graph = { '@context': 'https://schema.org', '@graph': [...videos] as Graph['@graph'] };
  return `<script type="application/ld+json">${JSON.stringify(graph).replace(/</g, '\\u003c')}</script>`;
}
