/**
 * The upstream calls the budget object performs, as plain data (they cross the Durable Object RPC boundary), and
 * their outcomes. Every call is one upstream request made with the typed clients.
 */
import type { ListParams, PlaylistType } from '../contract/v2-types.ts';
import type { Lane } from './lanes.ts';

export type UpstreamCall =
  | { api: 'v2'; op: 'getPlaylist'; site: string; id: string }
  | { api: 'v2'; op: 'getTypedPlaylist'; site: string; id: string; type: PlaylistType }
  | { api: 'v2'; op: 'listMedia'; site: string; params: ListParams }
  | { api: 'v2'; op: 'getMedia'; site: string; id: string }
  | { api: 'v2'; op: 'listMediaRenditions'; site: string; id: string; params: ListParams }
  | { api: 'v2'; op: 'listTextTracks'; site: string; id: string; params: ListParams }
  | { api: 'v2'; op: 'getPlayer'; site: string; id: string }
  /** For a gateway forwarding allowlisted calls: the raw answer, whatever its status. */
  | {
    api: 'v2'; op: 'raw'; method: string; path: string; query?: Array<[string, string]>; body?: unknown;
    /** Another upstream credential than the platform secret: an upload's `Bearer <upload_token>`. */
    authorization?: string;
  }
  | { api: 'geo'; op: 'lookup'; ip: string };

/** The upstream APIs the budget object keeps a bucket for. */
export type Api = UpstreamCall['api'];
export const APIS: readonly Api[] = ['v2', 'geo'];

export interface BudgetRequest {
  lane: Lane;
  /** Whose turn this is inside the lane (a hashed visitor address, a gateway key id). */
  caller: string;
  call: UpstreamCall;
  /** May take an identical read answered within the last moment instead of a new upstream call. */
  acceptRecent?: boolean;
  /** The load (a reservation from `beginLoad`) this call belongs to: it spends the reservation first. */
  load?: string;
  /** Nobody waits for the answer (a background refresh): it queues behind calls someone waits for. */
  background?: boolean;
}

/**
 * A load: several upstream calls that only together make an answer (a feed, a media with its renditions and tracks).
 * `calls` is the most it may need; the budget object reserves them at once, or queues the load whole, or refuses it.
 * `key` names the work (the cache key it fills): concurrent loads of one key join one reservation.
 */
export interface LoadRequest {
  lane: Lane;
  caller: string;
  api: UpstreamCall['api'];
  key: string;
  calls: number;
  acceptRecent?: boolean;
  background?: boolean;
}

export type LoadAdmission =
  | { ok: true; id: string; reserved: number }
  | { ok: false; failure: UpstreamFailure };

export interface RawAnswer {
  status: number;
  headers: Array<[string, string]>;
  body: string;
}

export type UpstreamFailure =
  /** No slot within the wait bound (or the upstream asked us to pause). */
  | {
    kind: 'budget';
    retryAfterSeconds: number;
    /** True while the upstream itself is down (a 503 asked for the pause): not a matter of our rate. */
    upstreamDown?: boolean;
  }
  /** The upstream answered with an error status. */
  | { kind: 'upstream'; status: number; retryAfterSeconds: number | null }
  /** Timeout, network, a redirect, a body that is not the contract's. */
  | { kind: 'transport'; reason: 'timeout' | 'network' | 'redirect' | 'invalid_response' }
  /** The API is not configured (no address or key). */
  | { kind: 'unconfigured' }
  /** The client refused a request the worker built (a list query out of the platform's bounds): never sent. */
  | { kind: 'refused_request'; argument: string };

export type BudgetResult = { ok: true; value: unknown } | { ok: false; failure: UpstreamFailure };

/** Calls that read and may therefore share one upstream request between identical concurrent callers. */
export function dedupeKey(call: UpstreamCall): string | null {
  if (call.api === 'v2' && call.op === 'raw' && call.method.toUpperCase() !== 'GET') return null;
  return JSON.stringify(call);
}
