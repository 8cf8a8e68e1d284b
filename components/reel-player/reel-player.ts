import { html, type PropertyDeclarations, nothing, type PropertyValues } from 'lit';
import type { MediaResponse, PlayerResponse } from '../../worker/contract/public-api.ts';
import { fetchMedia, fetchPlayer, isPlaybackUrl, mediaUrl } from '../shared/api.ts';
import { addEnglish, msg, parts } from '../shared/i18n/localize.ts';
import { Link } from '../shared/link.ts';
import { IDLE, Load, reportError } from '../shared/load.ts';
import { Observer } from '../shared/observer.ts';
import { aspectRatio, playerOptions, type PlayerOptions } from '../shared/setup-config.ts';
import { ReelElement } from '../shared/reel-element.ts';
import { tokens } from '../shared/theme.ts';
import { loadKit } from './chunks.ts';
import type { PlayerKit } from './kit/player-kit.ts';
import type { Lit, PlaylistLike } from './kit/host.ts';
import { browserSupport, isHls, pickPlayback, type Pick, type PlaybackEngine } from './pick-source.ts';
import { playerStyles } from './reel-player.styles.ts';

export type PlayerState = 'idle' | 'loading' | 'error' | 'complete';

/**
 * Plays one media item in a native `<video>`, set up by a player configuration's `setup_config` (aspect ratio,
 * autostart, repeat, preload, stretching, speed menu, title and description). HLS plays adaptively in every browser:
 * natively where that is trusted (Safari), through MSE by hls.js elsewhere (a chunk loaded only once playback is
 * asked for); without HLS, the MP4 that fits its width on this screen; with text tracks and poster. Linked to a
 * `<reel-playlist>` by `for`, it plays what is chosen there (and cues the playlist's first item until then), and
 * offers the next item when a video ends. Its toolbar row holds a timeline with chapter marks and preview
 * thumbnails, and chapter, quality, captions and speed menus (the playback kit, a chunk loaded once the player has
 * media and is near the viewport, is interacted with, or autostarts).
 *
 * Content under a geo policy comes as the worker's own playback URLs, which expire: when one does mid-playback, the
 * player asks for the media again (fresh URLs, and the policy decided again) and resumes where it was.
 *
 * Its geometry is fixed at first paint, so the page never shifts when the configuration or the media arrive: the frame
 * takes its shape from `ratio`, and under it the rows named by `rows` keep their space whether or not they have
 * anything to show yet (the toolbar one control high, the title one line, the description
 * `--reel-player-description-lines` lines, longer text clamped). With `ratio`, a configuration of another aspect ratio
 * shows its picture in that shape inside the frame, with bars, and never resizes it; without, the frame is 16:9 and
 * takes the configuration's shape when it arrives (a shift, unless that is 16:9 too). Rows not named stay hidden
 * whatever the configuration says.
 *
 * With `poster`, the frame shows that image from first paint, before the media answers (the worker's server-side
 * render writes the media's own poster there); the video, with the media's poster, covers it, and it is gone once the
 * video plays.
 *
 * @attr {'play' | 'cue' | 'off'} upnext - With `for`, what happens when a video ends: `play` (the playlist's next item
 *   plays after a countdown the viewer can cancel), `cue` (it is loaded, not started) or `off`. Default: the player
 *   configuration's `related.oncomplete` (`autoplay` plays; `none` and `hide` offer nothing), else `cue`.
 * @attr {number} upnext-delay - Seconds of the up-next countdown (default: the configuration's
 *   `related.autoplaytimer`, else 5).
 *
 * @tag reel-player
 * @summary A video player.
 *
 * @event {ReelErrorEvent} reel-error - Loading the media or the player configuration failed. `event.status`, `event.code`,
 *   `event.description`.
 * @event {ReelPlayEvent} reel-play - Playback started or resumed. Every playback event has `event.mediaId` and
 *   `event.currentTime` (seconds).
 * @event {ReelPauseEvent} reel-pause - Playback paused (not at the end).
 * @event {ReelEndedEvent} reel-ended - The media played to its end.
 * @event {ReelProgressEvent} reel-progress - Playback first reached `event.quartile` (25, 50, 75 or 100 % of the
 *   media); once each per media, in order.
 * @event {ReelRenditionEvent} reel-rendition - The rendition playing changed (the first counts): `event.width`,
 *   `event.height`, `event.bitrate` (bits/s, null for a file or native HLS), `event.auto` (false when pinned in the
 *   quality menu).
 * @event {ReelStallEvent} reel-stall - Rebuffering began (`event.stalled` true) or ended (`event.stalled` false,
 *   `event.duration` the milliseconds waited). Waiting after a seek is not a stall.
 *
 * @slot placeholder - Shown in the frame while there is nothing to play (default: "Choose a video to play.").
 *
 * @csspart frame - The box of fixed aspect ratio around the video.
 * @csspart video - The `<video>` element.
 * @csspart poster - The `poster` image, under the video until it plays.
 * @csspart toolbar - The row under the video holding the timeline and the menus (shown when `rows` names it).
 * @csspart timeline - The seek slider with chapter marks and preview thumbnails (for media with chapters or a
 *   storyboard).
 * @csspart chapter-mark - A chapter's start on the timeline.
 * @csspart preview - The preview thumbnail over the frame while the timeline is hovered or moved by keyboard.
 * @csspart chapter-menu - The chapters `<select>`: choosing one seeks to it.
 * @csspart quality-menu - The quality `<select>` (Auto and each rendition; HLS through MSE).
 * @csspart captions-menu - The captions `<select>` (off, the text tracks and the stream's own subtitles).
 * @csspart rate-menu - The playback speed `<select>`.
 * @csspart up-next - The up-next card over the frame when a video of a linked playlist ends, with its countdown.
 * @csspart up-next-play - Its "Play now" button.
 * @csspart up-next-cancel - Its "Cancel" button.
 * @csspart title - The media title (when the configuration shows it).
 * @csspart description - The media description (when the configuration shows it).
 * @csspart playback-error - The notice over the frame when the browser cannot play the video file.
 * @csspart error - The error box.
 * @csspart retry - Its "Try again" button.
 *
 * @cssproperty --reel-player-background - Behind the video (letterbox bars); default `#000`.
 * @cssproperty --reel-player-title-size - Font size of the title (default `1.25rem`).
 * @cssproperty --reel-player-description-lines - Lines kept for the description (default `2`).
 * @cssproperty --reel-font - Font family.
 * @cssproperty --reel-color-text - Text colour.
 * @cssproperty --reel-color-muted - Description and label colour.
 * @cssproperty --reel-color-surface-raised - Menu and message background.
 * @cssproperty --reel-color-border - Borders.
 * @cssproperty --reel-color-danger - Error accent.
 * @cssproperty --reel-color-focus - Focus ring.
 * @cssproperty --reel-color-skeleton - Loading placeholder.
 * @cssproperty --reel-radius - Corner radius.
 */
