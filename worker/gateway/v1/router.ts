/**
 * `/v1/...`: the deprecated API's calls, for integrations not yet moved to v2 (v1-routes.ts: signed or keyed, mapped
 * to v2 calls with v1-migration.ts, answered in the v1 shape by v1-answers.ts). A bare `/v1` is nobody's v1 call.
 */
import { Router, type IRequest } from 'itty-router';
import type { Env } from '../../env.ts';
import { rawTarget } from '../../http/paths.ts';
import { gatewayNotFound } from '../errors.ts';
import { handleV1 } from './v1-routes.ts';

export const v1Router = Router<IRequest, [Env]>({ base: '/v1' })
  .all('/:call+', (request: IRequest, env: Env) => handleV1(request, env, rawTarget(request.url).path))
  .all('*', () => {
    throw gatewayNotFound('No such route; v1 calls are /v1/<route>, e.g. /v1/videos/list.');
  });
