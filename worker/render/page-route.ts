/**
 * Every other GET: the demo and publisher pages from the assets, with their elements' first state rendered in as HTML
 * (page.ts) from the public resources as this visitor gets them (resource-source.ts).
 */
import type { RequestContext } from '../http/context.ts';
import { pageAsset } from '../http/assets.ts';
import { keyOnHost } from '../http/public-origin.ts';
import { renderPage } from './page.ts';
import { resourceSource } from './resource-source.ts';

export async function renderedPageRoute(c: RequestContext): Promise<Response> {
  const page = await pageAsset(c.request, c.env);
  if (c.request.method !== 'GET' || page.status !== 200 || !page.headers.get('content-type')?.startsWith('text/html')) return page;
  const rendered = await renderPage(page, resourceSource(c));
  // Its links and JSON-LD name the request's host unless a public origin is configured: then kept per host.
  keyOnHost(rendered.headers, c.config);
  return rendered;
}
