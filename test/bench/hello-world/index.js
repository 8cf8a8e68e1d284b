// The baseline of the edge-overhead figures (section 1): a Worker that does nothing but answer. reelgate's cached paths
// are compared with this, served the same way on the same machine in the same run.
//
// With a `VISITOR_LIMIT` rate-limiting binding (section 1's direct workerd stack binds one identical to reelgate's:
// wrangler.toml's `[[ratelimits]]`, 120 a minute), every GET first does what reelgate's abuse limit does for a visitor
// (worker/http/abuse-limit.ts and visitor.ts): it reads the visitor's address (`x-reelgate-dev-ip` when DEV_MODE is
// "true", else `CF-Connecting-IP`), keys it by an HMAC-SHA-256 under ADDRESS_SALT (made once per visitor per isolate
// and remembered after, as reelgate remembers it; the first 20 bytes in hex, as reelgate's key), and calls
// `VISITOR_LIMIT.limit({ key })`, answering 429 when the limit says no. So the baseline pays the same platform call a
// HIT pays. Without the binding (`wrangler dev` with this folder's wrangler.toml, the rows kept from earlier runs)
// it only answers, as it always did. It does not parse the address into a network (an IPv6 /64) as reelgate does:
// the bench's visitors are one address per network, so the keys count the same; the parse is a few microseconds.
//
// `GET /replay` answers with whatever the bench stored by `PUT /replay` (status, headers, body): the bench stores
// reelgate's cached feed answer there, so the same do-nothing Worker also shows what carrying that answer (its
// 4 KB body and its headers) costs, apart from any work of reelgate's. Bench-only; never deployed.
let replay = null;

/** HMAC keys by salt, and the keys already made by address (bounded, oldest out first), as worker/http/visitor.ts. */
const hmacKeys = new Map();
const MAX_HASHES = 4096;
const hashes = new Map();

async function visitorKey(request, env) {
  const address = ((env.DEV_MODE === 'true' ? request.headers.get('x-reelgate-dev-ip') : null) ??
    request.headers.get('cf-connecting-ip') ?? 'unknown').trim();
  const salt = env.ADDRESS_SALT ?? '';
  const memo = `${salt}\n${address}`;
  const known = hashes.get(memo);
  if (known !== undefined) return known;
  let key = hmacKeys.get(salt);
  if (!key) {
    key = await crypto.subtle.importKey('raw', new TextEncoder().encode(salt), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    hmacKeys.set(salt, key);
  }
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(address)));
  const hash = [...mac.subarray(0, 20)].map((b) => b.toString(16).padStart(2, '0')).join('');
  hashes.set(memo, hash);
  if (hashes.size > MAX_HASHES) hashes.delete(hashes.keys().next().value);
  return hash;
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === '/replay' && request.method === 'PUT') {
      // Its headers made into a Headers object once, as a Worker that sends a fixed answer would hold them: building
      // fourteen headers from a list of pairs on every request costs more than the answer itself.
      const stored = await request.json();
      replay = { ...stored, headers: new Headers(stored.headers) };
      return new Response(null, { status: 204 });
    }
    if (env.VISITOR_LIMIT) {
      const { success } = await env.VISITOR_LIMIT.limit({ key: await visitorKey(request, env) });
      if (!success) return new Response('{"error":"rate_limited"}', { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '60' } });
    }
    if (pathname === '/replay') {
      if (replay) return new Response(replay.body, { status: replay.status, headers: replay.headers });
      return new Response('nothing stored', { status: 404 });
    }
    return new Response('{"hello":"world"}', { headers: { 'content-type': 'application/json' } });
  },
};
