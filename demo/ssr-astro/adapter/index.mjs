// An Astro adapter in its smallest form: the build's server entry (./server.mjs) exports `handler(request,
// clientAddress)`, which a Node server (../serve.mjs) calls. `clientAddress` is what the page reads as
// `Astro.clientAddress`: the visitor's address, which reelgate/server forwards to the worker.
export default function adapter() {
  return {
    name: 'reelgate-demo-adapter',
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          name: 'reelgate-demo-adapter',
          serverEntrypoint: new URL('./server.mjs', import.meta.url),
          exports: ['handler'],
          supportedAstroFeatures: { serverOutput: 'stable', staticOutput: 'stable', hybridOutput: 'stable' },
        });
      },
    },
  };
}
