/**
 * One public request, built once at the front door (worker/index.ts) and handed to everything below it: the request,
 * the environment, the execution context, the configuration parsed for it, its route's parameters, its Server-Timing
 * and the caller's fair-share key. The one bag a public request travels in (Hono's `Context`, in spirit).
 */
import type { Config, SiteConfig } from '../config.ts';
import type { Env } from '../env.ts';
import { notFound } from './errors.ts';
import { requireSiteId } from './request-guard.ts';
import { ServerTiming } from './server-timing.ts';
import { visitorKey } from './visitor.ts';

export type RouteParams = Readonly<Record<string, string | undefined>>;

export class RequestContext {
  readonly timing = new ServerTiming();
  #caller: Promise<string> | undefined;

  constructor(
    /** The request as the modules see it: with DEV_MODE's `dev_ip` stand-in applied, when a route takes one. */
    readonly request: Request,
    readonly env: Env,
    readonly ctx: ExecutionContext,
    readonly config: Config,
    /** The route's path parameters (itty-router's `request.params`), set by the route table when a route matches. */
    public params: RouteParams = {},
  ) {}

  /** The same request as another `Request` (a stand-in address in development): a context of its own. */
  as(request: Request): RequestContext {
    return new RequestContext(request, this.env, this.ctx, this.config, this.params);
  }

  /** The caller's turn-key in the budget's public lane: their hashed network, so one visitor cannot starve others. */
  callerKey(): Promise<string> {
    this.#caller ??= visitorKey(this.request, this.env).then((key) => key ?? 'anonymous');
    return this.#caller;
  }

  /** A configured site, or 404 (only configured sites are served). */
  site(id: string | undefined): SiteConfig {
    const site = this.config.sites.get(requireSiteId(id));
    if (!site) throw notFound('No such site.');
    return site;
  }
}
