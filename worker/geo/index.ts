/**
 * Geo rules at the edge: where a caller is (locate.ts: `request.cf`, else the Geo API through the budget, cached per
 * address), what a policy decides for them (policy.ts), what binds what (enforce.ts, membership.ts) and which player
 * settings name bound content (player-references.ts). Others import from here.
 */
export { allowedBy, enforcePolicies, mediaPolicies, playlistPolicies, unbound, visibleItems } from './enforce.ts';
export { locateCaller, locatedTag } from './locate.ts';
export { heldFacts, heldMembership, membershipFor, type Membership } from './membership.ts';
export { boundSettings, namesAnything } from './player-references.ts';
export { decideFor } from './decisions.ts';
export { decide, needsProxyClass } from './policy.ts';
