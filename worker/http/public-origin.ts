/**
 * The origin the worker names in the URLs it writes into answers others may keep: an embed page's oEmbed discovery
 * link, `/oembed` (the iframe, `provider_url`, the poster), a rendered page's fallback links and JSON-LD `embedUrl`.
 *
 * With `public_origin` configured (config.ts) that origin is named and the request's `Host` changes nothing in them,
 * so a request sent with another `Host` cannot make a cache keep URLs of its choosing. Without it the request's own
 * origin is named (the worker cannot know its public address otherwise), and those answers are sent `Vary: Host`:
 * a cache that keeps them must keep one copy per host, never hand the answer made for one host to another.
 */
import type { Config } from '../config.ts';

/** The origin to write into URLs that leave in an answer. */
export function publicOrigin(request: Request, config: Config): string {
  return config.publicOrigin ?? new URL(request.url).origin;
}

/** The hosts an embed URL may name to be this worker's (`/oembed`): the public origin's, and the one asked. */
export function ownHosts(request: Request, config: Config): string[] {
  const asked = new URL(request.url).host.toLowerCase();
  return config.publicOrigin ? [new URL(config.publicOrigin).host.toLowerCase(), asked] : [asked];
}

/**
 * Marks an answer whose URLs were written from the request's own host (no public origin configured): caches keep it
 * per host. A no-op when a public origin names them.
 */
export function keyOnHost(headers: Headers, config: Config): void {
  if (config.publicOrigin !== null) return;
  const vary = headers.get('vary');
  if (vary && vary.split(',').some((name) => name.trim().toLowerCase() === 'host' || name.trim() === '*')) return;
  headers.append('vary', 'Host');
}
