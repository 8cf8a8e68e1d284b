/** Purge: drop a site's cached answers, or one playlist's, media's or player's, and list the cache keys removed. */
import { html, nothing } from 'lit';
import type { PurgeResult, PurgeScope } from '../client.ts';
import { formatNumber } from '../../shared/format.ts';
import { errorNote, type ConsoleView } from '../view.ts';

const SCOPES: Array<{ scope: PurgeScope; label: string }> = [
  { scope: 'site', label: 'Everything of the site' },
  { scope: 'playlist', label: 'A playlist' },
  { scope: 'media', label: 'A media' },
  { scope: 'player', label: 'A player' },
];

export class PurgePanel {
  private _scope: PurgeScope = 'site';
  private _result: PurgeResult | null = null;
  private _error: unknown = null;
  private _formError: string | null = null;
  private _busy = false;

  constructor(private readonly _view: ConsoleView) {}

  reset(): void {
    this._scope = 'site';
    this._result = null;
    this._error = null;
    this._formError = null;
  }

  private readonly _purge = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const site = String(data.get('site') ?? '');
    const id = String(data.get('id') ?? '').trim();
    this._formError = !site ? 'Choose a site.' : this._scope !== 'site' && !id ? `Give the ${this._scope}’s id.` : null;
    if (this._formError) {
      this._view.requestUpdate();
      return;
    }
    this._busy = true;
    this._view.requestUpdate();
    try {
      this._result = await this._view.client.purge(site, this._scope, this._scope === 'site' ? null : id);
      this._error = null;
    } catch (error) {
      this._error = error;
    } finally {
      this._busy = false;
      this._view.requestUpdate();
    }
  };

  render() {
    const sites = Object.keys(this._view.config?.sites ?? {});
    const result = this._result;
    const n = (value: number) => formatNumber(value, this._view.language);
    return html`
      <h2>Purge</h2>
      <p class="muted">Removes cached public answers so the next request asks the platform again (through the budget).</p>
      <form class="purge" @submit=${this._purge} novalidate>
        <div class="fields">
          <div class="field">
            <label for="purge-site">Site</label>
            <select id="purge-site" name="site" required>
              ${sites.length === 0 ? html`<option value="">No sites configured</option>` : nothing}
              ${sites.map((site) => html`<option value=${site}>${site}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="purge-scope">What</label>
            <select id="purge-scope" name="scope"
              @change=${(e: Event) => { this._scope = (e.target as HTMLSelectElement).value as PurgeScope; this._view.requestUpdate(); }}>
              ${SCOPES.map(({ scope, label }) => html`<option value=${scope} ?selected=${scope === this._scope}>${label}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="purge-id">Id</label>
            <input id="purge-id" name="id" autocomplete="off" spellcheck="false" ?disabled=${this._scope === 'site'}
              ?required=${this._scope !== 'site'}>
          </div>
        </div>
        ${this._formError ? html`<p class="note error" role="alert">${this._formError}</p>` : nothing}
        <button type="submit" class="primary" ?disabled=${this._busy}>Purge</button>
      </form>
      ${errorNote(this._error)}
      <div role="status">
        ${result ? html`
          <div class="result" data-removed=${result.removed.length}>
            <h3>${result.scope === 'site' ? `Site ${result.site}` : `${result.scope} ${result.id} of ${result.site}`}:
              ${result.removed.length === 0 ? 'nothing was cached' : `${n(result.removed.length)} cache ${
                result.removed.length === 1 ? 'key' : 'keys'} removed`}</h3>
            ${result.removed.length ? html`
              <ul class="removed">${result.removed.map((key) => html`<li><code>${key}</code></li>`)}</ul>` : nothing}
          </div>` : nothing}
      </div>`;
  }
}