export class ReelPlayer extends ReelElement {
  static override styles = [tokens, playerStyles];
  static override properties: PropertyDeclarations = {
    site: {},
    media: { reflect: true },
    poster: {},
    player: {},
    ratio: {},
    rows: {},
    htmlFor: { attribute: 'for' },
    endpoint: {},
    state: { reflect: true },
    engine: { reflect: true },
    data: { type: Object },
    _width: { state: true, attribute: false },
    _playbackFailed: { state: true, attribute: false },
    _fresh: { state: true, attribute: false },
    _played: { state: true, attribute: false },
    _near: { state: true, attribute: false },
  };

  /** The site id. */
  site = '';
  /** The media id to play. Following a playlist sets it. */
  media = '';
  /**
   * An image to show in the frame at once, before the media answers: the media's poster URL, as the worker's
   * server-side render writes it. The video (with the media's own poster) covers it and replaces it once it plays.
   * It goes with the media it was given with: `media` changing without it (a playlist's choice) drops it.
   */
  poster = '';
  /** The player id whose `setup_config` applies (optional; without it: controls, no autostart, 16:9). */
  player = '';
  /**
   * The frame's shape, width to height (`16:9`, `4:3`, `9:16`), kept from first paint whatever the configuration says.
   * Without it: 16:9, then the configuration's shape once loaded. Set it to the configuration's `aspectratio`.
   */
  ratio = '';
  /**
   * The rows under the frame to keep space for, of `toolbar` (the speed menu), `title` and `description`, separated by
   * spaces. Default: all three with a `player`, `title description` without (what the configuration can show).
   */
  rows: string | null = null;
  /** The id of a `<reel-playlist>` in the same document (or shadow root) to follow. */
  htmlFor = '';
  /** Another worker to ask (default: the origin the bundle was loaded from). */
  endpoint: string | null = null;
  /** `idle` (nothing to play), `loading`, `error` or `complete`. Read-only. */
  state: PlayerState = 'idle';
  /**
   * How the media plays: `native` (HLS by the browser itself, where that is trusted: Safari), `mse` (HLS through Media
   * Source Extensions, by hls.js), `progressive` (one file), or empty before a source is chosen. Read-only.
   */
  engine: PlaybackEngine | '' = '';
  /**
   * The media's answer when the page has it already (fetched on its server, e.g. by `reelgate/server`): shown at once
   * (poster, title, description), with no request, by a server-side render and by the browser's first render alike.
   * The `data` attribute takes it as JSON. Read at the first load only; a later `media` loads as usual. The player
   * configuration (`player`) still loads in the browser.
   */
  data?: MediaResponse | null;

