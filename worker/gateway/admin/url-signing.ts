/** `GET /admin/sites/<site>/url-signing[?media=<id>]`: whether a site's URL-signing secret works (signing-check.ts). */
import type { RequestContext } from '../../http/context.ts';
import { noStoreJson } from '../../http/respond.ts';
import { methodNotAllowed } from '../errors.ts';
import { onlyParams } from './request.ts';
import { checkUrlSigning } from './signing-check.ts';

export async function urlSigningRoute({ request, env, config, params }: RequestContext): Promise<Response> {
  if (request.method !== 'GET') throw methodNotAllowed(['GET']);
  const url = new URL(request.url);
  onlyParams(url, ['media']);
  return noStoreJson(await checkUrlSigning(env, config, params.site!, url.searchParams.get('media')));
}
