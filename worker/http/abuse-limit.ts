/**
 * Per-visitor abuse limit on /api/ (the Workers rate-limiting binding), keyed by the salted hash of the visitor's
 * network: an IPv4 address, or an IPv6 /64 (worker/http/visitor.ts). Callers with no readable address share one key.
 */
import type { Env } from '../env.ts';
import { rateLimited } from './errors.ts';
import { hashAddress, visitorKey } from './visitor.ts';

/** The binding's period (wrangler.toml `[[ratelimits]] simple.period`). */
const PERIOD_SECONDS = 60;

export async function enforceVisitorLimit(request: Request, env: Env): Promise<void> {
  if (!env.VISITOR_LIMIT) return;
  const key = (await visitorKey(request, env)) ?? (await hashAddress(env, 'unknown'));
  const { success } = await env.VISITOR_LIMIT.limit({ key });
  if (!success) throw rateLimited(PERIOD_SECONDS, 'Too many requests from your address; retry later.');
}
