// The floor of section 6 (playback): the least a Worker in front of a CDN can do, forwarding the path (and query) and streaming the
// answer back. Whatever this costs locally (workerd's subrequest path under `wrangler dev`) any Worker pays; what
// reelgate's playback route costs beyond it is its own. Bench-only: no checks at all, never deployed.
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const headers = new Headers();
    const range = request.headers.get('range');
    if (range) headers.set('range', range);
    const upstream = await fetch(new URL(url.pathname + url.search, env.API_BASE_URL), { headers, redirect: 'manual' });
    return new Response(upstream.body, upstream);
  },
};
