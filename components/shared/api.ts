/**
 * The worker's public API as the elements call it. The worker is found from the bundle's own URL
 * (`import.meta.url`), so a page that loads `https://<worker>/embed/reelgate.js` needs no endpoint attribute.
 */
import { isHttpLink } from '../../worker/contract/links.ts';
import type {
  ErrorResponse, FeedResponse, GateResponse, MediaResponse, PlayerResponse,
} from '../../worker/contract/public-api.ts';
import { type Localized, msg } from './i18n/localize.ts';
import { DEV_IP_HEADER, settings } from './settings.ts';

/** The origin the bundle was loaded from: where its worker answers. */
export const BUNDLE_ORIGIN = new URL(import.meta.url).origin;

/** A refused or failed call. `status` is 0 when the worker could not be reached at all. */
export class ReelApiError extends Error {
  override readonly name = 'ReelApiError';
  constructor(readonly status: number, readonly code: string, description: string) {
    super(description);
  }

  /** True when trying again later may help (network failure, 5xx, 429). */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

function isErrorBody(body: unknown): body is ErrorResponse {
  const errors = (body as ErrorResponse | null)?.errors;
  return Array.isArray(errors) && typeof errors[0]?.code === 'string';
}

/**
 * The base URL of the worker an element talks to: its `endpoint` attribute, else the page's `window.reelgate.endpoint`,
 * else the bundle's origin.
 */
export function apiBase(endpoint: string | null | undefined): string {
  const pageWide = settings().endpoint;
  const base = endpoint?.trim() || pageWide?.trim() || BUNDLE_ORIGIN;
  return base.replace(/\/+$/, '');
}

/** Where the worker's own playback URLs live (`/api/play/<token>/<file>`, answered for content under a policy). */
export const PLAYBACK_PATH = '/api/play/';
/** With DEV_MODE on, the stand-in address for requests a media element makes (it cannot send the header). */
export const DEV_IP_PARAM = 'dev_ip';

/**
 * A URL of a media answer as the page should load it: the worker's playback URLs are paths on the worker, resolved
 * against the worker the element asked; the platform's own URLs (content under no policy) are absolute already.
 */
export function mediaUrl(endpoint: string | null | undefined, url: string): string {
  let resolved: URL;
  try {
    resolved = new URL(url, `${apiBase(endpoint)}/`);
  } catch {
    return url;
  }
  const devIp = settings().devIp;
  if (devIp && resolved.pathname.startsWith(PLAYBACK_PATH)) resolved.searchParams.set(DEV_IP_PARAM, devIp);
  return resolved.href;
}

/**
 * Whether a URL expires, so that asking for the media again renews it: the worker's playback URLs, and the platform's
 * URLs the worker signed (`sig`, `token`: a property that enforces URL signing).
 */
export function isPlaybackUrl(url: string): boolean {
  return /\/api\/play\/|(sig|token)=/.test(url);
}

/**
 * The longest `Retry-After` a 429 or 503 is waited out for before the element asks again by itself (twice at most):
 * the worker's budget answers a busy moment (a freshly started worker's first page views) with a wait of a second
 * or two, which should cost a visitor a longer skeleton, not an error box. Longer waits (the visitor limit's minute)
 * show the error, with its retry button.
 */
const AUTO_RETRY_SECONDS = 10;

/** Resolves after `ms`, or rejects with the abort's reason. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

async function fetchJson<T>(url: string, signal: AbortSignal, retries = 2): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const devIp = settings().devIp;
  if (devIp) headers[DEV_IP_HEADER] = devIp;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal, credentials: 'omit' });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ReelApiError(0, 'network_error', 'The video service could not be reached.');
  }
  let body: unknown = null;
  try {
    // Links as the elements expose them (an item's `permalink`, a playlist's `link`, any field named `…link` in an
    // answer: in `items`, `feed`, `mediaItem`, the events' `item`): an http(s) URL or null, never another scheme
    // (`javascript:`), whatever worker answered (an `endpoint` may name another one), so no link an element renders
    // runs script.
    body = JSON.parse(await response.text(), (key, value: unknown) => (/link$/.test(key) && !isHttpLink(value) ? null : value));
  } catch (error) {
    if (signal.aborted) throw error;
  }
  if (response.ok && body !== null && !isErrorBody(body)) return body as T;
  // No header (NaN) or an HTTP date offers no wait in seconds: nothing is retried.
  const wait = +(response.headers.get('retry-after') ?? NaN);
  if (retries && (response.status === 429 || response.status === 503) && wait >= 0 && wait <= AUTO_RETRY_SECONDS) {
    await pause(wait * 1000, signal);
    return fetchJson(url, signal, retries - 1);
  }
  if (isErrorBody(body)) {
    const first = body.errors[0]!;
    throw new ReelApiError(response.status, first.code, first.description);
  }
  throw new ReelApiError(response.status, response.ok ? 'invalid_response' : 'server_error',
    'The video service answered with something unexpected.');
}

/** A GET in flight, shared by every element asking for the same URL now (the player and its configuration panel). */
interface SharedGet {
  _answer: Promise<unknown>;
  _abort: AbortController;
  _waiting: number;
}
const inFlight = new Map<string, SharedGet>();

/**
 * The answer to a GET of `url`. Identical calls in flight at the same moment share one request (answers are the same
 * for the same visitor, and the worker would be asked twice for nothing); it is aborted only once every caller has
 * given up. Settled requests are not remembered: the next call asks again, and the browser's HTTP cache decides.
 */
function getJson<T>(url: string, signal: AbortSignal): Promise<T> {
  const key = `${url} ${settings().devIp}`;
  let entry = inFlight.get(key);
  const forget = () => inFlight.get(key) === entry && inFlight.delete(key);
  if (!entry) {
    const abort = new AbortController();
    inFlight.set(key, entry = { _answer: fetchJson(url, abort.signal), _abort: abort, _waiting: 0 });
    entry._answer.then(forget, forget);
  }
  entry._waiting++;
  return new Promise<T>((resolve, reject) => {
    const settle = (done: () => void) => {
      signal.removeEventListener('abort', leave);
      entry._waiting--;
      done();
    };
    const leave = () => settle(() => {
      if (!entry._waiting) {
        forget();
        entry._abort.abort();
      }
      reject(signal.reason);
    });
    if (signal.aborted) return leave();
    signal.addEventListener('abort', leave);
    entry._answer.then((value) => settle(() => resolve(value as T)), (error: unknown) => settle(() => reject(error)));
  });
}

const seg = encodeURIComponent;

/**
 * The feed route's query parameters, spelled as the worker reads them (worker/docs/public-api.md). Anything left out
 * (or empty) takes the worker's default.
 */
export interface FeedQuery {
  /** 1-1000. */
  page?: number;
  /** 1 to the worker's `feed.max_page_length`. */
  page_length?: number;
  /** A media id whose related items a recommendations playlist lists (other playlist types refuse it). */
  seed?: string | null;
  /** Up to 10 tags an article-matching playlist matches, sent comma-separated (other playlist types refuse them). */
  tags?: readonly string[];
}

export function fetchFeed(endpoint: string | null, site: string, playlist: string, feedQuery: FeedQuery,
  signal: AbortSignal): Promise<FeedResponse> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(feedQuery)) {
    // `${tags}` is the comma-separated list the route takes.
    const text = `${value ?? ''}`;
    if (text) query.set(name, text);
  }
  return getJson(`${apiBase(endpoint)}/api/sites/${seg(site)}/playlists/${seg(playlist)}?${query}`, signal);
}

