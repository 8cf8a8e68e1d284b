/**
 * Access keys: the list (with each key's gateway calls and errors in the metrics window), a form that makes one, the
 * new key's token (and v1 secret) shown once in a panel the operator dismisses, and revocation after a confirmation.
 * The token is held only while that panel shows; dismissing it (or leaving the console) drops it.
 */
import { html, nothing, type ReactiveController } from 'lit';
import type { AccessKey, CreatedKey } from '../client.ts';
import { formatMoment } from '../format.ts';
import { totalsBy } from '../metrics.ts';
import { formatNumber } from '../../shared/format.ts';
import { aborted, errorNote, type ConsoleView } from '../view.ts';

/** `"a, b c"` → `['a', 'b', 'c']`. */
export function splitList(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

export class KeysPanel implements ReactiveController {
  keys: AccessKey[] | null = null;
  private _error: unknown = null;
  private _formError: string | null = null;
  private _created: CreatedKey | null = null;
  private _copied: string | null = null;
  private _confirming: string | null = null;
  private _busy = false;
  private _abort: AbortController | null = null;

  constructor(private readonly _view: ConsoleView) {
    _view.addController(this);
  }

  hostDisconnected(): void {
    this.reset();
  }

  /** Forgets everything (signed out), the shown token first. */
  reset(): void {
    this._abort?.abort();
    this.keys = null;
    this._created = null;
    this._copied = null;
    this._confirming = null;
    this._error = null;
    this._formError = null;
  }

  async load(): Promise<void> {
    this._abort?.abort();
    const abort = (this._abort = new AbortController());
    try {
      this.keys = await this._view.client.keys(abort.signal);
      this._error = null;
    } catch (error) {
      if (aborted(error)) return;
      this._error = error;
    } finally {
      if (this._abort === abort) this._abort = null;
      this._view.requestUpdate();
    }
  }

  private readonly _create = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    const scopes = data.getAll('scope').map(String);
    const sites = splitList(String(data.get('sites') ?? ''));
    this._formError = !name ? 'Give the key a name.' : scopes.length === 0 ? 'Choose at least one scope.'
      : sites.length === 0 ? 'Name at least one site, or * for every site.' : null;
    if (this._formError) {
      this._view.requestUpdate();
      return;
    }
    this._busy = true;
    this._view.requestUpdate();
    try {
      this._created = await this._view.client.createKey({ name, scopes, sites });
      this._copied = null;
      form.reset();
      await this.load();
      await this._view.updateComplete;
      this._view.renderRoot.querySelector<HTMLElement>('#created-title')?.focus();
    } catch (error) {
      this._error = error;
    } finally {
      this._busy = false;
      this._view.requestUpdate();
    }
  };

  private async _copy(what: string, value: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(value);
      this._copied = `${what} copied to the clipboard.`;
    } catch {
      // No clipboard permission: select the text for the operator to copy.
      const field = this._view.renderRoot.querySelector<HTMLInputElement>(`input[data-secret="${what}"]`);
      field?.select();
      this._copied = `${what} selected: copy it with your keyboard.`;
    }
    this._view.requestUpdate();
  }

  private _dismiss(): void {
    this._created = null;
    this._copied = null;
    this._view.requestUpdate();
  }

  private async _revoke(key: AccessKey): Promise<void> {
    this._busy = true;
    this._view.requestUpdate();
    try {
      await this._view.client.revokeKey(key.id);
      this._confirming = null;
      await this.load();
      await this._view.updateComplete;
      this._view.renderRoot.querySelector<HTMLElement>(`tr[data-key-id="${CSS.escape(key.id)}"] .status`)?.focus();
    } catch (error) {
      this._error = error;
    } finally {
      this._busy = false;
      this._view.requestUpdate();
    }
  }

  /** Asks to confirm revoking `key` (or, with `confirming` false, takes the question back), moving focus along. */
  private _ask(key: AccessKey, confirming: boolean): void {
    this._confirming = confirming ? key.id : null;
    this._view.requestUpdate();
    void this._view.updateComplete.then(() => {
      const row = this._view.renderRoot.querySelector(`tr[data-key-id="${CSS.escape(key.id)}"]`);
      row?.querySelector<HTMLElement>(confirming ? '.confirm .danger' : '.revoke')?.focus();
    });
  }

  render() {
    const lang = this._view.language;
    const n = (value: number) => formatNumber(value, lang);
    const metrics = this._view.metrics;
    const calls = new Map(metrics ? totalsBy(metrics, 'gateway_calls', 'key') : []);
    const errors = new Map(metrics ? totalsBy(metrics, 'gateway_errors', 'key') : []);
    const sites = Object.keys(this._view.config?.sites ?? {});
    const created = this._created;
    return html`
      <h2>Keys</h2>
      ${created ? html`
        <section class="secret" aria-labelledby="created-title" data-key-id=${created.id}>
          <h3 id="created-title" tabindex="-1">Key “${created.name}” created</h3>
          <p><strong>Copy the token now: it is shown only this once.</strong> The worker keeps only its hash.</p>
          ${this._secret('Token', 'created-token', created.key)}
          ${created.v1_secret ? this._secret('v1 secret', 'created-v1', created.v1_secret) : nothing}
          <p class="muted" role="status">${this._copied ?? ''}</p>
          <button type="button" class="dismiss" @click=${() => this._dismiss()}>Done, hide it</button>
        </section>` : nothing}
      <form class="create" @submit=${this._create} novalidate>
        <h3>New key</h3>
        <div class="fields">
          <div class="field">
            <label for="key-name">Name</label>
            <input id="key-name" name="name" autocomplete="off" maxlength="100" required>
          </div>
          <fieldset>
            <legend>Scopes</legend>
            <label><input type="checkbox" name="scope" value="read" checked> read</label>
            <label><input type="checkbox" name="scope" value="write"> write</label>
          </fieldset>
          <div class="field">
            <label for="key-sites">Sites</label>
            <input id="key-sites" name="sites" autocomplete="off" required aria-describedby="key-sites-hint"
              list="key-site-ids">
            <datalist id="key-site-ids">${['*', ...sites].map((site) => html`<option value=${site}></option>`)}</datalist>
            <span id="key-sites-hint" class="hint">Site ids, separated by commas, or * for every site.</span>
          </div>
        </div>
        ${this._formError ? html`<p class="note error" role="alert">${this._formError}</p>` : nothing}
        <button type="submit" class="primary" ?disabled=${this._busy}>Create key</button>
      </form>
      ${errorNote(this._error)}
      <h3>All keys</h3>
      ${this.keys == null ? html`<p class="muted" role="status">${this._error ? '' : 'Loading the keys…'}</p>`
        : this.keys.length === 0 ? html`<p class="muted">No keys yet.</p>` : html`
        <div class="table-wrap" role="region" aria-label="Access keys" tabindex="0">
          <table class="keys">
            <thead><tr>
              <th scope="col">Name</th><th scope="col">Id</th><th scope="col">Scopes</th><th scope="col">Sites</th>
              <th scope="col">Created</th><th scope="col">Calls</th><th scope="col">Errors</th>
              <th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th>
            </tr></thead>
            <tbody>
              ${this.keys.map((key) => html`
                <tr data-key-id=${key.id} class=${key.revoked_at ? 'revoked' : ''}>
                  <th scope="row">${key.name}</th>
                  <td><code>${key.id}</code></td>
                  <td>${key.scopes.join(', ')}</td>
                  <td>${key.sites.join(', ')}</td>
                  <td>${formatMoment(key.created_at, lang)}</td>
                  <td class="num" data-calls=${calls.get(key.id) ?? 0}>${n(calls.get(key.id) ?? 0)}</td>
                  <td class="num" data-errors=${errors.get(key.id) ?? 0}>${n(errors.get(key.id) ?? 0)}</td>
                  <td><span class="status" tabindex="-1">${key.revoked_at ? `Revoked ${formatMoment(key.revoked_at, lang)}` : 'Active'}</span></td>
                  <td>${key.revoked_at ? nothing : this._confirming === key.id ? html`
                    <span class="confirm" role="group" aria-label=${`Revoke ${key.name}?`}>
                      <span>Revoke “${key.name}”? Calls with it fail from the next request on.</span>
                      <button type="button" class="danger" ?disabled=${this._busy} @click=${() => this._revoke(key)}>Revoke</button>
                      <button type="button" @click=${() => this._ask(key, false)}>Cancel</button>
                    </span>` : html`
                    <button type="button" class="revoke" aria-label=${`Revoke ${key.name}`}
                      @click=${() => this._ask(key, true)}>Revoke…</button>`}
                  </td>
                </tr>`)}
            </tbody>
          </table>
        </div>
        <p class="muted">Calls and errors: through the gateway in the overview's window.</p>`}`;
  }

  private _secret(what: string, id: string, value: string) {
    return html`
      <div class="secret-row">
        <label for=${id}>${what}</label>
        <input id=${id} data-secret=${what} readonly .value=${value} spellcheck="false" autocomplete="off">
        <button type="button" class="copy" @click=${() => this._copy(what, value)}>Copy ${what.toLowerCase()}</button>
      </div>`;
  }
}
