/**
 * The server render: pages the worker serves get their elements' first state as HTML, with JSON-LD and head links
 * (page.ts), read from the public resources as the visitor gets them (resource-source.ts). Others import from here.
 */
export { renderPage, type Answer, type RenderSource } from './page.ts';
export { renderedPageRoute } from './page-route.ts';
export { resourceSource } from './resource-source.ts';
