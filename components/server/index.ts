/**
 * `reelgate/server`: what a publisher's own renderer (Astro, Eleventy, Next.js, a Node or edge function) needs to
 * render reelgate's elements on the server with Lit SSR. It asks a reelgate worker's public API on the visitor's
 * behalf, and answers the data each element takes (`data`: the same answer the element would fetch in the browser, so
 * the server renders it and the browser hydrates from it without a request) and the JSON-LD for the videos it names.
 *
 * It asks **as the visitor**: every request names the visitor's address (`x-reelgate-visitor-ip`), which the worker
 * takes only with its render token (`Authorization: Bearer <RENDER_TOKEN>`; worker/http/visitor.ts), so the worker's
 * geo policies, playback URLs and visitor limit are the visitor's, not your server's. A refused visitor gets nothing
 * gated: the worker refuses (451) what its policies bind, and content you put inside a `<reel-geo-gate>` is asked for
 * only when that gate allowed (`within`). Nothing is cached: the answers depend on who asks.
 *
 * No dependency, no Node API: `fetch`, `URL`, `AbortSignal` (Node 20.3+, Deno, Bun, Cloudflare Workers, Vercel's edge).
 * worker/docs/server-rendering.md shows it in Astro and in a plain Node renderer.
 */
import { acceptedLanguages, bestFit } from '../../worker/contract/languages.ts';
import { isHttpLink } from '../../worker/contract/links.ts';
import { PACK_LANGUAGES } from '../shared/i18n/pack-languages.ts';
import type {
  ErrorResponse, FeedItem, FeedResponse, GateResponse, MediaResponse, PlayerResponse,
} from '../../worker/contract/public-api.ts';
import { jsonLdScript, videoObject, type VideoObject } from '../../worker/contract/video-object.ts';

export type { VideoObject } from '../../worker/contract/video-object.ts';
export type { FeedResponse, GateResponse, MediaResponse, PlayerResponse } from '../../worker/contract/public-api.ts';

/**
 * The language to render the elements in for a visitor whose browser sent `acceptLanguage` (the request's
 * `Accept-Language`): the best fit of what it asks for among the elements' languages, as the browser's elements would
 * choose (`de-AT` → `de`), else `en`. Put it on the elements (`lang`, or your page's `<html lang>`), and load its pack
 * before rendering (`loadLanguage` from `reelgate`). A page whose language you know already needs none of this.
 */
export function visitorLanguage(acceptLanguage: string | null | undefined): string {
  const available = ['en', ...PACK_LANGUAGES];
  for (const wanted of acceptedLanguages(acceptLanguage ?? null)) {
    const fit = bestFit(wanted, available);
    if (fit) return fit[0];
  }
  return 'en';
}

/** The header that names the visitor, and the one that proves the right to (worker/http/visitor.ts). */
const VISITOR_IP_HEADER = 'x-reelgate-visitor-ip';

