/** Per-visitor abuse limit on /api/ (the Workers rate-limiting binding), keyed by the salted hash of the address. */
import type { Env } from './env.ts';
import { rateLimited } from './errors.ts';
import { callerAddress, hashAddress } from './visitor.ts';

/** The binding's period (wrangler.toml `[[ratelimits]] simple.period`). */
const PERIOD_SECONDS = 60;

export async function enforceVisitorLimit(request: Request, env: Env): Promise<void> {
  if (!env.VISITOR_LIMIT) return;
  const address = callerAddress(request, env) ?? 'unknown';
  const { success } = await env.VISITOR_LIMIT.limit({ key: await hashAddress(env, address) });
  if (!success) throw rateLimited(PERIOD_SECONDS, 'Too many requests from your address; retry later.');
}
