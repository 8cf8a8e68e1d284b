import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { tokens } from '../shared/theme.ts';
import { pageLang } from '../shared/format.ts';
import { AdminClient, AdminError, type ConsoleConfig, type Metrics, type Session } from './client.ts';
import { formatMoment } from './format.ts';
import { Poll } from './poll.ts';
import { AuditPanel } from './panels/audit.ts';
import { renderConfig, renderWarnings } from './panels/config.ts';
import { KeysPanel } from './panels/keys.ts';
import { renderOverview, WINDOWS } from './panels/overview.ts';
import { PurgePanel } from './panels/purge.ts';
import { consoleStyles } from './reel-console.styles.ts';
import { aborted, expired, failure, type ConsoleView } from './view.ts';

export type ConsoleState = 'loading' | 'signed-out' | 'signed-in';
export type ConsoleTab = 'overview' | 'keys' | 'audit' | 'purge' | 'config';

const TABS: Array<{ id: ConsoleTab; label: string }> = [
  { id: 'overview', label: 'Overview' },
  { id: 'keys', label: 'Keys' },
  { id: 'audit', label: 'Audit' },
  { id: 'purge', label: 'Purge' },
  { id: 'config', label: 'Configuration' },
];

type Notice = { text: string; kind: 'error' | 'info' } | null;

/**
 * The operator console, served by the worker at `/admin/`: sign in with the admin token (a session cookie holds the
 * sign-in; the token itself is kept nowhere), then watch what the worker does, refreshed every few seconds while the
 * tab is visible (Overview), manage the gateway's access keys (Keys), read the audit trail (Audit), purge cached
 * answers (Purge) and read the configuration (Configuration). The configuration's warnings show above every tab.
 * A 401 on any call ends the session: the console returns to the sign-in form and says so.
 *
 * @tag reel-console
 * @summary The worker's operator console.
 */
export class ReelConsole extends LitElement implements ConsoleView {
  static override styles = [tokens, consoleStyles];
  static override properties: PropertyDeclarations = {
    endpoint: {},
    refresh: { type: Number },
    state: { reflect: true },
    tab: { reflect: true },
    minutes: { type: Number },
    _notice: { state: true, attribute: false },
    _busy: { state: true, attribute: false },
    _session: { state: true, attribute: false },
    _config: { state: true, attribute: false },
    _metrics: { state: true, attribute: false },
  };

  /** The /admin API (default `/admin`, on the origin that served the console). */
  endpoint = '/admin';
  /** Seconds between refreshes while the tab is visible (default 5; 0: none). */
  refresh = 5;
  /** `loading` (resuming a session), `signed-out` or `signed-in`. Read-only. */
  state: ConsoleState = 'loading';
  tab: ConsoleTab = 'overview';
  /** The metrics window in minutes: 60, 360 or 1440. */
  minutes = 60;

  private _notice: Notice = null;
  private _busy = false;
  private _session: Session | null = null;
  private _config: ConsoleConfig | null = null;
  private _configError: unknown = null;
  private _metrics: Metrics | null = null;
  private _metricsError: unknown = null;
  private _metricsAbort: AbortController | null = null;
  private _configAbort: AbortController | null = null;
  private _client: AdminClient | null = null;
  private _clientFor = '';

  private readonly _keys = new KeysPanel(this);
  private readonly _audit = new AuditPanel(this);
  private readonly _purge = new PurgePanel(this);
  private readonly _poll = new Poll(this, {
    interval: () => Math.max(0, Number(this.refresh) || 0) * 1000,
    active: () => this.state === 'signed-in',
    refresh: () => this._refreshAll(),
  });

  get client(): AdminClient {
    if (!this._client || this._clientFor !== this.endpoint) {
      this._clientFor = this.endpoint;
      this._client = new AdminClient(this.endpoint, (code) => this._expired(code));
    }
    return this._client;
  }

  get config(): ConsoleConfig | null {
    return this._config;
  }

  get metrics(): Metrics | null {
    return this._metrics;
  }

