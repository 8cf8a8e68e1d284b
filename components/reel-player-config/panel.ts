/**
 * The configuration panel: a player's `setup_config` in words, its own words in English, and its styles. The
 * element's lazily loaded part in the embed (panel-chunk.ts): it renders with the element's `html` and words in the
 * visitor's language, so the chunk carries no second copy of them (its styles are text in the chunk: the element makes them a stylesheet).
 */
import type { TemplateResult } from 'lit';
import type { PlayerResponse } from '../../worker/contract/public-api.ts';
import type { MessageId, Values } from '../shared/i18n/types.ts';
import { describeConfig } from '../shared/setup-config.ts';

export { configEnglish } from './en.ts';
export { panelStyles } from './panel.styles.ts';

export interface PanelHelpers {
  html: (strings: TemplateStringsArray, ...values: unknown[]) => TemplateResult;
  msg: (id: MessageId, values?: Values) => string;
  /** A number in the visitor's language. */
  format: (n: number) => string;
}

export function renderPanel({ html, msg, format }: PanelHelpers, player: PlayerResponse): TemplateResult {
  const rows = describeConfig(player.setup_config, format, msg);
  // The panel is focusable: with many options it scrolls in its fixed size, and keyboards must reach it.
  return html`
    <section class="panel" part="panel" aria-labelledby="name" tabindex="0">
      <p class="name" part="name" id="name">${player.name}</p>
      <span class="channel" part="channel">${msg('releaseChannel', { channel: player.release_channel })}</span>
      ${rows.length ? html`
        <dl part="options">
          ${rows.map((row) => html`
            <dt part="label">${row.known ? html`${row.label}<code class="key">${row.key}</code>`
              : html`<code>${row.key}</code>`}</dt>
            <dd part="value">${row.known ? row.value : html`<code part="raw">${row.value}</code>`}</dd>`)}
        </dl>` : html`<p>${msg('noOptions')}</p>`}
    </section>`;
}
