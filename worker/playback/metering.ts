/**
 * Playback counted for the operator (worker/metrics/): each answer with bytes, its length (Content-Length, or the
 * bytes as they stream when the length is not known up front: a rewritten playlist or storyboard), and each refusal by
 * its code. Counting never holds a byte back.
 */
import type { RequestContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { count } from '../metrics/index.ts';

type Route = (c: RequestContext) => Promise<Response>;

export function metered(route: Route): Route {
  return async (c) => {
    let response: Response;
    try {
      response = await route(c);
    } catch (error) {
      count('playback_refusals', { code: error instanceof ApiError ? error.code : 'internal' });
      throw error;
    }
    if (response.status >= 400) return response;
    count('playback_requests', {});
    if (c.request.method === 'HEAD' || !response.body) return response;
    const length = Number(response.headers.get('content-length'));
    if (response.headers.has('content-length') && Number.isFinite(length)) {
      count('playback_bytes', {}, length);
      return response;
    }
    let bytes = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
      flush() {
        count('playback_bytes', {}, bytes);
      },
    });
    return new Response(response.body.pipeThrough(counter), response);
  };
}
