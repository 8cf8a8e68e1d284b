/**
 * The operator console's pages under `/admin/` (served from the ASSETS binding, no auth to load them): the page itself,
 * under its own strict policy, and the files its build writes beside it. With no `ADMIN_TOKEN` they answer 404.
 */
import { ApiError } from '../../http/errors.ts';
import type { Env } from '../../env.ts';
import { gatewayNotFound, methodNotAllowed } from '../errors.ts';

/** The console page's policy (the console's contract): its own scripts, styles and API only, framed by nobody. */
export const CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
  + "img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** A file the console's build writes beside its page (dist/admin/): a plain name, no folder. */
const CONSOLE_FILE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}(?:\.[A-Za-z0-9_-]{1,64})?\.(?:js|css|svg)$/;

type ConsolePage = { kind: 'redirect' } | { kind: 'index' } | { kind: 'file'; name: string };

export function consolePage(path: string): ConsolePage | null {
  if (path === '/admin') return { kind: 'redirect' };
  if (path === '/admin/' || path === '/admin/index.html') return { kind: 'index' };
  const name = path.slice('/admin/'.length);
  return CONSOLE_FILE.test(name) ? { kind: 'file', name } : null;
}

const consoleNotBuilt = () => new ApiError(503, 'console_not_built',
  'The operator console is not built: run `npm run build` (it writes dist/admin/) and deploy again.');

export async function serveConsole(request: Request, env: Env, page: ConsolePage): Promise<Response> {
  if (!env.ADMIN_TOKEN) throw gatewayNotFound();
  if (request.method !== 'GET' && request.method !== 'HEAD') throw methodNotAllowed(['GET', 'HEAD']);
  if (page.kind === 'redirect') {
    return new Response(null, { status: 308, headers: { location: '/admin/', 'cache-control': 'no-store' } });
  }
  if (page.kind === 'index') {
    const fetchPage = (path: string) => env.ASSETS!.fetch(new Request(new URL(path, request.url), { method: request.method }));
    let asset = env.ASSETS ? await fetchPage('/admin/index.html') : null;
    if (asset && asset.status >= 300 && asset.status < 400) {
      // Assets served with html_handling's trailing slashes redirect `index.html` to its folder.
      await asset.body?.cancel();
      asset = await fetchPage('/admin/');
    }
    if (asset?.status !== 200) {
      await asset?.body?.cancel();
      throw consoleNotBuilt();
    }
    return new Response(asset.body, {
      status: 200,
      headers: {
        'content-type': asset.headers.get('content-type') ?? 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // An HTML answer that states its policy keeps it (http/security-headers.ts).
        'content-security-policy': CONSOLE_CSP,
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
      },
    });
  }
  if (!env.ASSETS) throw gatewayNotFound();
  const headers = new Headers();
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch) headers.set('if-none-match', ifNoneMatch);
  const asset = await env.ASSETS.fetch(new Request(new URL(`/admin/${page.name}`, request.url), { method: request.method, headers }));
  if (asset.status !== 200 && asset.status !== 304) {
    await asset.body?.cancel();
    throw gatewayNotFound('No such file of the console.');
  }
  const response = new Response(asset.body, asset);
  // Revalidated on every load (ETag), so a new build is picked up at once.
  response.headers.set('cache-control', 'no-cache');
  return response;
}
