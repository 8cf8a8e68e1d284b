/**
 * One public request, built once at the front door (worker/index.ts) and handed to everything below it: the request,
 * the environment, the execution context, the configuration read for it, its route's parameters, its Server-Timing,
 * and whatever the layers below work out once per request (`memo`: the caller's key, their location, a site's
 * membership, the decisions counted). The one bag a public request travels in (Hono's `Context`, in spirit): no
 * module keeps a table keyed by request.
 */
import type { Config, SiteConfig } from '../config.ts';
import type { Env } from '../env.ts';
import { notFound } from './errors.ts';
import { requireSiteId } from './request-guard.ts';
import { ServerTiming } from './server-timing.ts';
import { visitorKey } from './visitor.ts';

export type RouteParams = Readonly<Record<string, string | undefined>>;

export class RequestContext {
  #memos = new Map<string, unknown>();

  constructor(
    /** The request as the modules see it: with DEV_MODE's `dev_ip` stand-in applied, when a route takes one. */
    readonly request: Request,
    readonly env: Env,
    readonly ctx: ExecutionContext,
    readonly config: Config,
    /** The route's path parameters (itty-router's `request.params`), set by the route table when a route matches. */
    public params: RouteParams = {},
    /** One Server-Timing for the whole answer, whichever context of it measures. */
    readonly timing = new ServerTiming(),
  ) {}

  /**
   * The same answer for another caller (a stand-in address in development): the configuration, parameters and timing
   * carry over; what was worked out about the caller (their key, location, membership, counted decisions) is worked
   * out again for the new one, since it is theirs.
   */
  as(request: Request): RequestContext {
    return new RequestContext(request, this.env, this.ctx, this.config, this.params, this.timing);
  }

  /**
   * What `make` gives, worked out once per request under `key` (a layer's own prefix, e.g. `geo:`, `membership:`):
   * however many steps of the answer ask, and without a module-level table keyed by request.
   */
  memo<T>(key: string, make: () => T): T {
    if (!this.#memos.has(key)) this.#memos.set(key, make());
    return this.#memos.get(key) as T;
  }

  /** The caller's turn-key in the budget's public lane: their hashed network, so one visitor cannot starve others. */
  callerKey(): Promise<string> {
    return this.memo('caller:key', () => visitorKey(this.request, this.env).then((key) => key ?? 'anonymous'));
  }

  /** A configured site, or 404 (only configured sites are served). */
  site(id: string | undefined): SiteConfig {
    const site = this.config.sites.get(requireSiteId(id));
    if (!site) throw notFound('No such site.');
    return site;
  }
}