  get language(): string {
    return pageLang(this);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.state === 'loading') void this._resume();
    else if (this.state === 'signed-in') this._poll.restart();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.state !== 'signed-in') return;
    if (changed.has('tab') && this.tab === 'audit') this._audit.open();
    if ((changed.has('tab') && changed.get('tab') !== undefined) || (changed.has('minutes') && changed.get('minutes') !== undefined)) {
      this._poll.restart();
    }
  }

  /** The session the browser's cookie still holds, if any. */
  private async _resume(): Promise<void> {
    try {
      const { session, code } = await this.client.resume();
      if (session) this._signedIn(session);
      else {
        this.state = 'signed-out';
        if (code === 'session_expired') this._notice = { text: 'Your session has expired. Sign in again.', kind: 'info' };
      }
    } catch (error) {
      this.state = 'signed-out';
      this._notice = { text: `The session could not be checked: ${failure(error)}`, kind: 'error' };
    }
  }

  private _signedIn(session: Session): void {
    this._session = session;
    this._notice = null;
    this.state = 'signed-in';
    if (this.tab === 'audit') this._audit.open();
    this._poll.restart();
  }

  /** Everything signed in is dropped: data, the shown key, the session's CSRF value. */
  private _forget(): void {
    this._poll.stop();
    this._metricsAbort?.abort();
    this._configAbort?.abort();
    this._session = null;
    this._config = null;
    this._configError = null;
    this._metrics = null;
    this._metricsError = null;
    this._keys.reset();
    this._audit.reset();
    this._purge.reset();
  }

  private _expired(code: string): void {
    if (this.state !== 'signed-in') return;
    this._forget();
    this.state = 'signed-out';
    this._notice = {
      text: code === 'session_expired' || code === 'unauthorized' ? 'Your session has expired. Sign in again.'
        : `You were signed out (${code}). Sign in again.`,
      kind: 'info',
    };
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('#token')?.focus());
  }

  private readonly _signIn = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const field = form.elements.namedItem('token') as HTMLInputElement;
    if (!field.value) {
      this._notice = { text: 'Enter the admin token.', kind: 'error' };
      field.focus();
      return;
    }
    this._busy = true;
    try {
      // Read from the field and handed straight to the request: not kept, not logged.
      const session = await this.client.signIn(field.value);
      field.value = '';
      this._signedIn(session);
    } catch (error) {
      field.value = '';
      this._notice = {
        text: error instanceof AdminError && error.status === 401 ? 'That admin token was not accepted.' : failure(error),
        kind: 'error',
      };
      field.focus();
    } finally {
      this._busy = false;
    }
  };

  private async _signOut(): Promise<void> {
    this._busy = true;
    try {
      await this.client.signOut();
      this._notice = { text: 'Signed out.', kind: 'info' };
    } catch (error) {
      this._notice = expired(error) ? { text: 'Signed out.', kind: 'info' }
        : { text: `The worker could not end the session: ${failure(error)}`, kind: 'error' };
    } finally {
      this._busy = false;
      this._forget();
      this.state = 'signed-out';
    }
  }

  private async _refreshAll(): Promise<void> {
    const jobs: Array<Promise<void>> = [this._loadConfig()];
    if (this.tab === 'overview' || this.tab === 'keys') jobs.push(this._loadMetrics());
    if (this.tab === 'keys') jobs.push(this._keys.load());
    await Promise.all(jobs);
  }

  private async _loadConfig(): Promise<void> {
    this._configAbort?.abort();
    const abort = (this._configAbort = new AbortController());
    try {
      this._config = await this.client.config(abort.signal);
      this._configError = null;
    } catch (error) {
      if (!aborted(error)) this._configError = error;
    } finally {
      if (this._configAbort === abort) this._configAbort = null;
      this.requestUpdate();
    }
  }

  private async _loadMetrics(): Promise<void> {
    this._metricsAbort?.abort();
    const abort = (this._metricsAbort = new AbortController());
    const minutes = this.minutes;
    try {
      const metrics = await this.client.metrics(minutes, abort.signal);
      if (minutes === this.minutes) this._metrics = metrics;
      this._metricsError = null;
    } catch (error) {
      if (!aborted(error)) this._metricsError = error;
    } finally {
      if (this._metricsAbort === abort) this._metricsAbort = null;
      this.requestUpdate();
    }
  }

  private _choose(tab: ConsoleTab, focus = false): void {
    this.tab = tab;
    if (focus) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#tab-${tab}`)?.focus());
  }

  private readonly _onTabKey = (event: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === this.tab);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this._choose(TABS[(to + TABS.length) % TABS.length]!.id, true);
  };

  private _window(minutes: number): void {
    if (!WINDOWS.some((w) => w.minutes === minutes)) return;
    this._metrics = null;
    this.minutes = minutes;
  }

  protected override render() {
    const signedIn = this.state === 'signed-in';
    return html`
      <header class="top">
        <h1>reelgate console</h1>
        ${signedIn && this._session ? html`
          <div class="session">
            <span class="muted">Session until ${formatMoment(this._session.expires_at, this.language)}</span>
            <button type="button" class="sign-out" ?disabled=${this._busy} @click=${() => this._signOut()}>Sign out</button>
          </div>` : nothing}
      </header>
      ${signedIn ? this._signedInView() : this._signInView()}`;
  }

  private _signInView() {
    return html`
      <main class="sign-in">
        <h2>Sign in</h2>
        ${this.state === 'loading' ? html`<p class="muted" role="status">Checking for a session…</p>` : html`
          <div role="alert" class="notice-slot">
            ${this._notice ? html`<p class="note ${this._notice.kind}" data-kind=${this._notice.kind}>${this._notice.text}</p>`
              : nothing}
          </div>
          <form method="post" @submit=${this._signIn} novalidate>
            <label for="token">Admin token</label>
            <input id="token" name="token" type="password" autocomplete="current-password" spellcheck="false" required
              aria-describedby="token-hint">
            <p id="token-hint" class="hint">The worker's ADMIN_TOKEN secret. The session lasts 30 minutes.</p>
            <button type="submit" class="primary" ?disabled=${this._busy}>Sign in</button>
          </form>`}
      </main>`;
  }

  private _signedInView() {
    return html`
      <nav aria-label="Console">
        <div role="tablist" aria-label="Console sections" @keydown=${this._onTabKey}>
          ${TABS.map((t) => html`
            <button type="button" role="tab" id=${`tab-${t.id}`} aria-controls="panel"
              aria-selected=${t.id === this.tab ? 'true' : 'false'} tabindex=${t.id === this.tab ? '0' : '-1'}
              @click=${() => this._choose(t.id)}>${t.label}</button>`)}
        </div>
      </nav>
      <main>
        ${renderWarnings(this._config?.warnings ?? [])}
        <section id="panel" role="tabpanel" aria-labelledby=${`tab-${this.tab}`} data-tab=${this.tab}>
          ${this._panel()}
        </section>
      </main>`;
  }

  private _panel() {
    switch (this.tab) {
      case 'keys': return this._keys.render();
      case 'audit': return this._audit.render();
      case 'purge': return this._purge.render();
      case 'config': return renderConfig(this._config, this._configError);
      default: return renderOverview(this, { error: this._metricsError, onWindow: (minutes) => this._window(minutes) });
    }
  }
}
