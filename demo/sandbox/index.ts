// The sandbox upstream: a stand-in for the video platform's Management API v2 and Geo Location Lookup API (see the
// demo/sandbox/README.md, "The sandbox upstream"). Every request goes to the one Durable Object that holds the platform's state.
import type { SandboxEnv } from './env.ts';

export { SandboxState } from './sandbox-state.ts';

export default {
  async fetch(request, env): Promise<Response> {
    const stub = env.STATE.get(env.STATE.idFromName('platform'));
    return stub.fetch(request);
  },
} satisfies ExportedHandler<SandboxEnv>;
