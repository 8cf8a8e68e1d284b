/**
 * `GET /admin/config`: the configuration in force, as the console shows it (config-view.ts), with the running worker's
 * own warnings (the Geo API failing, the budget saturated: worker/metrics/ view.ts).
 */
import type { RequestContext } from '../../http/context.ts';
import { noStoreJson } from '../../http/respond.ts';
import { liveWarnings } from '../../metrics/index.ts';
import { methodNotAllowed } from '../errors.ts';
import { configView } from './config-view.ts';
import { onlyParams } from './request.ts';

export async function configRoute({ request, env, config }: RequestContext): Promise<Response> {
  onlyParams(new URL(request.url), []);
  if (request.method !== 'GET') throw methodNotAllowed(['GET']);
  return noStoreJson(configView(env, config, await liveWarnings(env, config)));
}
