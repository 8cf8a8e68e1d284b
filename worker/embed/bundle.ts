/**
 * The versioned embed bundle an embed page loads: `/embed/reelgate.<hash>.js` (cached for a year, so a page framed a
 * thousand times costs one download), found without any build step of its own. `npm run build` names the copy by
 * the first 12 hex digits of the SHA-256 of `reelgate.js` (components/build.mjs); this hashes the `reelgate.js` the
 * worker actually serves, once per isolate, and uses that name only if the asset is really there. Otherwise (a
 * build that names copies another way, no assets at all) the page loads `/embed/reelgate.js`.
 */
import type { Env } from '../env.ts';

export const UNVERSIONED_BUNDLE = '/embed/reelgate.js';

let memo: string | null = null;

async function exists(env: Env, base: string, path: string): Promise<{ ok: boolean; body: ArrayBuffer | null }> {
  const response = await env.ASSETS!.fetch(new Request(new URL(path, base)));
  if (!response.ok) {
    await response.body?.cancel();
    return { ok: false, body: null };
  }
  return { ok: true, body: await response.arrayBuffer() };
}

export async function bundlePath(request: Request, env: Env): Promise<string> {
  if (memo) return memo;
  if (!env.ASSETS) return UNVERSIONED_BUNDLE;
  try {
    const current = await exists(env, request.url, '/reelgate.js');
    // No bundle built: nothing to remember, the next page asks again.
    if (!current.body) return UNVERSIONED_BUNDLE;
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', current.body));
    const hash = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 12);
    const versioned = await exists(env, request.url, `/reelgate.${hash}.js`);
    memo = versioned.ok ? `/embed/reelgate.${hash}.js` : UNVERSIONED_BUNDLE;
    return memo;
  } catch {
    return UNVERSIONED_BUNDLE;
  }
}
