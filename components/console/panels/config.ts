/**
 * The worker's configuration as `GET /admin/config` gives it (never a secret's value): sites, geo policies, allowed
 * origins, the budget, the cache lifetimes, the feed limits and any other section, each readable without knowing its
 * every field; and the warnings banner every tab shows.
 */
import { html, nothing } from 'lit';
import type { ConfigWarning, ConsoleConfig } from '../client.ts';
import { errorNote } from '../view.ts';

/** Headlines for the warning codes the contract names; any other code shows as it is. */
const WARNING_TITLES: Record<string, string> = {
  no_playback_keys: 'No playback keys',
  dev_mode_on: 'DEV_MODE is on',
  geo_api_failing: 'The Geo API is failing',
  budget_saturated: 'The upstream budget is saturated',
};

const KNOWN = ['sites', 'policies', 'allowed_origins', 'budget', 'cache', 'feed', 'warnings'];

/** A value of any shape: lists as comma-separated text, objects as nested definition lists. */
export function valueView(value: unknown): unknown {
  if (value == null) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    return value.every((v) => v == null || typeof v !== 'object') ? value.map(String).join(', ')
      : html`<ol class="values">${value.map((v) => html`<li>${valueView(v)}</li>`)}</ol>`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return 'none';
    return html`<dl class="pairs">${entries.map(([k, v]) => html`
      <div data-field=${k}><dt>${k.replaceAll('_', ' ')}</dt><dd>${valueView(v)}</dd></div>`)}</dl>`;
  }
  return String(value);
}

export function renderWarnings(warnings: readonly ConfigWarning[]) {
  return html`
    <div class="warnings" role="alert" data-count=${warnings.length}>
      ${warnings.length ? html`
        <ul>
          ${warnings.map((w) => html`
            <li data-code=${w.code}><strong>${WARNING_TITLES[w.code] ?? w.code}.</strong> ${w.description}</li>`)}
        </ul>` : nothing}
    </div>`;
}

function section(id: string, title: string, body: unknown) {
  return html`<div class="card config-section" data-section=${id}><h3>${title}</h3>${body}</div>`;
}

export function renderConfig(config: ConsoleConfig | null, error: unknown) {
  if (!config) {
    return html`<h2>Configuration</h2>${errorNote(error)}
      ${error ? nothing : html`<p class="muted" role="status">Loading the configuration…</p>`}`;
  }
  const sites = Object.entries(config.sites ?? {});
  const policies = Object.entries(config.policies ?? {});
  const others = Object.entries(config).filter(([key]) => !KNOWN.includes(key));
  return html`
    <h2>Configuration</h2>
    ${errorNote(error)}
    <p class="muted">As the worker parsed it (wrangler.toml's REELGATE_CONFIG and the defaults). Secrets are named, never shown.</p>
    ${section('sites', `Sites (${sites.length})`, sites.length === 0 ? html`<p>None.</p>` : html`
      <div class="entries">${sites.map(([id, site]) => html`
        <div class="entry" data-site=${id}><h4><code>${id}</code></h4>
          ${Object.keys(site ?? {}).length ? valueView(site) : html`<p class="muted">No settings of its own.</p>`}</div>`)}</div>`)}
    ${section('policies', `Geo policies (${policies.length})`, policies.length === 0 ? html`<p>None.</p>` : html`
      <div class="entries">${policies.map(([name, policy]) => html`
        <div class="entry" data-policy=${name}><h4>${name}</h4>${valueView(policy)}</div>`)}</div>`)}
    ${section('allowed_origins', 'Allowed origins', (config.allowed_origins ?? []).length === 0
      ? html`<p>None: only the worker's own pages call the API.</p>`
      : html`<ul class="origins">${config.allowed_origins.map((o) => html`<li><code>${o}</code></li>`)}</ul>`)}
    ${section('budget', 'Upstream budget', valueView(config.budget))}
    ${config.cache ? section('cache', 'Cache lifetimes', valueView(config.cache)) : nothing}
    ${config.feed ? section('feed', 'Feeds', valueView(config.feed)) : nothing}
    ${others.map(([key, value]) => section(key, key.replaceAll('_', ' '), valueView(value)))}`;
}
