/**
 * A gateway call counted for the operator (worker/metrics/) under its access key: every call, each answered with an
 * error status (4xx, 5xx, refusals included), and each write answered from a stored outcome (Idempotency-Key).
 */
import { ApiError } from '../http/errors.ts';
import { count } from '../metrics/index.ts';
import { REPLAYED_HEADER } from './forward.ts';

export async function countedCall(keyId: string, call: () => Promise<Response>): Promise<Response> {
  count('gateway_calls', { key: keyId });
  let response: Response;
  try {
    response = await call();
  } catch (error) {
    // Thrown refusals become error answers at the gateway's catch; anything else, the front door's 500 body.
    if (!(error instanceof ApiError) || error.status >= 400) count('gateway_errors', { key: keyId });
    throw error;
  }
  if (response.status >= 400) count('gateway_errors', { key: keyId });
  if (response.headers.get(REPLAYED_HEADER) === 'true') count('gateway_replays', { key: keyId });
  return response;
}
