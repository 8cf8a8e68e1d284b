/**
 * A site's signer: the platform's delivery URLs of a site whose property enforces URL signing (`sites.<id>.url_signing`)
 * signed with that property's secret, read from the secret binding the configuration names (never from the
 * configuration itself). Only URLs on the delivery host (`DELIVERY_BASE_URL`) are signed: a signature is never sent to
 * another host; and of those only the files of the media the URL is signed for (catalog/delivery-layout.ts). A site without `url_signing` has no signer and behaves exactly as before.
 */
import { deliveryHost, foreignDeliveryFile, isOwnFile, type FileClaim } from '../catalog/index.ts';
import type { Config, UrlSigningConfig } from '../config.ts';
import type { Env } from '../env.ts';
import { ApiError } from '../http/errors.ts';
import { devMode } from '../http/visitor.ts';
import { signUrl } from './schemes.ts';

/** How long a URL the worker fetches itself stays valid: long enough to start the answer, no longer. */
export const FETCH_SECONDS = 120;
/** Signed URLs remembered per isolate (answers within a window sign the same URLs again). */
const MAX_REMEMBERED = 4096;

export const urlSigningUnconfigured = (site: string, binding: string) => new ApiError(503, 'url_signing_unconfigured',
  `Site ${site} is configured to sign its delivery URLs, but the secret ${binding} is not set; the operator must set it.`);

export interface DeliverySigner {
  site: string;
  /** DEV_MODE's expiry hook shortened this answer's URLs: it is this caller's alone, never shared or held. */
  shortened: boolean;
  /** The expiry of a URL handed out now: at least the lifetime away, rounded up to the window (answers stay shareable). */
  answerExpiry(nowMs: number): number;
  /** When URLs signed for answers now change (the next window): an answer held rendered is used until then at most. */
  windowEndMs(nowMs: number): number;
  /**
   * A URL for `claim.media`'s answer, signed until `answerExpiry`; one not on the delivery host is returned as it is.
   * Throws `foreign_delivery_file` for a delivery-host file that is not the media's own: a signature opens only that.
   */
  forAnswer(url: string, claim: FileClaim, nowMs?: number): Promise<string>;
  /** A URL the worker fetches now for `claim.media`, signed for `FETCH_SECONDS`; as `forAnswer` otherwise. */
  forFetch(url: URL, claim: FileClaim, nowMs?: number): Promise<URL>;
  /**
   * A Delivery API URL the worker fetches now (`/v2/media/<id>`, `/v2/playlists/<id>` on the delivery host), signed for
   * `FETCH_SECONDS` with its query as the JWT's claims; any other URL is returned as it is (a signature never leaves
   * for another host).
   */
  forApi(url: URL, nowMs?: number): Promise<URL>;
}

const remembered = new Map<string, string>();
const warned = new Set<string>();

function secretOf(env: Env, site: string, signing: UrlSigningConfig): string {
  const value = (env as unknown as Record<string, unknown>)[signing.secretBinding];
  if (typeof value === 'string' && value !== '') return value;
  if (!warned.has(site)) {
    warned.add(site);
    console.error(`reelgate: url_signing: site ${site} names the secret ${signing.secretBinding}, which is not set; its answers are refused (503 url_signing_unconfigured)`);
  }
  throw urlSigningUnconfigured(site, signing.secretBinding);
}

/**
 * Development only (DEV_MODE), as for playback URLs: `x-reelgate-dev-token-seconds` (1-3600) makes the signed URLs of
 * this one answer expire that many seconds from now, so a browser suite sees a platform URL expire mid-playback.
 */
const DEV_SECONDS_HEADER = 'x-reelgate-dev-token-seconds';

function devSeconds(env: Env, request: Request | undefined): number | null {
  const stated = request && devMode(env) ? request.headers.get(DEV_SECONDS_HEADER) : null;
  const seconds = stated && /^\d{1,4}$/.test(stated) ? Number(stated) : 0;
  return seconds >= 1 && seconds <= 3600 ? seconds : null;
}

/**
 * The signer of a site, or null when the site does not sign. Throws `url_signing_unconfigured` when its secret is
 * missing. `request`: the answer's request, read for DEV_MODE's expiry hook only.
 */
export function signerFor(env: Env, config: Config, siteId: string, request?: Request): DeliverySigner | null {
  const signing = config.sites.get(siteId)?.urlSigning;
  if (!signing) return null;
  const secret = secretOf(env, siteId, signing);
  const host = deliveryHost(env.DELIVERY_BASE_URL);
  const onDelivery = (url: URL) => host !== null && url.origin === host.origin;
  /** Whether to sign `url` for `claim`: on the delivery host, and then only the media's own file. */
  const signs = (url: URL, claim: FileClaim, where: 'signing' | 'playback') => {
    if (!onDelivery(url)) return false;
    if (!isOwnFile(url, host, claim)) throw foreignDeliveryFile(claim, url, where);
    return true;
  };
  const window = signing.windowSeconds;
  const shortened = devSeconds(env, request);
  const answerExpiry = (nowMs: number) => (shortened !== null ? Math.floor(nowMs / 1000) + shortened
    : Math.ceil((nowMs / 1000 + signing.lifetimeMinutes * 60) / window) * window);
  return {
    site: siteId,
    shortened: shortened !== null,
    answerExpiry,
    windowEndMs: (nowMs) => (Math.floor(nowMs / 1000 / window) + 1) * window * 1000,
    // A HIT signs the same URLs for the same expiry again: looked up by their text first, parsed and signed only on a
    // miss, once per window (the secret is part of the key, so a rotated one never meets an old signature; so is the
    // media, so a URL found to be one media's own is never taken as another's).
    async forAnswer(text, claim, nowMs = Date.now()) {
      if (host === null) return text;
      const exp = answerExpiry(nowMs);
      const key = `${secret}\n${exp}\n${claim.media}${claim.track ? '+tracks' : ''}\n${text}`;
      let signed = remembered.get(key);
      if (signed === undefined) {
        let url: URL;
        try {
          url = new URL(text);
        } catch {
          return text;
        }
        if (!signs(url, claim, 'signing')) return text;
        signed = (await signUrl(url, exp, secret)).href;
        if (remembered.size >= MAX_REMEMBERED) remembered.clear();
        remembered.set(key, signed);
      }
      return signed;
    },
    async forFetch(url, claim, nowMs = Date.now()) {
      return signs(url, claim, 'playback') ? new URL(await signUrl(url, Math.floor(nowMs / 1000) + FETCH_SECONDS, secret)) : url;
    },
    async forApi(url, nowMs = Date.now()) {
      if (!onDelivery(url) || !/^\/v2\/(?:media|playlists)\/[A-Za-z0-9]{8}$/.test(url.pathname)) return url;
      return signUrl(url, Math.floor(nowMs / 1000) + FETCH_SECONDS, secret);
    },
  };
}
