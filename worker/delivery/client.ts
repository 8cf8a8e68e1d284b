/**
 * The platform's Delivery API, read by the worker: `GET /v2/media/<id>` and `GET /v2/playlists/<id>` on the delivery
 * host (`DELIVERY_BASE_URL`), JSON. These calls are outside the Management API's 60 a minute and never pass through
 * worker/budget/; they pass through the worker's own meter (meter.ts) instead. Signed (a JWT in `token`, its query as
 * claims) where the site signs (`sites.<id>.url_signing`), unsigned otherwise. Callers read them through the same
 * cache and single flight as the Management API's answers (resources/pipeline.ts), so a hit costs no call at all.
 */
import { sharedRead } from '../cache/index.ts';
import type { Config } from '../config.ts';
import type { DeliveryFeed } from '../contract/delivery-types.ts';
import type { Env } from '../env.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { count } from '../metrics/index.ts';
import { deliveryBase } from '../catalog/index.ts';
import { signerFor } from '../signing/index.ts';
import { deliveryAnswerInvalid, readDeliveryFeed } from './answers.ts';
import { deliveryMeter } from './meter.ts';

export type DeliveryKind = 'media' | 'playlist';

export interface DeliveryRequest {
  kind: DeliveryKind;
  site: string;
  /** A media or playlist id (8 letters or digits; the callers have checked it). */
  id: string;
  /** The call's query (`related_media_id`, `search`, `page_offset`, `page_limit`, `poster_width`). */
  query?: Record<string, string>;
}

export const deliveryRefused = () => new ApiError(502, 'delivery_refused',
  'The platform\'s Delivery API refused the worker\'s request; the operator\'s URL signing configuration needs attention.');

/** Says in the log that the Delivery API refused a site's own resource: the operator's signing configuration. */
export function reportRefusal(config: Config, site: string, what: string): void {
  const signs = config.sites.get(site)?.urlSigning !== undefined;
  console.error(`reelgate: the Delivery API refused ${what} (403)${signs ? ': check the site\'s url_signing secret'
    : `: the property may now enforce URL signing; configure sites.${site}.url_signing`}`);
}

export const deliveryUnconfigured = () => new ApiError(503, 'delivery_unconfigured',
  'DELIVERY_BASE_URL is not set: the worker cannot read the platform\'s Delivery API. The operator must set it.');

/** The URL of a request, its query in a fixed order (one cache entry and one signature per question). */
export function deliveryUrl(base: string, { kind, id, query = {} }: DeliveryRequest): URL {
  const url = new URL(`${base}/v2/${kind === 'media' ? 'media' : 'playlists'}/${id}`);
  for (const name of Object.keys(query).sort()) url.searchParams.set(name, query[name]!);
  return url;
}

function refusal(kind: DeliveryKind, outcome: string, error: ApiError): never {
  count('delivery_calls', { kind, outcome });
  throw error;
}

/** How a caller reads: `acceptRecent` when a cold miss may take an answer of the last second (cache/shared-reads.ts). */
export interface DeliveryReadOptions {
  acceptRecent?: boolean;
}

/**
 * One Delivery API answer, validated; `not_found` for a media or playlist the platform does not deliver. Concurrent
 * identical requests of one site in this isolate share one call (cache/shared-reads.ts).
 */
export async function fetchDelivery(env: Env, config: Config, request: DeliveryRequest,
  { acceptRecent = false }: DeliveryReadOptions = {}): Promise<DeliveryFeed> {
  const base = deliveryBase(env.DELIVERY_BASE_URL);
  if (base === null) throw deliveryUnconfigured();
  const url = deliveryUrl(base, request);
  // The site is part of the question: one site's call is signed, another's may not be, and the platform may refuse it.
  return sharedRead(`delivery ${request.site} ${url.href}`,
    { waitMs: config.delivery.maxWaitMs + config.delivery.timeoutMs, acceptRecent },
    () => callDelivery(env, config, request, url));
}

async function callDelivery(env: Env, config: Config, request: DeliveryRequest, unsignedUrl: URL): Promise<DeliveryFeed> {
  const { kind, site, id } = request;
  const what = `${kind} ${site}/${id}`;
  let url = unsignedUrl;
  const signer = signerFor(env, config, site);
  if (signer) url = await signer.forApi(url);

  let response: Response;
  try {
    response = await deliveryMeter(config.delivery).run(() => fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(config.delivery.timeoutMs),
    }));
  } catch (error) {
    if (error instanceof ApiError) refusal(kind, 'busy', error);
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    refusal(kind, 'error', new ApiError(timedOut ? 504 : 502, 'upstream_unavailable',
      `The platform's Delivery API ${timedOut ? 'did not answer in time' : 'could not be reached'}; retry shortly.`));
  }

  if (response.status === 404) {
    await response.body?.cancel();
    refusal(kind, 'not_found', notFound(kind === 'media' ? 'No such media, or it is not published.' : 'No such playlist.'));
  }
  if (response.status === 403) {
    await response.body?.cancel();
    // The worker signs every call of a signing site, so a 403 is the operator's configuration (a wrong or rotated
    // secret, or a property that started signing), or a resource of another property (a token opens its own
    // property's only). The caller tells which (media.ts) and says the first in the log (`reportRefusal`).
    refusal(kind, 'refused', deliveryRefused());
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    const retry = Number(response.headers.get('retry-after'));
    refusal(kind, 'error', new ApiError(502, 'upstream_unavailable',
      `The platform's Delivery API answered ${response.status}; retry shortly.`, Number.isFinite(retry) && retry > 0 ? Math.min(retry, 300) : null));
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    refusal(kind, 'invalid', deliveryAnswerInvalid(what, 'not JSON'));
  }
  try {
    const feed = readDeliveryFeed(body, what);
    count('delivery_calls', { kind, outcome: 'ok' });
    return feed;
  } catch (error) {
    if (error instanceof ApiError) refusal(kind, 'invalid', error);
    throw error;
  }
}
