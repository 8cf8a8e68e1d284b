/**
 * The operator console's one way to the worker's /admin API (/work/notes/console-contract.md): the signed
 * session cookie does the authenticating (the browser sends it; the page never sees it), and the CSRF value the
 * session answers with is kept here, in memory only, and sent on every call that is not a GET. The admin token passes
 * through `signIn` once and is kept nowhere: not here, not in storage, not in a URL, never logged.
 */
import type { AccessKey, AuditPage, ConfigWarning, MetricsView } from '../../worker/contract/admin-api.ts';

export type { AccessKey, AuditPage, ConfigWarning, MetricSeries } from '../../worker/contract/admin-api.ts';

/** `POST /admin/session` and `GET /admin/session`. */
export interface Session {
  expires_at: string;
  csrf: string;
}

/** `POST /admin/keys`: the key and, shown this once, its token (and v1 secret when v1 signing is on). */
export interface CreatedKey extends AccessKey {
  key: string;
  v1_secret?: string;
}

/** What `GET /admin/audit` may be narrowed by (empty values are left out of the query). */
export interface AuditFilters {
  key_id?: string;
  site?: string;
  status?: string;
  since?: string;
  until?: string;
}

export type PurgeScope = 'site' | 'playlist' | 'media' | 'player';

export interface PurgeResult {
  site: string;
  scope: PurgeScope;
  id: string | null;
  removed: string[];
}

/** `GET /admin/config`: the worker's configuration as parsed, never a secret's value. */
export interface ConsoleConfig {
  sites: Record<string, Record<string, unknown>>;
  policies: Record<string, unknown>;
  allowed_origins: string[];
  budget: Record<string, unknown>;
  cache?: Record<string, unknown>;
  feed?: Record<string, unknown>;
  warnings: ConfigWarning[];
  [section: string]: unknown;
}

/** `GET /admin/metrics?minutes=N`. */
export type Metrics = MetricsView;

/** A refusal from /admin, in its v2 error body's terms. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds, from `Retry-After` (a 429). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'AdminError';
  }
}

interface Call {
  query?: Record<string, string | number | null | undefined>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

export class AdminClient {
  private _csrf: string | null = null;

  /**
   * @param base The /admin API's path or URL (the console is served by the worker it administers: `/admin`).
   * @param onExpired Called when a signed-in call is answered 401: the session is over (expired or signed out
   *   elsewhere), with the answer's code (`session_expired` or `unauthorized`).
   */
  constructor(private readonly _base: string, private readonly _onExpired: (code: string) => void) {}

  /** Whether a session is held (the CSRF value from its answer). */
  get signedIn(): boolean {
    return this._csrf !== null;
  }

  /** The session the browser's cookie still holds, or null (no cookie, or an expired one: `error` says which). */
  async resume(): Promise<{ session: Session | null; code: string | null }> {
    try {
      const session = await this._call<Session>('GET', '/session', {}, false);
      this._csrf = session.csrf;
      return { session, code: null };
    } catch (error) {
      if (error instanceof AdminError && error.status === 401) return { session: null, code: error.code };
      throw error;
    }
  }

  /** Signs in with the admin token: a 401 (`unauthorized`) or 429 (`rate_limited`) is thrown as an AdminError. */
  async signIn(token: string): Promise<Session> {
    const session = await this._call<Session>('POST', '/session', { body: { token } }, false);
    this._csrf = session.csrf;
    return session;
  }

  async signOut(): Promise<void> {
    try {
      await this._call<null>('DELETE', '/session', {}, false);
    } finally {
      this._csrf = null;
    }
  }

  /** Forgets the session (the cookie is the server's to clear). */
  forget(): void {
    this._csrf = null;
  }

  async metrics(minutes: number, signal?: AbortSignal): Promise<Metrics> {
    const metrics = await this._call<Metrics>('GET', '/metrics', { query: { minutes }, signal });
    return { ...metrics, series: Array.isArray(metrics?.series) ? metrics.series : [] };
  }

  async config(signal?: AbortSignal): Promise<ConsoleConfig> {
    const config = await this._call<ConsoleConfig>('GET', '/config', { signal });
    return { ...config, sites: config?.sites ?? {}, warnings: Array.isArray(config?.warnings) ? config.warnings : [] };
  }

  async keys(signal?: AbortSignal): Promise<AccessKey[]> {
    const answer = await this._call<{ keys?: AccessKey[] } | null>('GET', '/keys', { signal });
    return Array.isArray(answer?.keys) ? answer.keys : [];
  }

  createKey(key: { name: string; scopes: string[]; sites: string[] }): Promise<CreatedKey> {
    return this._call('POST', '/keys', { body: key });
  }

  revokeKey(id: string): Promise<AccessKey> {
    return this._call('DELETE', `/keys/${encodeURIComponent(id)}`, {});
  }

  async audit(filters: AuditFilters, cursor: string | null, limit = 50, signal?: AbortSignal): Promise<AuditPage> {
    const page = await this._call<Partial<AuditPage> | null>('GET', '/audit', { query: { limit, cursor, ...filters }, signal });
    return { entries: Array.isArray(page?.entries) ? page.entries : [], next_cursor: page?.next_cursor ?? null };
  }

  async purge(site: string, scope: PurgeScope, id: string | null): Promise<PurgeResult> {
    const result = await this._call<PurgeResult>('POST', '/purge', { body: scope === 'site' || !id ? { site } : { site, [scope]: id } });
    return { ...result, removed: Array.isArray(result?.removed) ? result.removed : [] };
  }

  private async _call<T>(method: string, path: string, { query, body, signal }: Call, session = true): Promise<T> {
    let url = `${this._base.replace(/\/+$/, '')}${path}`;
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value != null && value !== '') params.set(name, String(value));
    }
    if ([...params].length) url += `?${params}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && method !== 'HEAD' && this._csrf) headers['x-reelgate-csrf'] = this._csrf;
    let response: Response;
    try {
      response = await fetch(url, {
        method, headers, signal: signal ?? null, credentials: 'same-origin', cache: 'no-store',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new AdminError(0, 'unreachable', 'The worker could not be reached. Check the connection.');
    }
    if (response.status === 204) return null as T;
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: described by its status below.
    }
    if (response.ok) return parsed as T;
    const first = (parsed as { errors?: Array<{ code?: string; description?: string }> } | null)?.errors?.[0];
    const code = first?.code ?? `http_${response.status}`;
    const retry = Number(response.headers.get('retry-after'));
    const error = new AdminError(response.status, code, first?.description ?? `The worker answered ${response.status}.`,
      Number.isFinite(retry) && retry > 0 ? retry : null);
    if (response.status === 401 && session) {
      this._csrf = null;
      this._onExpired(code);
    }
    throw error;
  }
}
