/**
 * One public request as the modules under the routes see it (geo, playback, embed, render, cache), and the lookups
 * they share with the route handlers: below routes/, so nothing a handler calls has to import from routes/.
 */
import type { CallerContext } from './budget/upstream.ts';
import type { Config, SiteConfig } from './config.ts';
import type { Env } from './env.ts';
import { notFound } from './errors.ts';
import { requireSiteId } from './request-guard.ts';
import type { ServerTiming } from './server-timing.ts';
import { visitorKey } from './visitor.ts';

/** One request as the modules under the routes see it (geo, playback, cache): one argument instead of five. */
export interface Visit {
  request: Request;
  env: Env;
  ctx: ExecutionContext;
  config: Config;
  timing?: ServerTiming | undefined;
}

/** A configured site, or 404 (only configured sites are served). */
export function siteOf(config: Config, id: string | undefined): SiteConfig {
  const site = config.sites.get(requireSiteId(id));
  if (!site) throw notFound('No such site.');
  return site;
}

/** The caller's turn-key in the budget's public lane: their hashed network, so one visitor cannot starve others. */
export async function publicCaller(request: Request, env: Env): Promise<CallerContext> {
  return { lane: 'public', caller: (await visitorKey(request, env)) ?? 'anonymous' };
}
