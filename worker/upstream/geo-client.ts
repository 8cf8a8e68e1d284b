/**
 * Client of the Geo Location Lookup API: `GET {baseUrl}/ip_lookup/<client>/<ip>` with the key in `X-Auth-Key`. The
 * address is validated (and canonicalised) before any request, so a bad visitor header never costs a lookup.
 */
import { GeoApiError, UpstreamRequestError } from './errors.ts';
import { normaliseGeo } from './geo-normalise.ts';
import type { GeoLookupResponse, NormalisedGeo } from '../contract/geo-types.ts';
import { requireIpAddress } from '../http/ip-address.ts';
import { pathSegment } from '../contract/path-segments.ts';
import { parseRetryAfter } from './rate-limit.ts';
import {
  callSignal, checkTimeout, DEFAULT_TIMEOUT_MS, discard, guarded, isRedirect, trimBaseUrl,
  type CallOptions, type Transport,
} from './transport.ts';

export interface GeoClientOptions {
  /** e.g. `http://localhost:8788`; the client appends `/ip_lookup/<client>/<ip>`. */
  baseUrl: string;
  /** Client name in the path. */
  client: string;
  /** Sent as `X-Auth-Key`. */
  apiKey: string;
  fetch?: Transport;
  /** Default 10 000. */
  timeoutMs?: number;
}

export class GeoClient {
  readonly #baseUrl: string;
  readonly #client: string;
  readonly #apiKey: string;
  readonly #transport: Transport;
  readonly #timeoutMs: number;

  constructor(options: GeoClientOptions) {
    this.#baseUrl = trimBaseUrl(options.baseUrl, 'baseUrl');
    this.#client = pathSegment('client', options.client);
    if (typeof options.apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(options.apiKey)) {
      throw new TypeError('apiKey must be a non-empty token of visible ASCII characters.');
    }
    this.#apiKey = options.apiKey;
    const fetchImpl = options.fetch;
    this.#transport = fetchImpl ? (request) => fetchImpl(request) : (request) => globalThis.fetch(request);
    this.#timeoutMs = checkTimeout(options.timeoutMs, DEFAULT_TIMEOUT_MS);
  }

  /** The provider's answer as sent. Throws `InvalidIpAddressError` (no request made) for anything but one address. */
  async lookup(ip: string, options?: CallOptions): Promise<GeoLookupResponse> {
    const { address } = requireIpAddress(ip);
    // A dual-stack socket reports IPv4 visitors as ::ffff:a.b.c.d; the lookup is about the IPv4 address.
    const target = address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
    // The canonical form holds only hex digits, dots and colons: safe in a path as is.
    const path = `/ip_lookup/${this.#client}/${target}`;
    const what = `GET ${path}`;
    const signals = callSignal(checkTimeout(options?.timeoutMs, this.#timeoutMs), options?.signal);
    return guarded(signals, async () => {
      const request = new Request(`${this.#baseUrl}${path}`, {
        method: 'GET',
        headers: { 'x-auth-key': this.#apiKey, accept: 'application/json' },
        redirect: 'manual',
        signal: signals.signal,
      });
      const response = await this.#transport(request);
      if (isRedirect(response)) {
        discard(response);
        throw new UpstreamRequestError('redirect', `${what}: the geo API answered with a redirect; not followed.`,
          response.status);
      }
      if (response.status < 200 || response.status > 299) {
        discard(response);
        throw new GeoApiError(response.status, response.status === 429 || response.status === 503
          ? parseRetryAfter(response.headers.get('retry-after')) : null);
      }
      let body: unknown;
      try {
        body = JSON.parse(await response.text());
      } catch {
        throw new UpstreamRequestError('invalid_response', `${what}: the answer is not JSON.`, response.status);
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new UpstreamRequestError('invalid_response', `${what}: the answer is not a JSON object.`, response.status);
      }
      return body as GeoLookupResponse;
    }, what);
  }

  /** `lookup` then `normaliseGeo`. */
  async lookupNormalised(ip: string, options?: CallOptions): Promise<NormalisedGeo> {
    return normaliseGeo(await this.lookup(ip, options));
  }
}
