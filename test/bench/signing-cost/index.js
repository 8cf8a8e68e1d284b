// Section 7's micro-measurement Worker: worker/signing/ exactly as reelgate runs it (bundled by esbuild, served by
// workerd on a direct socket), timed from outside. Each call does `n` units of one kind of signing and answers when
// done; the bench times calls of `n` units against calls of none, so the figure per unit is workerd's own work,
// whatever the runtime does to clocks inside a request. Bench-only; never deployed.
//
//   GET  /exp-sig?n=     n distinct file URLs signed with the legacy scheme (`?exp=&sig=`, MD5)
//   GET  /jwt?n=         n distinct `/v2/` poster URLs signed with a delivery JWT (HS256)
//   POST /media?n=&fresh=   a media answer (the body: the platform's URLs, unsigned) signed n times by `signMedia`
//   POST /feed?n=&fresh=    a feed page (the body) signed n times, card by card, by `signFeedItem`
//   POST /render?n=      the body rendered n times as a HIT renders a media answer (`renderJson`: JSON text and its
//                        SHA-256 ETag), to weigh what a signed answer's longer text costs beside its signatures
//   GET  /hits?target=&path=&n=&net=&visitors=
//                        n requests for `path`, one after another, to the reelgate bound as `target` (a service
//                        binding, in the same workerd process), each from one of `visitors` visitors (IPv6 /64s from
//                        2001:db8:<net>::), bodies read: a whole answer's cost in the worker, without the sockets,
//                        HTTP and load generator around it
//
// `fresh=1` moves the clock one signing window per round, so every URL is signed anew (what the first answer of a
// window pays); `fresh=0` keeps it, so after the first round every URL is remembered (what every later answer pays).
import { getConfig } from '../../../worker/config.ts';
import { renderJson } from '../../../worker/http/respond.ts';
import { signFeedItem, signMedia, signerFor, signUrl } from '../../../worker/signing/index.ts';

let windowsUsed = 0;

async function hits(env, params, n) {
  const target = env[params.get('target')];
  if (!target) return new Response(`no binding ${params.get('target')}`, { status: 400 });
  const path = params.get('path');
  const net = Number(params.get('net'));
  const visitors = Number(params.get('visitors'));
  const statuses = {};
  for (let i = 0; i < n; i++) {
    const response = await target.fetch(`http://reelgate${path}`, {
      headers: { 'x-reelgate-dev-ip': `2001:db8:${(net + (i % visitors)).toString(16)}::1` },
    });
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
  return Response.json({ n, statuses });
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get('n') ?? 0);
    if (url.pathname === '/hits') return hits(env, url.searchParams, n);
    const fresh = url.searchParams.get('fresh') === '1';
    const site = env.SIGNING_SITE;
    const signer = signerFor(env, getConfig(env), site);
    if (!signer) return new Response(`site ${site} does not sign`, { status: 500 });
    const secret = env.SIGNED_SITE_SECRET;
    const base = env.DELIVERY_BASE_URL;
    const start = Date.now();
    // One signing window later per fresh round, never one used before (signatures are remembered per window).
    const windowMs = signer.windowEndMs(signer.windowEndMs(start)) - signer.windowEndMs(start);
    const at = () => (fresh ? start + ++windowsUsed * windowMs : start);
    const exp = signer.answerExpiry(start);
    switch (url.pathname) {
      case '/exp-sig':
        for (let i = 0; i < n; i++) await signUrl(new URL(`${base}/videos/bench${i}-AGVR6BZh.mp4`), exp, secret);
        break;
      case '/jwt':
        for (let i = 0; i < n; i++) await signUrl(new URL(`${base}/v2/media/bench${i}/poster.jpg?width=720`), exp, secret);
        break;
      case '/media': {
        const media = await request.json();
        for (let i = 0; i < n; i++) await signMedia(signer, media, at());
        break;
      }
      case '/feed': {
        const { items } = await request.json();
        for (let i = 0; i < n; i++) {
          const now = at();
          await Promise.all(items.map((item) => signFeedItem(signer, item, now)));
        }
        break;
      }
      case '/render': {
        const body = await request.json();
        for (let i = 0; i < n; i++) await renderJson(body);
        break;
      }
      default:
        return new Response('not found', { status: 404 });
    }
    return Response.json({ n });
  },
};
