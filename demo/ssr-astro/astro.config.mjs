// `astro build --config demo/ssr-astro/astro.config.mjs` (in `npm run check:apps`): a publisher's Astro 5 site that
// renders reelgate's elements on the server per request (`output: 'server'`, so each visitor's page is their own),
// into .build/apps/ssr-astro/ (server/entry.mjs and client/). `node demo/ssr-astro/serve.mjs` serves it.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import node from './adapter/index.mjs';

const at = (path) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // What Astro generates beside a project (.astro/, its caches) goes under .build/, out of the sources.
  root: at('../../.build/ssr-astro-root/'),
  srcDir: at('./src/'),
  cacheDir: at('../../.build/ssr-astro-root/cache/'),
  output: 'server',
  // The smallest adapter (./adapter/): a handler a Node server calls with each request and the visitor's address.
  // A real site would use @astrojs/node, Netlify's, Vercel's or Cloudflare's, which do the same.
  adapter: node(),
  outDir: at('../../.build/apps/ssr-astro/'),
  // Astro's dev toolbar and telemetry are for people, not for `npm test`.
  devToolbar: { enabled: false },
  logLevel: 'warn',
  // hls.js is a chunk of its own (about 600 KB), loaded only by a player that plays HLS through MSE.
  vite: { build: { chunkSizeWarningLimit: 700 } },
});
