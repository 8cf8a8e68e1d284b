import { html, LitElement, type PropertyDeclarations } from 'lit';
import type { PlayerResponse } from '../../worker/contract/public-api.ts';
import { fetchPlayer } from '../shared/api.ts';
import { formatNumber, pageLang } from '../shared/format.ts';
import { IDLE, Load } from '../shared/load.ts';
import { describeConfig } from '../shared/setup-config.ts';
import { tokens } from '../shared/theme.ts';
import { playerConfigStyles } from './reel-player-config.styles.ts';

export type PlayerConfigState = 'idle' | 'loading' | 'error' | 'complete';

/**
 * A readable view of a player configuration: its name, release channel, and each `setup_config` option, with a
 * plain-language label and value for the options reelgate understands and the raw value for the rest.
 *
 * It keeps one block size from its first paint (`--reel-player-config-block-size`, default `20rem`) for the loading
 * skeleton, the panel and an error alike, and scrolls a panel with more options than fit, so nothing under it moves
 * when the configuration arrives. Set the property to `auto` to size it to its content instead (the page then moves).
 *
 * @tag reel-player-config
 * @summary A player configuration panel.
 *
 * @event {ReelErrorEvent} reel-error - Loading failed. `event.status`, `event.code`, `event.description`.
 *
 * @cssproperty --reel-player-config-block-size - Its block size while loading or shown (default `20rem`).
 *
 * @csspart panel - The outer box.
 * @csspart name - The player's name.
 * @csspart channel - The release channel badge.
 * @csspart options - The `<dl>` of options.
 * @csspart label - Each option's name (`<dt>`).
 * @csspart value - Each option's value (`<dd>`).
 * @csspart raw - The raw JSON value of an option reelgate does not know.
 * @csspart error - The error box.
 * @csspart retry - Its "Try again" button.
 *
 * @cssproperty --reel-font-mono - Font of option keys and raw values.
 * @cssproperty --reel-font - Font family.
 * @cssproperty --reel-color-text - Text colour.
 * @cssproperty --reel-color-muted - Label colour.
 * @cssproperty --reel-color-surface - Panel background.
 * @cssproperty --reel-color-surface-raised - Badge background.
 * @cssproperty --reel-color-border - Borders.
 * @cssproperty --reel-radius - Corner radius.
 * @cssproperty --reel-gap - Padding and spacing.
 */
export class ReelPlayerConfig extends LitElement {
  static override styles = [tokens, playerConfigStyles];
  static override properties: PropertyDeclarations = {
    site: {},
    player: {},
    endpoint: {},
    state: { reflect: true },
    data: { type: Object },
  };

  /** The site id. */
  site = '';
  /** The player id. */
  player = '';
  /** Another worker to ask (default: the origin the bundle was loaded from). */
  endpoint: string | null = null;
  /** `idle`, `loading`, `error` or `complete`. Read-only. */
  state: PlayerConfigState = 'idle';
  /**
   * The player configuration's answer when the page has it already (fetched on its server, e.g. by
   * `reelgate/server`): shown at once, with no request, by a server-side render and by the browser's first render
   * alike. The `data` attribute takes it as JSON. Read at the first load only; a later `player` loads as usual.
   */
  data?: PlayerResponse | null;

  private readonly _player = new Load(this, {
    args: () => [this.endpoint, this.site, this.player] as const,
    task: ([endpoint, site, player], signal) => (site && player ? fetchPlayer(endpoint, site, player, signal) : IDLE),
    given: () => this.data,
  });

  protected override willUpdate(): void {
    this.state = this._player.state(!!(this.site && this.player));
  }

  protected override render() {
    return this._player.render({
      loading: () => html`
        <div class="panel" part="panel" aria-busy="true">
          <span class="visually-hidden" role="status">Loading player settings…</span>
          ${[1, 2, 3, 4].map((n) => html`<div class="skeleton line line-${n}" aria-hidden="true"></div>`)}
        </div>`,
      complete: (player) => {
        const lang = pageLang(this);
        // The panel is focusable: with many options it scrolls in its fixed size, and keyboards must reach it.
        const rows = describeConfig(player.setup_config, (n) => formatNumber(n, lang, { maximumFractionDigits: 2 }));
        return html`
          <section class="panel" part="panel" aria-labelledby="name" tabindex="0">
            <p class="name" part="name" id="name">${player.name}</p>
            <span class="channel" part="channel">Release channel: ${player.release_channel}</span>
            ${rows.length ? html`
              <dl part="options">
                ${rows.map((row) => html`
                  <dt part="label">${row.known ? html`${row.label}<code class="key">${row.key}</code>`
                    : html`<code>${row.key}</code>`}</dt>
                  <dd part="value">${row.known ? row.value : html`<code part="raw">${row.value}</code>`}</dd>`)}
              </dl>` : html`<p>No options set: the player uses its defaults.</p>`}
          </section>`;
      },
    });
  }
}
