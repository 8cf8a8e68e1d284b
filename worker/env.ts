/**
 * The worker's bindings, in one place. Vars and secrets are strings; `REELGATE_CONFIG` may arrive as a JSON string
 * (a `--var`, `.dev.vars`, a test binding) or as an object (a TOML table under `[vars]`).
 */
import type { BudgetObject } from './budget/budget-object.ts';

export interface Env {
  /** Management API v2 base address (the client appends `/v2/...`). */
  API_BASE_URL: string;
  /** Geo Location API base address (the client appends `/ip_lookup/<client>/<ip>`). */
  GEO_API_URL?: string;
  /** Client name in the geo lookup path. */
  GEO_CLIENT?: string;
  /** Secret: Bearer token of the Management API. */
  API_SECRET: string;
  /** Secret: `X-Auth-Key` of the Geo Location API. */
  GEO_API_KEY?: string;
  /** Secret: salt for hashing visitor addresses (cache keys, abuse-limit keys). */
  ADDRESS_SALT?: string;
  /**
   * Secret: the playback signing keys, `kid:secret` pairs (first one signs, at most two; worker/playback/keys.ts).
   * Unset: one key derived from API_SECRET.
   */
  PLAYBACK_KEYS?: string;
  /** "true" lets `x-reelgate-dev-ip` stand in for the caller's address. Anything else: off. */
  DEV_MODE?: string;
  /** Sites, policies, origins, cache windows, budget: see config.ts and the README. */
  REELGATE_CONFIG?: string | Record<string, unknown>;

  CACHE: KVNamespace;
  BUDGET: DurableObjectNamespace<BudgetObject>;
  ASSETS?: Fetcher;
  VISITOR_LIMIT?: RateLimit;

  /** The gateway's keys, idempotent outcomes and audit trail (worker/gateway/migrations/). */
  GATEWAY_DB?: D1Database;
  /** Secret: guards `/admin/*`; the admin API is off without it. */
  ADMIN_TOKEN?: string;
  /**
   * Secret: derives each access key's v1 secret for signed `/v1` calls (worker/gateway/v1/v1-signature.ts). Unset: v1
   * signatures are refused and `/v1` takes Bearer keys only. Changing it retires every v1 secret.
   */
  V1_SIGNING_SECRET?: string;
}
