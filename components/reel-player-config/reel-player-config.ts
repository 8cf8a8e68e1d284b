import { adoptStyles, html, type PropertyDeclarations, unsafeCSS } from 'lit';
import type { PlayerResponse } from '../../worker/contract/public-api.ts';
import { fetchPlayer } from '../shared/api.ts';
import { formatNumber } from '../shared/format.ts';
import { lazyPart, localeOf, msg } from '../shared/i18n/localize.ts';
import { IDLE, Load } from '../shared/load.ts';
import { ReelElement } from '../shared/reel-element.ts';
import { tokens } from '../shared/theme.ts';
import { loadPanel, panelStyles } from './panel-chunk.ts';
import { playerConfigStyles } from './reel-player-config.styles.ts';

export type PlayerConfigState = 'idle' | 'loading' | 'error' | 'complete';

/** The panel (the words of a player's configuration), once loaded, or on its way. */
const usePanel = lazyPart(loadPanel, (panel) => panel.configEnglish);

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
export class ReelPlayerConfig extends ReelElement {
  static override styles = [tokens, playerConfigStyles, ...panelStyles];
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


  private _styled = false;

  private readonly _player = new Load(this, {
    args: () => [this.endpoint, this.site, this.player] as const,
    // The answer comes with the panel's chunk (in the embed; in the library the panel is there at once), so that
    // `state="complete"` always shows the panel, never its skeleton: data the page gave waits for it too.
    task: async ([endpoint, site, player], signal) => {
      // The page's data is for the first load only: a later `player` is asked for.
      const given = !this.hasUpdated && this.data;
      await usePanel();
      return site && player ? given || fetchPlayer(endpoint, site, player, signal) : IDLE;
    },
    given: () => (usePanel() instanceof Promise ? null : this.data),
  });

  protected override willUpdate(): void {
    this.state = this._player.state(!!(this.site && this.player));
  }

  protected override render() {
    const loading = () => html`
        <div class="panel" part="panel" aria-busy="true">
          <span class="visually-hidden" role="status">${msg(this, 'loadingSettings')}</span>
          ${[1, 2, 3, 4].map((n) => html`<div class="skeleton line line-${n}" aria-hidden="true"></div>`)}
        </div>`;
    return this._player.render({
      loading,
      // A panel that could not load (offline) leaves its skeleton, as for a configuration still on its way.
      complete: (player) => {
        const panel = usePanel();
        const lang = localeOf(this);
        if (panel instanceof Promise) return loading();
        // In the embed, the panel's styles came with it (as text): added to this element's, once.
        if (!panelStyles.length && !this._styled) {
          this._styled = true;
          adoptStyles(this.renderRoot as ShadowRoot, [...ReelPlayerConfig.elementStyles, unsafeCSS(panel.panelStyles)]);
        }
        return panel.renderPanel({
          html, msg: (id, values) => msg(this, id, values), format: (n) => formatNumber(n, lang, { maximumFractionDigits: 2 }),
        }, player);
      },
    });
  }
}
