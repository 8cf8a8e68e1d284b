// `vite build --config demo/react-app/vite.config.mjs` (in `npm run check:apps`): the React example app.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const at = (path) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: at('.'),
  // Relative asset URLs: the built page works wherever it is served (the browser suite loads it from .build/).
  base: './',
  plugins: [react()],
  // No alias: `import 'reelgate'` resolves through the package's own "exports" (this repository is the package, so
  // it names dist/lib/index.js), as it would from a publisher's node_modules.
  build: { outDir: at('../../.build/apps/react'), emptyOutDir: true },
  // `npx vite --config demo/react-app/vite.config.mjs` beside `npm start`: /api goes to that worker.
  server: { proxy: { '/api': 'http://127.0.0.1:8787' } },
  logLevel: 'warn',
});
