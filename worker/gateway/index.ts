/**
 * The gateway: `/v2/...` for a team's servers (access keys, the budget's gateway lanes, idempotency, audit, purge
 * after writes), `/v1/...` for integrations still on the deprecated API, `/admin/...` for the operator (router.ts).
 * Others import from here.
 */
export { gateway } from './router.ts';
