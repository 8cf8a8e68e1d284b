// The browser side of demo/ssr-node: Lit's hydration support first (it has to run before Lit itself loads, so that
// the elements take over the server's declarative shadow DOM instead of rendering again), then the elements.
// `npm run check:apps` bundles it, as one file, into .build/apps/ssr-node/client.js.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import 'reelgate';
