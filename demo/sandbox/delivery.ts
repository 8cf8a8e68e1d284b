// The delivery host: every catalog file (delivery-paths.ts), the Delivery API's JSON answers (delivery-api.ts) and the
// test fixtures under /cdn/, read-only. A catalog file belongs to a site through its media or text track; the site's
// URL signing (url-signing.ts) is checked before anything is served: a refusal is 403 `access_forbidden` in the v2
// error body. A playlist or storyboard asked for with a valid legacy signature names its own files signed with the
// same expiry, so a player can follow them. Serving an HLS master, or a video file from its start, counts a play
// (plays.ts).
import { serveFixture, serveManifest, serveMediaImage, serveTrack, serveVideo, type Signer, UNSIGNED } from './assets.ts';
import { serveDeliveryApi } from './delivery-api.ts';
import { deliveryApiRoute, type DeliveryOwner, deliveryOwner } from './delivery-paths.ts';
import type { SandboxEnv } from './env.ts';
import { errorResponse, HttpError } from './http.ts';
import { countPlay } from './plays.ts';
import type { Store } from './store.ts';
import { serveStrip } from './strips.ts';
import { legacyQuery, siteVerdict, type Verdict } from './url-signing.ts';

/** The site whose file this is, or null when no such media or track exists (the file is then 404). */
function ownerSite(store: Store, owner: DeliveryOwner): string | null {
  return store.find(owner.kind, owner.id)?.site ?? null;
}

export async function deliver(store: Store, env: SandboxEnv, request: Request, url: URL): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return errorResponse(405, 'method_not_allowed', `${request.method} is not allowed here; use GET.`, { allow: 'GET, HEAD' });
  }
  const range = request.headers.get('range');
  const path = url.pathname;
  if (path.startsWith('/cdn/')) return serveFixture(url, range);
  // Only the exact `/v2/media/<id>` and `/v2/playlists/<id>` are JSON; a media's images are files like the others.
  const api = deliveryApiRoute(path);
  if (api) return serveDeliveryApi(store, env, request, url, api);
  const owner = deliveryOwner(path);
  const site = owner ? ownerSite(store, owner) : null;
  let params = url.searchParams;
  let sign: Signer = UNSIGNED;
  if (owner && site) {
    let verdict: Verdict & { secret?: string };
    try {
      verdict = await siteVerdict(store, env, url, owner.scheme, site);
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
  if (path.startsWith('/videos/')) return countPlay(store, request, path, serveVideo(store, url, range));
  if (path.startsWith('/manifests/')) return countPlay(store, request, path, await serveManifest(store, url, range, sign));
  if (path.startsWith('/tracks/')) return serveTrack(store, url);
  if (path.startsWith('/strips/')) return serveStrip(store, url, sign);
  if (path.startsWith('/v2/media/')) return serveMediaImage(store, url, params);
  return errorResponse(404, 'not_found', `Nothing is served at ${path}.`);
}
