// The comparison point of the upstream-amplification figures: what a publisher might write without reelgate. It
// answers the same public paths by forwarding each request to the Management API with the secret: no cache, no
// budget, no de-duplication. One upstream call per client request is the least any proxy without a cache can make.
// Bench-only: it is a deliberately naive design and is never deployed.
const ROUTES = [
  [/^\/api\/sites\/([A-Za-z0-9]{8})\/playlists\/([A-Za-z0-9]{8})$/, (site, id) => `/v2/sites/${site}/playlists/${id}/`],
  [/^\/api\/sites\/([A-Za-z0-9]{8})\/media\/([A-Za-z0-9]{8})$/, (site, id) => `/v2/sites/${site}/media/${id}/`],
  [/^\/api\/sites\/([A-Za-z0-9]{8})\/players\/([A-Za-z0-9]{8})$/, (site, id) => `/v2/sites/${site}/players/${id}/`],
];

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    for (const [pattern, upstreamPath] of ROUTES) {
      const match = pattern.exec(url.pathname);
      if (!match) continue;
      const upstream = await fetch(new URL(upstreamPath(match[1], match[2]), env.API_BASE_URL), {
        headers: { authorization: `Bearer ${env.API_SECRET}` },
        redirect: 'manual',
      });
      return new Response(upstream.body, {
        status: upstream.status,
        headers: { 'content-type': upstream.headers.get('content-type') ?? 'application/json' },
      });
    }
    return Response.json({ errors: [{ code: 'not_found', description: 'No such route.' }] }, { status: 404 });
  },
};
