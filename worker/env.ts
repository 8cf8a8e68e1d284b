/**
 * The worker's bindings, in one place. Their types are generated (`npm run types`, worker/types.mjs) by `wrangler
 * types` from wrangler.toml, with the secrets .dev.vars.example lists: worker/worker-configuration.d.ts, a global
 * declaration that worker/tsconfig.json includes (and test/env.d.ts for the test programs). Here they get the
 * optionality the code gives them; what each one is:
 * - API_BASE_URL, GEO_API_URL: the Management API v2 and Geo Location API base addresses (the clients append
 *   `/v2/...` and `/ip_lookup/<client>/<ip>`); GEO_CLIENT: the client name in the geo lookup path.
 * - DELIVERY_BASE_URL: the platform's delivery (CDN) address, where each media's poster images are
 *   (`/v2/media/<id>/poster.jpg?width=`, worker/catalog/posters.ts). Unset: answers carry no posters.
 * - API_SECRET: Bearer token of the Management API; GEO_API_KEY: `X-Auth-Key` of the Geo Location API.
 * - ADDRESS_SALT: salt for hashing visitor addresses (cache keys, abuse-limit keys).
 * - PLAYBACK_KEYS: playback signing keys, `kid:secret` pairs (first one signs, at most two; worker/playback/keys.ts).
 *   Unset: one key derived from API_SECRET.
 * - DEV_MODE: "true" lets `x-reelgate-dev-ip` stand in for the caller's address. Anything else: off.
 * - REELGATE_CONFIG: sites, policies, origins, cache windows, budget (config.ts, worker/docs/configuration.md): a JSON string (a `--var`,
 *   .dev.vars, a test binding) or an object (a TOML table under `[vars]`).
 * - CACHE, BUDGET, ASSETS, VISITOR_LIMIT: cached answers, the upstream budget, dist/, the per-visitor abuse limit.
 * - GATEWAY_DB: the gateway's keys, idempotent outcomes and audit trail (worker/gateway/migrations/).
 * - ADMIN_TOKEN: guards `/admin/*`; the admin API is off without it.
 * - V1_SIGNING_SECRET: derives each access key's v1 secret for signed `/v1` calls (worker/gateway/v1/v1-signature.ts).
 *   Unset: v1 signatures are refused and `/v1` takes Bearer keys only. Changing it retires every v1 secret.
 * - RENDER_TOKEN: lets a server that renders pages for visitors (`reelgate/server`) name the visitor's address in
 *   `x-reelgate-visitor-ip` (worker/http/visitor.ts). Unset: no request may name one (401).
 * - SIGNED_SITE_SECRET: the demo's signing site's property secret (the sandbox's `nvsLN98U`). A deployment names its
 *   own secret bindings per site in `sites.<id>.url_signing.secret` and reads them by that name (worker/signing/).
 */
type Generated = Cloudflare.Env;

/** What the worker runs without: each reader says what happens instead. */
type Optional =
  | 'GEO_API_URL' | 'GEO_CLIENT' | 'DELIVERY_BASE_URL' | 'GEO_API_KEY' | 'ADDRESS_SALT' | 'PLAYBACK_KEYS' | 'DEV_MODE'
  | 'ASSETS' | 'VISITOR_LIMIT' | 'GATEWAY_DB' | 'ADMIN_TOKEN' | 'V1_SIGNING_SECRET' | 'SIGNED_SITE_SECRET'
  | 'RENDER_TOKEN';

export interface Env extends Omit<Generated, Optional | 'REELGATE_CONFIG'>, Partial<Pick<Generated, Optional>> {
  REELGATE_CONFIG?: string | Record<string, unknown>;
}
