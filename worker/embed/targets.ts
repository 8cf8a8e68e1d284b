/**
 * Which URLs are this worker's embeds, and how they are spelt. An embed page is `/embed/<site>/media/<id>` (a player)
 * or `/embed/<site>/playlists/<id>` (a shelf with a player above it), optionally with `?player=<id>` for a player
 * configuration's `setup_config`. `/oembed` answers for exactly these URLs on this worker's own host, or its configured
 * `public_origin`'s (worker/docs/embedding-without-scripts.md).
 */
import { invalidRequest } from '../http/errors.ts';
import { RESOURCE_ID, SITE_ID } from '../config.ts';

export type EmbedKind = 'media' | 'playlist';

export interface EmbedTarget {
  kind: EmbedKind;
  site: string;
  id: string;
  /** A player whose `setup_config` applies, or null. */
  player: string | null;
}

const SEGMENT: Record<EmbedKind, string> = { media: 'media', playlist: 'playlists' };
/** An embed page's path, with an optional trailing slash as people paste it. */
const EMBED_PATH = /^\/embed\/([^/]+)\/(media|playlists)\/([^/]+)\/?$/;

export function embedPath(target: EmbedTarget): string {
  return `/embed/${target.site}/${SEGMENT[target.kind]}/${target.id}`;
}

/** The embed page's absolute URL on `origin`, `?player=` kept. */
export function embedUrl(origin: string, target: EmbedTarget): string {
  return `${origin}${embedPath(target)}${target.player ? `?player=${target.player}` : ''}`;
}

/** The oEmbed URL that describes an embed page (its discovery `<link>`). */
export function oembedUrl(origin: string, target: EmbedTarget): string {
  return `${origin}/oembed?url=${encodeURIComponent(embedUrl(origin, target))}&format=json`;
}

const MAX_URL_LENGTH = 400;

/**
 * The embed a pasted URL names, or null when it is not one of this worker's (another host, another path: the caller
 * answers 404). `ownHosts` are the hosts that are this worker's (public-origin.ts `ownHosts`, lower-case). A URL that
 * cannot be read, or an embed URL with a malformed id, is refused with 400. Query parameters other than `player`
 * (tracking parameters a CMS or a share button added) are ignored.
 */
export function parseEmbedUrl(raw: string, ownHosts: readonly string[]): EmbedTarget | null {
  if (raw.length > MAX_URL_LENGTH) throw invalidRequest(`"url" is too long (at most ${MAX_URL_LENGTH} characters).`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidRequest('"url" is not an absolute URL (https://…/embed/<site>/media/<id>).');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidRequest('"url" must be an http or https URL.');
  if (url.username || url.password) throw invalidRequest('"url" must not carry credentials.');
  if (!ownHosts.includes(url.host.toLowerCase())) return null;
  const match = EMBED_PATH.exec(url.pathname);
  if (!match) return null;
  const [, site, segment, id] = match as unknown as [string, string, string, string];
  if (!SITE_ID.test(site)) throw invalidRequest('The site id in "url" is not valid.');
  const kind: EmbedKind = segment === 'media' ? 'media' : 'playlist';
  if (!RESOURCE_ID.test(id)) throw invalidRequest(`The ${kind} id in "url" is not valid.`);
  const player = url.searchParams.get('player');
  if (player !== null && !RESOURCE_ID.test(player)) throw invalidRequest('The player id in "url" is not valid.');
  return { kind, site, id, player };
}
