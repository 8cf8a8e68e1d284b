/** GET /api/geo and GET /api/gate/:policy — the caller's own location, and a policy's decision for them. */
import { POLICY_NAME, type GeoPolicy } from '../config.ts';
import type { GateResponse, GeoResponse } from '../contract/public-api.ts';
import { decideFor, locateCaller, locatedTag, needsProxyClass } from '../geo/index.ts';
import { notFound } from '../http/errors.ts';
import { readQuery } from '../http/request-guard.ts';
import type { ResourceDeclaration } from './pipeline.ts';

export const geo: ResourceDeclaration<void, never, GeoResponse> = {
  kind: 'geo',
  input(c) {
    readQuery(c.request, []);
  },
  async present(c) {
    const where = await locateCaller(c);
    const etag = locatedTag(where);
    // Answered whole from one geo cache entry: that entry's tag stands for the body (no hashing it again).
    return { body: { ...where }, personal: true, ...(etag ? { etag } : {}) };
  },
};

export const gate: ResourceDeclaration<GeoPolicy, never, GateResponse> = {
  kind: 'gate',
  input(c) {
    const name = c.params.policy ?? '';
    const policy = POLICY_NAME.test(name) ? c.config.policies.get(name) : undefined;
    if (!policy) throw notFound('No such policy.');
    readQuery(c.request, []);
    return policy;
  },
  async present(c, policy) {
    const where = await locateCaller(c, needsProxyClass(policy) ? 'full' : 'country');
    const { allowed, reason, complete } = decideFor(c, policy, where);
    return { body: { policy: policy.name, allowed, reason, complete, country: where.country, proxy: where.proxy }, personal: true };
  },
};
