/**
 * Everything under `/admin`, one route per resource: the operator console's pages (console.ts, no auth to load them),
 * its sign-in (`/admin/session`, session.ts), and the admin API: access keys and their v1 secrets (keys.ts), the audit
 * trail (audit.ts), a site's URL-signing check (url-signing.ts), purges (purge.ts), the configuration in force
 * (config.ts) and the metrics (metrics.ts). Every API route needs the admin token or a console session (auth.ts); an
 * unknown path is refused as the API would refuse it, so a caller without either learns nothing of what exists. With
 * no `ADMIN_TOKEN` the pages answer 404 and the API 403 `admin_disabled`.
 */
import { Router, type IRequest } from 'itty-router';
import type { Env } from '../../env.ts';
import { rawTarget } from '../../http/paths.ts';
import type { RequestContext } from '../../http/context.ts';
import { gatewayNotFound } from '../errors.ts';
import type { GatewayRequest } from '../gateway-request.ts';
import { auditRoute } from './audit.ts';
import { requireAdmin } from './auth.ts';
import { configRoute } from './config.ts';
import { consolePage, serveConsole } from './console.ts';
import { keyRoute, keysRoute, v1SecretRoute } from './keys.ts';
import { metricsRoute } from './metrics.ts';
import { purgeRoute } from './purge.ts';
import { sessionRoute } from './session.ts';
import { urlSigningRoute } from './url-signing.ts';

/** An admin route: what it is asked, in the same context a public request travels in (gateway/router.ts builds it). */
type AdminHandler = (c: RequestContext) => Promise<Response>;

/** The context the gateway built for the request, with this route's parameters. */
const route = (handler: AdminHandler) => (request: IRequest) => {
  const c = (request as GatewayRequest).context;
  c.params = request.params;
  return handler(c);
};

/** An admin API route: the admin token or a console session first. */
const admin = (handler: AdminHandler) => route(async (c) => {
  await requireAdmin(c.request, c.env.ADMIN_TOKEN);
  return handler(c);
});

export const adminRouter = Router<IRequest, [Env, ExecutionContext]>({ base: '/admin' })
  .all('/session', route(sessionRoute))
  .all('/metrics', admin(metricsRoute))
  .all('/keys', admin(keysRoute))
  .all('/keys/:id', admin(keyRoute))
  .all('/keys/:id/v1_secret', admin(v1SecretRoute))
  .all('/audit', admin(auditRoute))
  .all('/sites/:site/url-signing', admin(urlSigningRoute))
  .all('/purge', admin(purgeRoute))
  .all('/config', admin(configRoute))
  .all('*', route(async ({ request, env }) => {
    const page = consolePage(rawTarget(request.url).path);
    if (page !== null) return serveConsole(request, env, page);
    await requireAdmin(request, env.ADMIN_TOKEN);
    throw gatewayNotFound();
  }));
