// `vite build --config demo/vue-app/vite.config.mjs` (in `npm run check:apps`): the Vue example app.
import vue from '@vitejs/plugin-vue';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const at = (path) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: at('.'),
  // Relative asset URLs: the built page works wherever it is served (the browser suite loads it from .build/).
  base: './',
  // reel-* tags are custom elements, not Vue components: Vue leaves them to the browser.
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('reel-') } } })],
  // No alias: `import 'reelgate'` resolves through the package's own "exports" (this repository is the package, so
  // it names dist/lib/index.js), as it would from a publisher's node_modules.
  build: { outDir: at('../../.build/apps/vue'), emptyOutDir: true },
  // `npx vite --config demo/vue-app/vite.config.mjs` beside `npm start`: /api goes to that worker.
  server: { proxy: { '/api': 'http://127.0.0.1:8787' } },
  logLevel: 'warn',
});