export interface ReelgateServerOptions {
  /** The worker's origin, e.g. `https://video.example.com` (what the elements' `endpoint` names). */
  endpoint: string;
  /** The worker's `RENDER_TOKEN` secret. Keep it on your servers: whoever holds it can speak for any address. */
  token: string;
  /**
   * The visitor's IP address as your server knows it (the connection's, or the address your own proxy or CDN put in
   * a header you trust). null when unknown: the worker then treats the visitor as unplaceable (each policy's
   * `unknown` rule), never as your server.
   */
  visitor: string | null;
  /** How long one answer may take before the element is left to load in the browser (default 3000 ms). */
  timeoutMs?: number;
  /** Aborts every request (e.g. the page request's own signal). */
  signal?: AbortSignal;
  /** The `fetch` to use (default: the global one), e.g. a Cloudflare service binding's `fetch`. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** What one call answers: the element's `data`, and what it names for search engines. */
export interface Loaded<T> {
  /**
   * The worker's answer, for the element's `data` property, or null when there is none (refused: 451; not found;
   * unreachable or slow): render the element without it, and it loads (or shows the refusal) in the browser.
   */
  data: T | null;
  /**
   * `data` as JSON, for the element's `data` attribute, or undefined without data. The attribute is what reaches the
   * browser, whose first render (hydration) must show what the server's did: give the attribute, not only the property.
   */
  json: string | undefined;
  /** A schema.org `VideoObject` for each video the answer names (none for a gate or a player configuration). */
  videos: VideoObject[];
  /** Why there is no data: the worker's status (0: unreachable or timed out) and error code; null with data. */
  error: { status: number; code: string } | null;
}

/**
 * Content put inside a gate: asked for only when that gate's answer (from `gate()`) allowed the visitor. Given at all
 * (null or undefined included), it is the gate's to allow.
 */
export interface Within {
  within?: Loaded<GateResponse> | null;
}

export interface ReelgateServer {
  /** `<reel-playlist site playlist page-size>`: the first page of the feed (`pageSize` as the element's, default 12). */
  feed(site: string, playlist: string, options?: Within & { pageSize?: number }): Promise<Loaded<FeedResponse>>;
  /** `<reel-player site media>`: the media (for a player that follows a playlist, its first item). */
  media(site: string, media: string, options?: Within): Promise<Loaded<MediaResponse>>;
  /** `<reel-player-config site player>`: the player configuration. */
  player(site: string, player: string, options?: Within): Promise<Loaded<PlayerResponse>>;
  /** `<reel-geo-gate policy>`: the visitor's decision under the policy. */
  gate(policy: string, options?: Within): Promise<Loaded<GateResponse>>;
  /** Every video named so far, once each, in the order asked. */
  readonly videos: readonly VideoObject[];
  /** The page's `<script type="application/ld+json">` for `videos` ('' for none): put it in the page once. */
  jsonLd(): string;
}

/** The elements' page size: 1–50, default 12 (components/reel-playlist). */
function pageLength(size: number | undefined): number {
  const n = Math.trunc(Number(size ?? 12));
  return Number.isFinite(n) ? Math.min(50, Math.max(1, n)) : 12;
}

const seg = encodeURIComponent;

/**
 * A client for one visitor's page: make one per page request (it keeps the videos the page names, for `jsonLd()`).
 *
 * ```ts
 * const reelgate = reelgateServer({ endpoint, token: process.env.REELGATE_RENDER_TOKEN!, visitor: clientAddress });
 * const shelf = await reelgate.feed('vbQmzoYd', 'DGRTLuft', { pageSize: 6 });
 * html`<reel-playlist site="vbQmzoYd" playlist="DGRTLuft" page-size="6" data=${shelf.json ?? nothing}></reel-playlist>`
 * ```
 */
export function reelgateServer(options: ReelgateServerOptions): ReelgateServer {
  if (!options.token) throw new TypeError('reelgate/server: `token` (the worker\'s RENDER_TOKEN) is required');
  const base = new URL(options.endpoint).origin;
  const fetcher = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  const named = new Map<string, VideoObject>();
  const timeout = options.timeoutMs ?? 3000;
  const absolute = (url: string): string => {
    try {
      return new URL(url, `${base}/`).href;
    } catch {
      return url;
    }
  };

  /** One answer; `media` answers (feeds, media) get their image, rendition and track URLs made absolute. */
  async function get<T>(path: string, gated: Within, describe: ((body: T) => VideoObject[]) | null): Promise<Loaded<T>> {
    const none = (status: number, code: string): Loaded<T> =>
      ({ data: null, json: undefined, videos: [], error: { status, code } });
    // Content inside a gate that did not allow, or was not asked (`within` given, even as null or undefined): never
    // asked for, so never named.
    if ('within' in gated && gated.within?.data?.allowed !== true) return none(451, 'gate_not_allowed');
    const signal = AbortSignal.any([AbortSignal.timeout(timeout), ...(options.signal ? [options.signal] : [])]);
    // The deadline holds even for a `fetch` that does not heed its signal (a stalled body, a custom transport).
    const deadline = new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    deadline.catch(() => {});
    let response: Response;
    let text: string;
    try {
      response = await Promise.race([fetcher(`${base}${path}`, {
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${options.token}`,
          [VISITOR_IP_HEADER]: options.visitor ?? '',
        },
        redirect: 'manual',
        signal,
      }), deadline]);
      text = await Promise.race([response.text(), deadline]);
    } catch {
      return none(0, 'unreachable');
    }
    let body: unknown;
    try {
      body = JSON.parse(text, (key, value: unknown) => {
        // Links as the elements take them (components/shared/api.ts): an http(s) URL or nothing.
        if (/link$/.test(key)) return isHttpLink(value) ? value : null;
        // Every image, rendition and track URL absolute: a gated item's are the worker's playback paths, which the
        // page must load from the worker, on the server's render and the browser's alike.
        return describe && /^(url|thumbnail|poster)$/.test(key) && typeof value === 'string' ? absolute(value) : value;
      });
    } catch {
      return none(response.status, 'invalid_response');
    }
    if (!response.ok) {
      return none(response.status, (body as ErrorResponse | null)?.errors?.[0]?.code ?? 'server_error');
    }
    const videos = describe?.(body as T) ?? [];
    for (const video of videos) if (!named.has(video['@id'])) named.set(video['@id'], video);
    return { data: body as T, json: JSON.stringify(body), videos, error: null };
  }

  const embedUrl = (site: string, id: string) => `${base}/embed/${seg(site)}/media/${seg(id)}`;
  const describe = (site: string, items: readonly FeedItem[]) =>
    items.map((item) => videoObject(item, embedUrl(site, item.id)));

  return {
    feed: (site, playlist, options = {}) => get<FeedResponse>(
      `/api/sites/${seg(site)}/playlists/${seg(playlist)}?page=1&page_length=${pageLength(options.pageSize)}`, options,
      (feed) => describe(site, feed.items)),
    media: (site, media, options = {}) => get<MediaResponse>(`/api/sites/${seg(site)}/media/${seg(media)}`, options,
      (answer) => describe(site, [answer])),
    player: (site, player, options = {}) => get<PlayerResponse>(`/api/sites/${seg(site)}/players/${seg(player)}`,
      options, null),
    gate: (policy, options = {}) => get<GateResponse>(`/api/gate/${seg(policy)}`, options, null),
    get videos() {
      return [...named.values()];
    },
    jsonLd: () => jsonLdScript([...named.values()]),
  };
}
