/** What every route handler receives and the lookups they share. */
import type { IRequest } from 'itty-router';
import type { CallerContext } from '../budget/upstream.ts';
import { getConfig, type SiteConfig } from '../config.ts';
import type { Env } from '../env.ts';
import { notFound } from '../errors.ts';
import { requireSiteId } from '../request-guard.ts';
import { visitorKey } from '../visitor.ts';

export type RouteRequest = IRequest & Request;
export type Handler = (request: RouteRequest, env: Env, ctx: ExecutionContext) => Promise<Response>;

/** A configured site, or 404 (only configured sites are served). */
export function siteOf(env: Env, id: string | undefined): SiteConfig {
  const site = getConfig(env).sites.get(requireSiteId(id));
  if (!site) throw notFound('No such site.');
  return site;
}

/** The caller's turn-key in the budget's public lane: their hashed network, so one visitor cannot starve others. */
export async function publicCaller(request: Request, env: Env): Promise<CallerContext> {
  return { lane: 'public', caller: (await visitorKey(request, env)) ?? 'anonymous' };
}