export function fetchMedia(endpoint: string | null, site: string, media: string, signal: AbortSignal)
  : Promise<MediaResponse> {
  return getJson(`${apiBase(endpoint)}/api/sites/${seg(site)}/media/${seg(media)}`, signal);
}

export function fetchPlayer(endpoint: string | null, site: string, player: string, signal: AbortSignal)
  : Promise<PlayerResponse> {
  return getJson(`${apiBase(endpoint)}/api/sites/${seg(site)}/players/${seg(player)}`, signal);
}

export function fetchGate(endpoint: string | null, policy: string, signal: AbortSignal): Promise<GateResponse> {
  return getJson(`${apiBase(endpoint)}/api/gate/${seg(policy)}`, signal);
}

/**
 * What a visitor should read for a failed call, in their language. The worker's own description (English, for the
 * page's code: the `reel-error` event carries it) is not shown: a visitor could not act on it.
 */
export function errorMessage(host: Localized, error: unknown): string {
  const status = error instanceof ReelApiError ? error.status : -1;
  // The worker refuses content a visitor's location may not have with 451 (`geo_blocked`, `playback_denied`).
  return msg(host, status === 451 ? 'notHere'
    : status === 404 ? 'errorNotFound' : status === 429 ? 'errorTooMany' : status === 0 ? 'errorOffline'
      : status >= 500 ? 'errorServer' : 'errorOther');
}
