/** A gateway request: it carries the context the gateway built for it (router.ts), the bag a public request travels in. */
import type { IRequest } from 'itty-router';
import type { RequestContext } from '../http/context.ts';

export type GatewayRequest = IRequest & { context: RequestContext };
