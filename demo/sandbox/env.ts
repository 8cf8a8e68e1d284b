// The sandbox's bindings (demo/sandbox/wrangler.toml; build.mjs mirrors them for the test pool).
export interface SandboxEnv {
  STATE: DurableObjectNamespace;
  API_SECRET: string;
  GEO_API_KEY: string;
  RATE_LIMIT_PER_MINUTE?: string;
}

export function configuredRateLimit(env: SandboxEnv): number {
  const value = Number(env.RATE_LIMIT_PER_MINUTE ?? '60');
  return Number.isInteger(value) && value > 0 ? value : 60;
}
