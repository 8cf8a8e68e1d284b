/**
 * `GET /admin/config`: the configuration in force, as the console shows it (config-view.ts), with the running worker's
 * own warnings (the Geo API failing, the budget saturated: worker/metrics/ view.ts).
 */
import type { IRequest } from 'itty-router';
import type { Env } from '../../env.ts';
import { requestConfig } from '../../http/request-config.ts';
import { noStoreJson } from '../../http/respond.ts';
import { liveWarnings } from '../../metrics/index.ts';
import { methodNotAllowed } from '../errors.ts';
import { configView } from './config-view.ts';
import { onlyParams } from './request.ts';

export async function configRoute(request: IRequest, env: Env): Promise<Response> {
  onlyParams(new URL(request.url), []);
  if (request.method !== 'GET') throw methodNotAllowed(['GET']);
  const config = requestConfig(request, env);
  return noStoreJson(configView(env, config, await liveWarnings(env, config)));
}
