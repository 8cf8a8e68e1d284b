/**
 * The conformance gate: a worker the test pools put between every caller and the sandbox upstream. Each answer of a
 * route the platform's definition documents is checked against it (conformance.ts) before it goes on.
 *
 * - `MODE=check` (the worker suites): an answer that does not conform is replaced by a 500 naming every violation, so
 *   the test that received it fails, and the violation is logged.
 * - `MODE=documented` (the suites run again against documented shapes only, demo/sandbox/README.md, "The documented-shapes upstream"):
 *   besides the check, every member the definition does not name is dropped, including the contents of objects it
 *   leaves open without naming a member (`relationships`), so nothing the platform does not promise reaches the worker.
 *
 * The Delivery API's JSON answers (`GET /v2/media/<id>`, `GET /v2/playlists/<id>`) are checked the same way, against
 * delivery-schema.json. Byte routes (the sandbox's CDN paths), the geo lookup and the sandbox's controls pass through
 * untouched, and so do
 * answers the sandbox deforms on purpose under a fault (marked `x-sandbox-fault`): they stand for a platform that
 * changed, which is what the worker is then tested against.
 */
import { checkAnswer, documentedOnly, routeKey } from './conformance.ts';

/** Marks an answer the sandbox deformed on purpose (demo/sandbox/controls.ts, `changed_playlist_shape`). */
const FAULT_HEADER = 'x-sandbox-fault';

interface GateEnv {
  UPSTREAM: Fetcher;
  MODE?: string;
}

export default {
  async fetch(request, env): Promise<Response> {
    const { pathname } = new URL(request.url);
    const route = routeKey(request.method, pathname);
    const answer = await env.UPSTREAM.fetch(request);
    if (!route || answer.headers.has(FAULT_HEADER)) return answer;
    const text = await answer.text();
    const verdict = checkAnswer(request.method, pathname, answer.status, text);
    if (verdict.violations.length) {
      const description = `The upstream's answer (${answer.status}) to ${route} does not match the platform's definition: ${verdict.violations.join('; ')}`;
      console.error(`conformance: ${description}`);
      return Response.json({ errors: [{ code: 'nonconformant_answer', description }] }, { status: 500 });
    }
    const body = env.MODE === 'documented' && answer.status < 400 && text.length
      ? JSON.stringify(documentedOnly(route, answer.status, JSON.parse(text)))
      : text;
    return new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  },
} satisfies ExportedHandler<GateEnv>;
