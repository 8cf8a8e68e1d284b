/** GET /api/geo and GET /api/gate/:policy — the caller's own location, and a policy's decision for them. */
import { POLICY_NAME } from '../config.ts';
import { notFound } from '../errors.ts';
import { locateCaller, locatedTag } from '../geo/locate.ts';
import { decide, needsProxyClass } from '../geo/policy.ts';
import type { GateResponse, GeoResponse } from '../contract/public-api.ts';
import { readQuery } from '../request-guard.ts';
import { jsonResponse, PRIVATE_NO_STORE } from '../respond.ts';
import { ServerTiming } from '../server-timing.ts';
import type { Handler } from './context.ts';

export const geoRoute: Handler = async (request, env, ctx) => {
  readQuery(request, []);
  const timing = new ServerTiming();
  const where = await locateCaller({ request, env, ctx, config: request.config, timing });
  const body: GeoResponse = { ...where };
  return jsonResponse(request, body, { timing, cacheControl: PRIVATE_NO_STORE, etag: locatedTag(where) });
};

export const gateRoute: Handler = async (request, env, ctx) => {
  const name = request.params.policy ?? '';
  const policy = POLICY_NAME.test(name) ? request.config.policies.get(name) : undefined;
  if (!policy) throw notFound('No such policy.');
  readQuery(request, []);
  const timing = new ServerTiming();
  const where = await locateCaller({ request, env, ctx, config: request.config, timing },
    needsProxyClass(policy) ? 'full' : 'country');
  const { allowed, reason, complete } = decide(policy, where);
  const body: GateResponse = { policy: policy.name, allowed, reason, complete, country: where.country, proxy: where.proxy };
  return jsonResponse(request, body, { timing, cacheControl: PRIVATE_NO_STORE });
};
