/** `GET /admin/sites/<site>/url-signing[?media=<id>]`: whether a site's URL-signing secret works (signing-check.ts). */
import type { IRequest } from 'itty-router';
import type { Env } from '../../env.ts';
import { requestConfig } from '../../http/request-config.ts';
import { noStoreJson } from '../../http/respond.ts';
import { methodNotAllowed } from '../errors.ts';
import { onlyParams } from './request.ts';
import { checkUrlSigning } from './signing-check.ts';

export async function urlSigningRoute(request: IRequest, env: Env): Promise<Response> {
  if (request.method !== 'GET') throw methodNotAllowed(['GET']);
  const url = new URL(request.url);
  onlyParams(url, ['media']);
  return noStoreJson(await checkUrlSigning(env, requestConfig(request, env), request.params.site!, url.searchParams.get('media')));
}
