/**
 * The gateway's audit trail, newest first: filters (key, site, exact status or class, a time range) and paging by the
 * answer's `next_cursor` ("Older"; "Newer" goes back through the cursors already followed).
 */
import { html, nothing, type ReactiveController } from 'lit';
import type { AuditFilters, AuditPage } from '../client.ts';
import { formatMoment, localToIso } from '../format.ts';
import { aborted, errorNote, type ConsoleView } from '../view.ts';

export const AUDIT_PAGE = 50;
const STATUS = /^(?:[1-5]\d\d|[1-5]xx)$/;

export class AuditPanel implements ReactiveController {
  private _page: AuditPage | null = null;
  private _filters: AuditFilters = {};
  /** The cursor of each page shown before the current one (null: the newest page), and the current one's. */
  private _cursors: Array<string | null> = [];
  private _cursor: string | null = null;
  private _error: unknown = null;
  private _formError: string | null = null;
  private _loading = false;
  private _abort: AbortController | null = null;
  private _opened = false;

  constructor(private readonly _view: ConsoleView) {
    _view.addController(this);
  }

  hostDisconnected(): void {
    this._abort?.abort();
  }

  reset(): void {
    this._abort?.abort();
    this._page = null;
    this._filters = {};
    this._cursors = [];
    this._cursor = null;
    this._error = null;
    this._formError = null;
    this._opened = false;
  }

  /** The first time the tab opens: the newest entries. */
  open(): void {
    if (this._opened) return;
    this._opened = true;
    void this._load(null);
  }

  private async _load(cursor: string | null): Promise<void> {
    this._abort?.abort();
    const abort = (this._abort = new AbortController());
    this._loading = true;
    this._view.requestUpdate();
    try {
      this._page = await this._view.client.audit(this._filters, cursor, AUDIT_PAGE, abort.signal);
      this._cursor = cursor;
      this._error = null;
    } catch (error) {
      if (aborted(error)) return;
      this._error = error;
    } finally {
      if (this._abort === abort) {
        this._abort = null;
        this._loading = false;
      }
      this._view.requestUpdate();
    }
  }

  private readonly _apply = (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const status = text('status').toLowerCase();
    const since = localToIso(text('since'));
    const until = localToIso(text('until'));
    this._formError = status && !STATUS.test(status) ? 'Status: an exact status such as 201, or a class such as 4xx.'
      : since && until && since >= until ? '“From” must be before “until”.' : null;
    if (this._formError) {
      this._view.requestUpdate();
      return;
    }
    this._filters = Object.fromEntries(Object.entries({
      key_id: text('key_id'), site: text('site'), status, since, until,
    }).filter(([, value]) => value)) as AuditFilters;
    this._cursors = [];
    void this._load(null);
  };

  private _older(): void {
    if (!this._page?.next_cursor) return;
    this._cursors.push(this._cursor);
    void this._load(this._page.next_cursor);
  }

  private _newer(): void {
    if (this._cursors.length === 0) return;
    void this._load(this._cursors.pop() ?? null);
  }

  render() {
    const lang = this._view.language;
    const sites = Object.keys(this._view.config?.sites ?? {});
    const page = this._page;
    return html`
      <h2>Audit</h2>
      <form class="filters" @submit=${this._apply} novalidate>
        <div class="fields">
          <div class="field">
            <label for="audit-key">Key id</label>
            <input id="audit-key" name="key_id" autocomplete="off" spellcheck="false">
          </div>
          <div class="field">
            <label for="audit-site">Site</label>
            <select id="audit-site" name="site">
              <option value="">Any site</option>
              ${sites.map((site) => html`<option value=${site}>${site}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="audit-status">Status</label>
            <input id="audit-status" name="status" autocomplete="off" size="6" aria-describedby="audit-status-hint">
            <span id="audit-status-hint" class="hint">201, or 4xx</span>
          </div>
          <div class="field">
            <label for="audit-since">From</label>
            <input id="audit-since" name="since" type="datetime-local" step="1">
          </div>
          <div class="field">
            <label for="audit-until">Until</label>
            <input id="audit-until" name="until" type="datetime-local" step="1">
          </div>
        </div>
        ${this._formError ? html`<p class="note error" role="alert">${this._formError}</p>` : nothing}
        <button type="submit" class="primary">Apply</button>
      </form>
      ${errorNote(this._error)}
      ${page == null ? html`<p class="muted" role="status">${this._loading ? 'Loading the audit trail…' : ''}</p>` : html`
        <p class="muted" role="status" data-count=${page.entries.length}>
          ${this._loading ? 'Loading…' : page.entries.length === 0 ? 'No entries match.'
            : `${page.entries.length} ${page.entries.length === 1 ? 'entry' : 'entries'}, newest first${
              this._cursors.length ? ` (page ${this._cursors.length + 1})` : ''}.`}
        </p>
        ${page.entries.length ? html`
          <div class="table-wrap" role="region" aria-label="Audit entries" tabindex="0">
            <table class="audit">
              <thead><tr>
                <th scope="col">Time</th><th scope="col">Key</th><th scope="col">Method</th><th scope="col">Route</th>
                <th scope="col">Path</th><th scope="col">Site</th><th scope="col">Status</th>
                <th scope="col">Idempotency key</th><th scope="col">Replayed</th>
              </tr></thead>
              <tbody>
                ${page.entries.map((e) => html`
                  <tr data-id=${e.id}>
                    <td>${formatMoment(e.at, lang)}</td><td><code>${e.key_id}</code></td><td>${e.method}</td>
                    <td>${e.route}</td><td class="path">${e.path}</td><td>${e.site ?? '—'}</td>
                    <td class="num status-${String(e.status).charAt(0)}xx">${e.status}</td>
                    <td>${e.idempotency_key ?? '—'}</td><td>${e.replayed ? 'yes' : 'no'}</td>
                  </tr>`)}
              </tbody>
            </table>
          </div>` : nothing}
        <div class="pager">
          <button type="button" class="newer" ?disabled=${this._loading || this._cursors.length === 0}
            @click=${() => this._newer()}>Newer</button>
          <button type="button" class="older" ?disabled=${this._loading || !page.next_cursor}
            @click=${() => this._older()}>Older</button>
        </div>`}`;
  }
}