  private _width = 0;
  /** The browser could not play the chosen rendition (missing file, unsupported codec). */
  private _playbackFailed = false;
  /** The video has played: the `poster` image under it is no longer needed. */
  private _played = false;

  /**
   * What plays, and the answer it was chosen from: chosen again for a new answer, or for a new width until playback
   * starts (a resize never restarts the video). Undefined: not chosen yet (see `_pick`); null: nothing playable.
   */
  private _choice: Pick | null | undefined = null;
  private _chosenFrom: MediaResponse | undefined;
  /**
   * The playback chunk (kit/player-kit.ts), loaded once there is media and the player is near the viewport, touched,
   * focused or autostarting (or a playlist's choice starts it): a page of players far below loads none of it.
   */
  private _kit: PlayerKit | null = null;
  private _kitLoad: Promise<PlayerKit> | undefined;
  private _useKit(): Promise<PlayerKit> {
    return this._kitLoad ??= loadKit().then(({ createKit }) => {
      this.requestUpdate();
      // The element is the kit's host: the words are said for it.
      return this._kit = createKit(this, { html, nothing, addEnglish, msg, parts } as unknown as Lit);
    });
  }
  /** A fresher answer for the media being played, fetched when its playback URLs expired. */
  private _fresh: MediaResponse | null = null;
  /** Where to pick up once the fresh URLs have loaded. */
  private _resume: { time: number; playing: boolean } | null = null;
  private _refreshedAt = -Infinity;
  private _playing = false;
  /** Set with `_fresh`: the next update reloads the video (its URL may even be unchanged, e.g. within one minute). */
  private _renewed = false;
  private _playWhenReady = false;

  /** Keeps `_width` to the element's width in steps of 32 px (before playback starts, width picks the rendition). */
  private readonly _resize = new Observer(this, () => new ResizeObserver((entries) => {
    const width = entries[0]?.contentRect.width ?? 0;
    if (Math.abs(width - this._width) >= 32) this._width = width;
  }), () => this);

