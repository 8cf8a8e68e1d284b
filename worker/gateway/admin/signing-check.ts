/**
 * `GET /admin/sites/<site>/url-signing[?media=<id>]`: whether a site's secret signs URLs its property accepts, and
 * whether the property enforces signing, before and after an operator switches it on. For one media of the site (the
 * one named, else the first ready video of the first page the Management API lists, else that page's first media: one
 * upstream call through the budget), it fetches from the delivery host, for each scheme (a file URL, the storyboard,
 * for `exp`/`sig`; a `/v2` poster for the JWT), the URL signed and unsigned, and reports the statuses: the platform
 * answers a wrongly signed URL 403 whether or not it enforces signing, and an unsigned one 403 only once it enforces.
 * Only a file that exists proves a signature accepted: a signed 404 (a media without a storyboard or poster) says
 * nothing either way. No signature or secret is ever part of the report.
 */
import { callUpstream } from '../../budget/index.ts';
import { deliveryBase, posterUrl } from '../../catalog/index.ts';
import type { Config } from '../../config.ts';
import { RESOURCE_ID } from '../../config.ts';
import type { MediaList } from '../../contract/v2-types.ts';
import type { Env } from '../../env.ts';
import { ApiError } from '../../http/errors.ts';
import { signerFor } from '../../signing/index.ts';
import { gatewayNotFound, invalid } from '../errors.ts';

const CHECK_TIMEOUT_MS = 10_000;
/** The listing a check without `?media=` picks from: one call, long enough to find a ready video in most catalogs. */
const PICK_PAGE_LENGTH = 50;

interface Probe {
  scheme: 'exp/sig' | 'jwt';
  /** The URL as checked, without any signature. */
  url: string;
  signed: number | 'unreachable';
  unsigned: number | 'unreachable';
}

async function status(url: URL): Promise<number | 'unreachable'> {
  try {
    const response = await fetch(url.href, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 'unreachable';
  }
}

/** What the statuses say, in words an operator acts on. */
function verdict(probes: Probe[]): { secret_accepted: boolean | null; enforced: boolean | null; summary: string } {
  const signed = probes.map((p) => p.signed);
  const unsigned = probes.map((p) => p.unsigned);
  if (signed.some((s) => s === 'unreachable')) {
    return { secret_accepted: null, enforced: null, summary: 'The delivery host could not be reached; nothing was learned.' };
  }
  // A 403 is the platform refusing the signature; only a file served (or unchanged) shows it took it. Anything else (a
  // 404 of a media without a storyboard, a 5xx) is no evidence either way, and must not read as a working secret.
  const accepted = signed.some((s) => s === 403) ? false
    : signed.every((s) => typeof s === 'number' && ((s >= 200 && s < 300) || s === 304)) ? true : null;
  const enforced = unsigned.every((s) => s === 403) ? true : unsigned.some((s) => typeof s === 'number' && s < 400) ? false : null;
  if (accepted === null) {
    return { secret_accepted: null, enforced,
      summary: `The signed URLs answered ${signed.join(' and ')}, which shows neither acceptance nor refusal of the secret: `
        + 'check again with ?media=<id> naming a ready video of this site.' };
  }
  const summary = !accepted
    ? 'The platform refused URLs signed with this secret: it is not the property\'s. Fix the secret before enforcing.'
    : enforced
      ? 'The secret signs URLs the platform accepts, and the platform refuses unsigned ones: the origin is sealed.'
      : 'The secret signs URLs the platform accepts; unsigned ones still open: enforcement can be switched on now.';
  return { secret_accepted: accepted, enforced, summary };
}

export async function checkUrlSigning(env: Env, config: Config, siteId: string, mediaParam: string | null): Promise<unknown> {
  const site = config.sites.get(siteId);
  if (!site) throw gatewayNotFound('No such site.');
  if (!site.urlSigning) {
    throw new ApiError(409, 'url_signing_off', `Site ${siteId} has no url_signing configured: its URLs are handed out unsigned.`);
  }
  const signer = signerFor(env, config, siteId)!;
  const base = deliveryBase(env.DELIVERY_BASE_URL);
  if (base === null) throw new ApiError(409, 'delivery_unconfigured', 'DELIVERY_BASE_URL is not set: there is no delivery host to check.');
  if (mediaParam !== null && !RESOURCE_ID.test(mediaParam)) throw invalid('media must be a media id.');
  let mediaId = mediaParam;
  if (mediaId === null) {
    const listed = await callUpstream<MediaList>(env, { lane: 'gateway-read', caller: 'admin' },
      { api: 'v2', op: 'listMedia', site: siteId, params: { page: 1, page_length: PICK_PAGE_LENGTH } });
    // A ready video has the storyboard and poster the probes ask for; another media's may not exist (a signed 404).
    const ready = listed.media.find((m) => m.status === 'ready' && m.media_type === 'video');
    mediaId = (ready ?? listed.media[0])?.id ?? null;
    if (mediaId === null) throw new ApiError(409, 'no_media', `Site ${siteId} has no media to check with.`);
  }
  const urls: Array<[Probe['scheme'], URL]> = [
    ['exp/sig', new URL(`${base}/strips/${encodeURIComponent(mediaId)}-120.vtt`)],
    ['jwt', new URL(posterUrl(base, mediaId, 320))],
  ];
  const probes = await Promise.all(urls.map(async ([scheme, url]): Promise<Probe> => {
    const claim = { site: siteId, media: mediaId!, track: false };
    const [signed, unsigned] = await Promise.all([status(await signer.forFetch(url, claim)), status(url)]);
    return { scheme, url: url.href, signed, unsigned };
  }));
  return { site: siteId, media: mediaId, secret_binding: site.urlSigning.secretBinding, probes, ...verdict(probes) };
}
