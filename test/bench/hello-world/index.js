// The baseline of the edge-overhead figures: a Worker that does nothing but answer. The cached paths of reelgate are
// compared with this, served by the same `wrangler dev` on the same machine in the same run.
export default {
  fetch() {
    return new Response('{"hello":"world"}', { headers: { 'content-type': 'application/json' } });
  },
};
