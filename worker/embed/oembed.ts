/**
 * GET /oembed?url=<embed URL>&format=json&maxwidth=&maxheight= — oEmbed 1.0 (https://oembed.com) for this worker's
 * embed pages, so a URL pasted into a CMS becomes a player (`type: "video"`) or a shelf with a player
 * (`type: "rich"`). The same policies as the API and the pages: a refused caller gets 451 and learns nothing (not
 * even the title). Errors are the v2 body: 400 for bad input, 404 for a URL that is not one of ours (another host,
 * another path) or content that does not exist, 501 for `format=xml` (as the spec allows). Parameters other than the
 * four above are ignored, as consumers add their own (the spec lets providers define more).
 */
import { httpUrl } from '../contract/links.ts';
import { enforceVisitorLimit } from '../http/abuse-limit.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError, invalidRequest, notFound } from '../http/errors.ts';
import { keyOnHost, ownHosts, publicOrigin } from '../http/public-origin.ts';
import { intParam } from '../http/request-guard.ts';
import { jsonResponse } from '../http/respond.ts';
import { cacheControlFor } from '../resources/index.ts';
import { crossSiteOembed, ownOrNoBrowser } from './fetch-metadata.ts';
import { resizeSnippet } from './frame-script.ts';
import { escapeHtml } from './html.ts';
import { resolveEmbed } from './resolve.ts';
import { embedUrl, parseEmbedUrl, type EmbedKind } from './targets.ts';

/** The oEmbed answer (oEmbed 1.0, section 2.3.4). */
export interface OEmbedResponse {
  version: '1.0';
  type: 'video' | 'rich';
  title: string;
  provider_name: string;
  provider_url: string;
  html: string;
  width: number;
  height: number;
  cache_age: number;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

const PARAMETERS = ['url', 'format', 'maxwidth', 'maxheight'] as const;
type Parameter = (typeof PARAMETERS)[number];
const MAX_DIMENSION = 10_000;
/** The width an embed is offered at when the consumer states no bound. */
const DEFAULT_WIDTH = 640;
/** Room for the shelf below a playlist embed's player, until the page reports its real height. */
const SHELF_HEIGHT = 420;
/** How long a consumer may keep an answer for content under no policy; under a policy, the poster URL's bound. */
const CACHE_AGE = 3600;
const PERSONAL_CACHE_AGE = 300;

function readParameters(request: Request): Partial<Record<Parameter, string>> {
  const out: Partial<Record<Parameter, string>> = {};
  for (const [name, value] of new URL(request.url).searchParams) {
    if (!(PARAMETERS as readonly string[]).includes(name)) continue;
    if (out[name as Parameter] !== undefined) throw invalidRequest(`The query parameter "${name}" is repeated.`);
    out[name as Parameter] = value;
  }
  return out;
}

/**
 * The iframe's size: `DEFAULT_WIDTH` wide or as wide as `maxwidth` allows; a player keeps 16:9 (narrower still when
 * `maxheight` asks), a shelf is the player plus room for cards, cut to `maxheight` (the page reports its real height).
 */
export function embedSize(kind: EmbedKind, maxWidth: number | null, maxHeight: number | null): { width: number; height: number } {
  let width = Math.min(DEFAULT_WIDTH, maxWidth ?? DEFAULT_WIDTH);
  if (kind === 'media') {
    if (maxHeight !== null && Math.round((width * 9) / 16) > maxHeight) width = Math.max(1, Math.floor((maxHeight * 16) / 9));
    return { width, height: Math.max(1, Math.min(Math.round((width * 9) / 16), maxHeight ?? Infinity)) };
  }
  const height = Math.round((width * 9) / 16) + SHELF_HEIGHT;
  return { width, height: Math.min(height, maxHeight ?? height) };
}

/** A playback URL is a path on this worker, and a consumer needs it absolute; only an http(s) URL is listed at all. */
function absoluteHttpUrl(url: string, origin: string): string | null {
  try {
    return httpUrl(new URL(url, `${origin}/`).href);
  } catch {
    return null;
  }
}

function iframeHtml(src: string, title: string, width: number, height: number, origin: string): string {
  return `<iframe src="${escapeHtml(src)}" width="${width}" height="${height}" title="${escapeHtml(title)}" `
    + 'style="border:0;max-width:100%" allow="autoplay; fullscreen; picture-in-picture; encrypted-media" allowfullscreen '
    + 'loading="lazy" referrerpolicy="strict-origin-when-cross-origin"></iframe>'
    + resizeSnippet(origin);
}

export async function oembedRoute(c: RequestContext): Promise<Response> {
  const { request, env, config } = c;
  // Another site's page gets one answer, before any decision: it reads none (no CORS), but its load's success or failure
  // would tell it the decision (embed/fetch-metadata.ts).
  if (!ownOrNoBrowser(request)) throw crossSiteOembed();
  const query = readParameters(request);
  if (query.url === undefined || query.url === '') {
    throw invalidRequest('"url" is required: the address of an embed, e.g. https://<worker>/embed/<site>/media/<id>.');
  }
  const format = query.format ?? 'json';
  if (format === 'xml') throw new ApiError(501, 'not_implemented', 'Only format=json is supported.');
  if (format !== 'json') throw invalidRequest('"format" must be json.');
  const maxWidth = query.maxwidth === undefined ? null : intParam(query.maxwidth, 'maxwidth', 0, 1, MAX_DIMENSION);
  const maxHeight = query.maxheight === undefined ? null : intParam(query.maxheight, 'maxheight', 0, 1, MAX_DIMENSION);
  // Every URL of the answer names the public origin when one is configured, never what `Host` said (public-origin.ts).
  const origin = publicOrigin(request, config);
  const target = parseEmbedUrl(query.url, ownHosts(request, config));
  if (!target) throw notFound('This URL is not an embed of this service.');
  await enforceVisitorLimit(request, env);

  const found = await resolveEmbed(c, target, { thumbnail: true });
  const { width, height } = embedSize(target.kind, maxWidth, maxHeight);
  // A consumer keeps the answer no longer than its thumbnail URL works: a playback URL's bound, or a signed URL's lifetime.
  const signing = config.sites.get(target.site)?.urlSigning;
  const cacheAge = found.personal
    ? Math.min(PERSONAL_CACHE_AGE, config.playback.tokenMinutes * 60)
    : Math.min(CACHE_AGE, signing ? signing.lifetimeMinutes * 60 : CACHE_AGE);
  const body: OEmbedResponse = {
    version: '1.0',
    type: target.kind === 'media' ? 'video' : 'rich',
    title: found.title,
    provider_name: new URL(origin).host,
    provider_url: `${origin}/`,
    html: iframeHtml(embedUrl(origin, target), found.title, width, height, origin),
    width,
    height,
    cache_age: cacheAge,
  };
  const thumbnail = found.thumbnail ? absoluteHttpUrl(found.thumbnail, origin) : null;
  if (thumbnail) {
    // Its size is the embed's (16:9 posters).
    body.thumbnail_url = thumbnail;
    body.thumbnail_width = width;
    body.thumbnail_height = Math.round((width * 9) / 16);
  }
  const response = await jsonResponse(request, body, {
    cacheControl: cacheControlFor('oembed', config, found.personal),
  });
  keyOnHost(response.headers, config);
  return response;
}
