/** GET /api/geo and GET /api/gate/:policy — the caller's own location, and a policy's decision for them. */
import { POLICY_NAME, type GeoPolicy } from '../config.ts';
import type { GateResponse, GeoResponse } from '../contract/public-api.ts';
import { decideFor, locateCaller, locatedTag, needsProxyClass } from '../geo/index.ts';
import { notFound } from '../http/errors.ts';
import { readQuery } from '../http/request-guard.ts';
import type { RenderedJson } from '../http/respond.ts';
import type { ResourceDeclaration } from './pipeline.ts';
import { BoundedMap } from '../http/bounded-map.ts';

const MAX_RENDERED = 1024;
/**
 * `/api/geo` answers as rendered, by the tag of the geo cache entry each is made of: the same entry is the same text,
 * so a returning visitor's answer is not serialised again. In this isolate's memory only, bounded, oldest out first.
 */
const renderedByTag = new BoundedMap<string, RenderedJson>(MAX_RENDERED);

export const geo: ResourceDeclaration<void, never, GeoResponse> = {
  kind: 'geo',
  input(c) {
    readQuery(c.request, []);
  },
  async present(c) {
    const where = await locateCaller(c);
    // Answered whole from one geo cache entry: that entry's tag stands for the body (no hashing it again).
    const etag = locatedTag(where);
    if (!etag) return { body: { ...where }, personal: true };
    let rendered = renderedByTag.get(etag);
    if (!rendered) {
      rendered = { text: JSON.stringify({ ...where }), etag };
      renderedByTag.set(etag, rendered);
    }
    return { body: where, rendered, personal: true };
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