  /**
   * Whether the player is on screen or close to it, or was interacted with. Until then its video preloads nothing and
   * the kit is not loaded: a page with players far down spends no bytes on them before the reader gets there.
   */
  private _near = false;
  private readonly _nearness = new Observer(this, () => new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    this._near = true;
    this._nearness.observe(); // once: stop watching
  }, { rootMargin: '50%' }), () => this);

  /**
   * A pointer over the frame or focus in it (before any key or click can reach it): play may come, so the kit loads.
   */
  private _wake(): void {
    this._near = true;
  }

  /** The linked playlist: what is chosen there plays; until then its choice or first item is cued. */
  private readonly _playlist = new Link<PlaylistLike>(this, {
    id: () => this.htmlFor,
    on: {
      'reel-select': (event) => {
        this._playWhenReady = true;
        this.media = event.mediaId;
        // When it is off screen (a phone, the shelf far below), the kit scrolls it into view.
        void this._useKit().then((kit) => kit.bringIntoView());
      },
      'reel-load': (_, playlist) => this._cue(playlist),
      // Failed: the update shows an invitation to choose instead of a loading frame.
      'reel-error': () => {},
    },
    found: (playlist) => this._cue(playlist),
  });

  private readonly _media = new Load(this, {
    args: () => [this.endpoint, this.site, this.media] as const,
    task: ([endpoint, site, media], signal) => {
      this._played = false;
      this._playbackFailed = false;
      this._fresh = null;
      this._resume = null;
      this._renewal.reset();
      if (!site || !media) return IDLE;
      return fetchMedia(endpoint, site, media, signal);
    },
    given: () => this.data,
  });

  private readonly _config = new Load(this, {
    args: () => [this.endpoint, this.site, this.player] as const,
    task: ([endpoint, site, player], signal) => (site && player ? fetchPlayer(endpoint, site, player, signal) : IDLE),
  });

  /**
   * Fresh playback URLs for the media being played, asked for when its URLs expired. Refused now (the visitor moved,
   * the policy changed) or unreachable: said so, as for a first load.
   */
  private readonly _renewal = new Load(this, {
    task: (_, signal) => fetchMedia(this.endpoint, this.site, this.media, signal),
    onComplete: (fresh) => {
      this._fresh = fresh;
      this._renewed = true;
    },
    onError: (error) => {
      this._resume = null;
      this._playbackFailed = true;
      reportError(this, error);
    },
  });

  /** The options in force (from the player configuration once loaded). */
  get options(): PlayerOptions {
    return playerOptions(this._config.value?.setup_config);
  }

  /** The loaded media, or undefined. */
  get mediaItem(): MediaResponse | undefined {
    return this._media.status === 'complete' ? this._media.value : undefined;
  }

  /** The player configuration, once loaded. @internal */
  get config(): PlayerResponse | undefined {
    return this._config.value;
  }

  /** The `<video>` element, for page code that wants the full media API. */
  get video(): HTMLVideoElement | null {
    return this._video;
  }

  private get _video(): HTMLVideoElement | null {
    return this.renderRoot?.querySelector('video') ?? null;
  }

  /** True while the linked playlist is still loading the item this player will cue. */
  private _waitingForPlaylist(): boolean {
    // Before its first render a playlist has no state yet (null): it is about to load. Without one, undefined.
    const state = !this.media && this._playlist.target?.getAttribute('state');
    return state === null || state === 'loading';
  }

  /** With nothing to play yet, takes the playlist's choice or its first item (without starting it). */
  private _cue(playlist: PlaylistLike): void {
    if (this.media) return;
    const id = playlist.selected || playlist.items?.[0]?.id;
    if (id) this.media = id;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('htmlFor') && this.isConnected) this._playlist.follow();
    if (changed.get('media') && !changed.has('poster')) this.poster = '';
    this.state = this._media.state(!!(this.site && this.media));
    // The media answer being played: a fresher one when its playback URLs were renewed.
    const answer = this.mediaItem;
    const media = this._fresh && this._fresh.id === answer?.id ? this._fresh : answer;
    if (!this._played || media !== this._chosenFrom) {
      this._chosenFrom = media;
      this._choice = media ? this._pick(media) : null;
    }
    this.engine = this._choice?.engine ?? '';
  }

  protected override updated(): void {
    const video = this._video;
    const choice = this._choice;
    const media = this._chosenFrom;
    if (media && (this._near || this.options.autostart)) void this._useKit();
    this._kit?.sync(video, media && choice && video
      ? { media, url: mediaUrl(this.endpoint, choice.source.url), engine: choice.engine } : null);
    if (!video || this.state !== 'complete') return;
    if (this._renewed) {
      this._renewed = false;
      this._playbackFailed = false;
      // Under MSE the kit attaches the fresh playlist itself; a file is reloaded here.
      if (choice?.engine !== 'mse') video.load();
    }
    if (this._playWhenReady) {
      this._playWhenReady = false;
      void video.play().catch(() => {
        // Browsers refuse sound without a recent gesture; the controls are there to start it.
      });
    }
  }

  /**
   * Undefined on the server, which knows no browser, and in the render that hydrates a server-rendered player (its
   * shadow root is there before its first update), which must be the server's: the video is there without a source,
   * showing its poster, and the next update (the kit's arrival, the player coming near) chooses.
   */
  private _pick(media: MediaResponse): Pick | null | undefined {
    if (!this.hasUpdated && this.renderRoot?.firstChild !== null) return;
    const width = (this._width || this.clientWidth || 640) * (globalThis.devicePixelRatio || 1);
    return pickPlayback(media.sources, width, browserSupport());
  }

  /**
   * The video failed. A playback URL that stopped opening (expired, or handed to another network) is renewed once per
   * interval by asking for the media again; anything else is shown as a playback failure.
   */
  private _onVideoError(): void {
    this.renew(this._video?.currentSrc ?? '');
  }

  /** A playback URL (`src`) stopped opening: renewed once per interval, else a playback failure. @internal */
  renew(src: string): void {
    const video = this._video;
    const now = performance.now();
    if (video && isPlaybackUrl(src) && now - this._refreshedAt >= REFRESH_INTERVAL_MS) {
      this._refreshedAt = now;
      this._resume = { time: video.currentTime, playing: this._playing };
      void this._renewal.run();
      return;
    }
    this._playbackFailed = true;
  }

  /** Fresh URLs loaded: back to where the viewer was, playing if they were. */
  private _onLoadedMetadata(): void {
    const video = this._video;
    const resume = this._resume;
    if (!video || !resume) return;
    this._resume = null;
    if (resume.time > 0) video.currentTime = resume.time;
    if (resume.playing) void video.play().catch(() => {});
  }

  protected override render() {
    const options = this.options;
    const status = this._media.status;
    const busy = status === 'loading' || (status === 'idle' && this._waitingForPlaylist());
    // Set through the CSSOM (a property binding to `style`, as styleMap does), so a page's CSP that forbids inline
    // style attributes does not drop it. Values are checked: `w / h` of numbers, a known `object-fit`, percentages.
    const frame = aspectRatio(this.ratio) ?? options.aspectRatio ?? '16 / 9';
    const frameStyle = `--_ratio:${frame};--_fit:${options.fit}${pictureBox(frame, options.aspectRatio)}`;
    const media = this.mediaItem;
    const poster = !this._played && this.poster;
    return html`
      <div class="frame ${busy && !poster ? 'skeleton' : ''}" part="frame" .style=${frameStyle}
        aria-busy=${busy ? 'true' : nothing} @pointerover=${this._wake}
        @focusin=${this._wake}>
        ${poster ? html`<img part="poster" src=${poster} alt="">` : nothing}
        ${this._media.render({
          idle: () => busy ? nothing : html`
            <div class="placeholder"><slot name="placeholder">${this.site && this.media ? '' : msg(this, 'chooseVideo')}</slot></div>`,
          loading: () => html`<span class="visually-hidden" role="status">${msg(this, 'loadingVideo')}</span>`,
          complete: (answer) => this._renderMedia(answer, options),
        })}
      </div>
      ${this._renderRows(options, media)}`;
  }

  /** The rows under the frame: each named one keeps its space, empty until the configuration and media fill it. */
  private _renderRows(options: PlayerOptions, media: MediaResponse | undefined) {
    const rows = (this.rows ?? (this.player ? 'toolbar title description' : 'title description')).split(/\s+/);
    return html`
      ${rows.includes('toolbar') ? html`
        <div class="toolbar" part="toolbar">${media && this._kit?.toolbar()}</div>` : nothing}
      ${rows.includes('title') ? html`<div class="title-row">${media && options.showTitle
        ? html`<p class="title" part="title">${media.title}</p>` : nothing}</div>` : nothing}
      ${rows.includes('description') ? html`<div class="description-row">${media && options.showDescription &&
        media.description ? html`<p class="description" part="description">${media.description}</p>` : nothing}</div>`
        : nothing}`;
  }

  private _renderMedia(answer: MediaResponse, options: PlayerOptions) {
    const media = this._chosenFrom ?? answer;
    const choice = this._choice;
    const source = choice?.source;
    const url = source && choice.engine !== 'mse' ? mediaUrl(this.endpoint, source.url) : nothing;
    const poster = media.poster ? mediaUrl(this.endpoint, media.poster) : null;
    const label = msg(this, media.media_type === 'audio' ? 'audioLabel' : 'videoLabel', { title: media.title });
    return html`
        ${choice !== null ? html`
          <video part="video" src=${url} poster=${poster ?? nothing} controls playsinline
            aria-label=${label}
            preload=${/* Nothing while far from view, nor for HLS, where even metadata pulls a first segment. */
              !this._near || isHls(source!) ? 'none' : options.preload}
            ?loop=${options.repeat}
            ?autoplay=${options.autostart === true}
            .muted=${options.muted}
            crossorigin=${media.tracks.length ? 'anonymous' : nothing}
            @playing=${() => { this._playing = this._played = true; }}
            @pause=${() => { this._playing = false; }}
            @loadedmetadata=${() => this._onLoadedMetadata()}
            @error=${this._onVideoError}>
            ${media.tracks.filter((t) => t.kind !== 'thumbnails').map((t) => html`
              <track kind=${t.kind} label=${t.label} srclang=${t.srclang} src=${mediaUrl(this.endpoint, t.url)} ?default=${t.default} />`)}
          </video>`
          : html`<div class="placeholder" role="alert">${msg(this, 'noPlayableSource')}</div>`}
        ${choice && this._playbackFailed
          ? html`<div class="placeholder failed" part="playback-error" role="alert">${msg(this, 'playbackFailed')}</div>`
          : nothing}
        ${this._kit?.overlay()}`;
  }
}

/**
 * The picture's box inside the frame when the configuration's shape differs from the frame's: as large as fits,
 * centred (the frame keeps its size, so nothing under it moves).
 */
function pictureBox(frame: string, shape: string | null): string {
  if (!shape || shape === frame) return '';
  const ratio = (s: string) => { const [w, h] = s.split(' / ').map(Number); return w! / h!; };
  const r = ratio(shape) / ratio(frame);
  return r < 1 ? `;--_w:${r * 100}%` : `;--_h:${100 / r}%`;
}

/** At most one renewal of expired playback URLs per interval, so a file that never plays cannot loop. */
const REFRESH_INTERVAL_MS = 10_000;

