/**
 * `GET /admin/config`: the configuration in force, as the worker parsed it (config.ts), in REELGATE_CONFIG's own
 * spelling, and what the operator should look at (`warnings`). Never a secret's value: a secret appears as its binding's
 * name and whether it is set.
 */
import type { CacheKind, Config, GeoPolicy, SiteConfig } from '../../config.ts';
import type { Env } from '../../env.ts';
import { devMode } from '../../http/visitor.ts';

import type { ConfigWarning } from '../../contract/admin-api.ts';

/** The secrets the worker reads (worker/env.ts), reported as set or not. */
const SECRET_BINDINGS = ['API_SECRET', 'GEO_API_KEY', 'ADDRESS_SALT', 'PLAYBACK_KEYS', 'ADMIN_TOKEN', 'V1_SIGNING_SECRET'] as const;

function isSet(env: Env, binding: string): boolean {
  const value = (env as unknown as Record<string, unknown>)[binding];
  return typeof value === 'string' && value.trim() !== '';
}

/** An upstream address as configured, without any user:password it might carry. */
function address(raw: string | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

function siteView(env: Env, site: SiteConfig): Record<string, unknown> {
  return {
    ...(site.policy ? { policy: site.policy } : {}),
    ...(site.playlists.size ? { playlists: Object.fromEntries(site.playlists) } : {}),
    ...(site.media.size ? { media: Object.fromEntries(site.media) } : {}),
    ...(site.urlSigning ? {
      url_signing: {
        secret_binding: site.urlSigning.secretBinding,
        configured: isSet(env, site.urlSigning.secretBinding),
        lifetime_minutes: site.urlSigning.lifetimeMinutes,
        window_seconds: site.urlSigning.windowSeconds,
      },
    } : {}),
  };
}

const list = (set: ReadonlySet<string> | null) => (set === null ? null : [...set].sort());

function policyView(policy: GeoPolicy): Record<string, unknown> {
  return {
    allow_countries: list(policy.allowCountries),
    deny_countries: list(policy.denyCountries),
    allow_continents: list(policy.allowContinents),
    deny_continents: list(policy.denyContinents),
    deny_proxy_identifications: list(policy.denyProxyIdentifications),
    deny_proxy_types: list(policy.denyProxyTypes),
    unknown: policy.unknown,
  };
}

/**
 * What the configuration and the bindings leave the operator to look at. `live` are warnings of the running worker
 * (the metrics pass `geo_api_failing`, `budget_saturated`); they come after the configuration's own, in their order.
 */
export function configWarnings(env: Env, config: Config, live: ConfigWarning[] = []): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  if (!isSet(env, 'PLAYBACK_KEYS')) {
    warnings.push({ code: 'no_playback_keys', description: 'PLAYBACK_KEYS is not set: playback URLs are signed with a key '
      + 'derived from API_SECRET, so they rotate only with it. Set PLAYBACK_KEYS (wrangler secret put PLAYBACK_KEYS).' });
  }
  if (devMode(env)) {
    warnings.push({ code: 'dev_mode_on', description: 'DEV_MODE is "true": the x-reelgate-dev-ip header stands in for the '
      + "caller's address, so anyone can choose their country. Never deploy it so." });
  }
  if (!isSet(env, 'ADDRESS_SALT')) {
    warnings.push({ code: 'no_address_salt', description: 'ADDRESS_SALT is not set: visitor addresses are hashed under a '
      + 'key derived from API_SECRET. Set ADDRESS_SALT (wrangler secret put ADDRESS_SALT).' });
  }
  for (const site of config.sites.values()) {
    if (site.urlSigning && !isSet(env, site.urlSigning.secretBinding)) {
      warnings.push({ code: 'url_signing_unconfigured', description: `Site ${site.id} signs its URLs with the secret `
        + `${site.urlSigning.secretBinding}, which is not set: its answers are refused (503).` });
    }
  }
  return [...warnings, ...live];
}

/** The configuration in force (see the header). `live`: the running worker's warnings, as for `configWarnings`. */
export function configView(env: Env, config: Config, live: ConfigWarning[] = []): Record<string, unknown> {
  const cache: Record<string, unknown> = { memory_ms: config.cache.memoryMs };
  for (const kind of ['feed', 'media', 'player', 'geo', 'not_found'] as CacheKind[]) {
    cache[kind] = { fresh_seconds: config.cache[kind].freshSeconds, stale_seconds: config.cache[kind].staleSeconds };
  }
  const { budget, feed, playback } = config;
  return {
    sites: Object.fromEntries([...config.sites].map(([id, site]) => [id, siteView(env, site)])),
    policies: Object.fromEntries([...config.policies].map(([name, policy]) => [name, policyView(policy)])),
    allowed_origins: [...config.allowedOrigins],
    public_origin: config.publicOrigin,
    custom_params_allowlist: [...config.customParamsAllowlist],
    budget: {
      rate_per_minute: budget.ratePerMinute,
      burst: budget.burst,
      max_wait_ms: budget.maxWaitMs,
      gateway_floor: budget.gatewayFloor,
      public_floor: budget.publicFloor,
      geo_rate_per_minute: budget.geoRatePerMinute,
      geo_burst: budget.geoBurst,
      geo_lookups_per_network: budget.geoLookupsPerNetwork,
      geo_network_window_seconds: budget.geoNetworkWindowSeconds,
      upstream_timeout_ms: budget.upstreamTimeoutMs,
    },
    cache,
    feed: {
      default_page_length: feed.defaultPageLength,
      max_page_length: feed.maxPageLength,
      max_items: feed.maxItems,
      max_variants: feed.maxVariants,
      variant_window_seconds: feed.variantWindowSeconds,
    },
    playback: { token_minutes: playback.tokenMinutes, bind_network: playback.bindNetwork },
    upstream: {
      api_base_url: address(env.API_BASE_URL),
      geo_api_url: address(env.GEO_API_URL),
      delivery_base_url: address(env.DELIVERY_BASE_URL),
      geo_client: env.GEO_CLIENT ?? null,
    },
    dev_mode: devMode(env),
    // Set or not, never the value.
    secrets: Object.fromEntries(SECRET_BINDINGS.map((name) => [name, isSet(env, name)])),
    warnings: configWarnings(env, config, live),
  };
}
