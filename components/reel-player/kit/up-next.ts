/**
 * Up next: what a player linked to a playlist offers when its media ends. The `upnext` attribute says `play` (the next
 * item plays after the countdown), `cue` (it is loaded, not started) or `off`; without it the player configuration's
 * `related.oncomplete` decides (`autoplay` plays, `none` and `hide` offer nothing, anything else cues), as the
 * platform's own player reads it. The countdown is `upnext-delay` seconds, else `related.autoplaytimer`, else 5.
 */
import type { KitContext, KitHost, PlaylistLike } from './host.ts';

export interface UpNextChoice {
  id: string;
  title: string;
  play: boolean;
  seconds: number;
}

const DEFAULT_SECONDS = 5;

export function upNextChoice(host: KitHost, current: string): UpNextChoice | null {
  const playlist = linkedPlaylist(host);
  const items = playlist?.items ?? [];
  const index = items.findIndex((item) => item.id === current);
  const next = index >= 0 ? items[index + 1] : undefined;
  if (!next) return null;
  const related = host.config?.setup_config?.related as { oncomplete?: unknown; autoplaytimer?: unknown } | undefined;
  const mode = host.getAttribute('upnext') ?? (related?.oncomplete === 'autoplay' ? 'play'
    : related?.oncomplete === 'none' || related?.oncomplete === 'hide' ? 'off' : 'cue');
  if (mode === 'off') return null;
  const configured = Number(host.getAttribute('upnext-delay') ?? related?.autoplaytimer ?? NaN);
  const seconds = Number.isFinite(configured) && configured >= 0 ? Math.min(Math.round(configured), 60) : DEFAULT_SECONDS;
  return { id: next.id, title: next.title ?? '', play: mode === 'play', seconds };
}

/** The `<reel-playlist>` the player follows (`for`), in its document or shadow root. */
export function linkedPlaylist(host: KitHost): PlaylistLike | null {
  const root = host.getRootNode() as Document | ShadowRoot;
  return host.htmlFor ? root.getElementById?.(host.htmlFor) as PlaylistLike | null : null;
}

/** The up-next card over the frame, its countdown, and the choice it makes in the playlist. */
export class UpNext {
  private offered: UpNextChoice | null = null;
  private countdown = 0;
  private timer = 0;
  /** Up next chose to play the media now loading. */
  private playNext = false;

  constructor(private readonly kit: KitContext) {}

  /** The media up next chose has loaded in `video`: played, when it was to play. */
  follow(video: HTMLVideoElement): void {
    if (!this.playNext) return;
    this.playNext = false;
    void video.play().catch(() => {});
  }

  /** The media ended: the playlist's next item, if any, is offered with a countdown. */
  offer(): void {
    const choice = upNextChoice(this.kit.host, this.kit.mediaId);
    if (!choice) return;
    this.offered = choice;
    this.countdown = choice.seconds;
    this.kit.host.requestUpdate();
    this.timer = window.setInterval(() => {
      if (--this.countdown <= 0) this.take();
      this.kit.host.requestUpdate();
    }, 1000);
  }

  cancel(): void {
    clearInterval(this.timer);
    if (!this.offered) return;
    this.offered = null;
    this.kit.host.requestUpdate();
  }

  render(): unknown {
    const { html, nothing } = this.kit.lit;
    const { say: msg, sayParts: parts } = this.kit;
    const next = this.offered;
    return next ? html`
        <div class="up-next" part="up-next" role="status">
          <p>${parts(next.title ? (next.play ? 'upNextPlays' : 'upNextShows')
            : next.play ? 'upNextPlaysUntitled' : 'upNextShowsUntitled', { title: next.title, seconds: this.countdown })
            .map((piece, i) => (i % 2 && piece === next.title ? html`<strong>${piece}</strong>` : piece))}</p>
          <button part="up-next-play" @click=${() => this.take()}>${msg(next.play ? 'playNow' : 'showNow')}</button>
          <button part="up-next-cancel" @click=${() => this.cancel()}>${msg('cancel')}</button>
        </div>` : nothing;
  }

  private take(): void {
    const next = this.offered;
    this.cancel();
    if (!next) return;
    const playlist = linkedPlaylist(this.kit.host);
    if (playlist) playlist.selected = next.id;
    this.playNext = next.play;
    this.kit.host.media = next.id;
  }
}
