// The server entry Astro builds the site around (see ./index.mjs): one App for the build's manifest.
import { App } from 'astro/app';

export function createExports(manifest) {
  const app = new App(manifest);
  return {
    /** The page for a fetch `Request`, rendered for the visitor at `clientAddress`. */
    handler: (request, clientAddress) => app.render(request, { clientAddress }),
  };
}
