/** What every route handler receives. The request as the modules under the routes see it, and the site and caller
 * lookups the handlers share with them, are one layer down, in worker/visit.ts. */
import type { IRequest } from 'itty-router';
import type { Config } from '../config.ts';
import type { Env } from '../env.ts';

/** A routed request, with the configuration the front door parsed for it (once per isolate, worker/config.ts). */
export type RouteRequest = IRequest & Request & { config: Config };
export type Handler = (request: RouteRequest, env: Env, ctx: ExecutionContext) => Promise<Response>;
