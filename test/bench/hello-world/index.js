// The baseline of the edge-overhead figures: a Worker that does nothing but answer. The cached paths of reelgate are
// compared with this, served by the same `wrangler dev` on the same machine in the same run.
//
// `GET /replay` answers with whatever the bench stored by `PUT /replay` (status, headers, body): the bench stores
// reelgate's cached feed answer there, so the same do-nothing Worker also shows what carrying that answer (its
// 4 KB body and its headers) costs on this stack, apart from any work of reelgate's. Bench-only; never deployed.
let replay = null;

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === '/replay') {
      if (request.method === 'PUT') {
        replay = await request.json();
        return new Response(null, { status: 204 });
      }
      if (replay) return new Response(replay.body, { status: replay.status, headers: replay.headers });
      return new Response('nothing stored', { status: 404 });
    }
    return new Response('{"hello":"world"}', { headers: { 'content-type': 'application/json' } });
  },
};
