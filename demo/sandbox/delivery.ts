// The delivery host: every catalog file (delivery-paths.ts) and the test fixtures under /cdn/, read-only. A catalog
// file belongs to a site through its media or text track; the site's URL signing (url-signing.ts) is checked before
// anything is served: a refusal is 403 `access_forbidden` in the v2 error body. A playlist or storyboard asked for
// with a valid legacy signature names its own files signed with the same expiry, so a player can follow them.
import { serveFixture, serveManifest, serveMediaImage, serveTrack, serveVideo, type Signer, UNSIGNED } from './assets.ts';
import { type DeliveryOwner, deliveryOwner } from './delivery-paths.ts';
import type { SandboxEnv } from './env.ts';
import { errorResponse, HttpError } from './http.ts';
import type { Store } from './store.ts';
import { serveStrip } from './strips.ts';
import { checkJwt, checkLegacy, legacyQuery, siteSecret, siteSigning, type Verdict } from './url-signing.ts';

/** The site whose file this is, or null when no such media or track exists (the file is then 404). */
function ownerSite(store: Store, owner: DeliveryOwner): string | null {
  return store.find(owner.kind, owner.id)?.site ?? null;
}

/** Whether the request carries the signature of its path's scheme at all (any of its parameters). */
function carriesSignature(url: URL, scheme: DeliveryOwner['scheme']): boolean {
  return scheme === 'legacy' ? url.searchParams.has('exp') || url.searchParams.has('sig') : url.searchParams.has('token');
}

/** The site's verdict on the request: unsigned requests pass where it does not enforce, signed ones are checked. */
async function verdictOf(store: Store, env: SandboxEnv, url: URL, owner: DeliveryOwner, site: string): Promise<Verdict & { secret?: string }> {
  const signing = siteSigning(store, site)!;
  if (!signing.enforce && !carriesSignature(url, owner.scheme)) return { ok: true, exp: null, params: url.searchParams };
  const secret = await siteSecret(env.SIGNED_SITE_SECRET, site, signing.secret);
  const now = Math.floor(Date.now() / 1000);
  const verdict = owner.scheme === 'legacy'
    ? await checkLegacy(url, secret, signing.enforce, now)
    : await checkJwt(url, secret, signing.enforce, now);
  return { ...verdict, secret };
}

export async function deliver(store: Store, env: SandboxEnv, request: Request, url: URL): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return errorResponse(405, 'method_not_allowed', `${request.method} is not allowed here; use GET.`, { allow: 'GET, HEAD' });
  }
  const range = request.headers.get('range');
  const path = url.pathname;
  if (path.startsWith('/cdn/')) return serveFixture(url, range);
  const owner = deliveryOwner(path);
  const site = owner ? ownerSite(store, owner) : null;
  let params = url.searchParams;
  let sign: Signer = UNSIGNED;
  if (owner && site) {
    let verdict: Verdict & { secret?: string };
    try {
      verdict = await verdictOf(store, env, url, owner, site);
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error.status, error.code, error.message);
      throw error;
    }
    // CORS-open like every answer of the delivery host, so a player on any page reads the 403 (and renews its URLs).
    if (!verdict.ok) {
      return errorResponse(403, 'access_forbidden', verdict.why, { 'cache-control': 'no-store', 'access-control-allow-origin': '*' });
    }
    params = verdict.params;
    const { exp, secret } = verdict;
    if (owner.scheme === 'legacy' && exp !== null && secret !== undefined) sign = (file) => legacyQuery(file, exp, secret);
  }
  if (path.startsWith('/videos/')) return serveVideo(store, url, range);
  if (path.startsWith('/manifests/')) return serveManifest(store, url, range, sign);
  if (path.startsWith('/tracks/')) return serveTrack(store, url);
  if (path.startsWith('/strips/')) return serveStrip(store, url, sign);
  if (path.startsWith('/v2/media/')) return serveMediaImage(store, url, params);
  return errorResponse(404, 'not_found', `Nothing is served at ${path}.`);
}
