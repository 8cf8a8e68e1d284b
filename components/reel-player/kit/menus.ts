/**
 * The kit's menus in the toolbar row: chapters (seeking to one), quality (hls.js's renditions), captions (the video's
 * text tracks and the stream's own) and speed (kept from one media to the next).
 */
import type { Engine } from './engine.ts';
import type { KitContext } from './host.ts';
import type { PlaybackEvents } from './playback-events.ts';
import type { Timeline } from './timeline.ts';
import { clock, cueAt } from './vtt.ts';

export class Menus {
  /** The speed menu's choice, kept from one media to the next. */
  private rate = 1;

  constructor(private readonly kit: KitContext, private readonly engine: Engine,
    private readonly events: PlaybackEvents, private readonly timeline: Timeline) {}

  listen(video: HTMLVideoElement, signal: AbortSignal): void {
    // The speed menu's choice carries over to a new <video> (a page's own playbackRate is its business after that).
    video.playbackRate = video.defaultPlaybackRate = this.rate;
    video.textTracks.addEventListener('addtrack', () => this.kit.host.requestUpdate(), { signal });
    video.textTracks.addEventListener('change', () => this.kit.host.requestUpdate(), { signal });
  }

  render(video: HTMLVideoElement): unknown {
    const { html, nothing } = this.kit.lit;
    const msg = this.kit.say;
    const { chapters } = this.timeline;
    const { renditions, pinned } = this.engine;
    const height = this.events.height;
    const rates = this.kit.host.options.rates;
    const chapter = cueAt(chapters, video.currentTime);
    const captions = this.captionTracks(video);
    const showing = captions.find((t) => t.mode === 'showing');
    return html`
      ${chapters.length ? html`
        <select part="chapter-menu" aria-label=${msg('chapters')} @change=${(e: Event) => this.timeline.seek(
            chapters[Number((e.target as HTMLSelectElement).value)]!.start, false)}>
            ${chapters.map((c, i) => html`<option value=${i} ?selected=${c === chapter}>${clock(c.start)} ${c.text}</option>`)}
          </select>` : nothing}
      ${renditions.length > 1 ? html`
        <select part="quality-menu" aria-label=${msg('quality')} @change=${(e: Event) => this.engine.choose(Number((e.target as HTMLSelectElement).value))}>
            <option value="-1" ?selected=${pinned < 0}>${pinned < 0 && height ? msg('qualityAutoAt', { height })
              : msg('qualityAuto')}</option>
            ${renditions.map((r, i) => html`<option value=${i} ?selected=${pinned === i}>${r.height
              ? msg('qualityHeight', { height: r.height }) : msg('qualityBitrate', { kbps: Math.round((r.bitrate ?? 0) / 1000) })}</option>`)}
          </select>` : nothing}
      ${captions.length ? html`
        <select part="captions-menu" aria-label=${msg('captions')} @change=${(e: Event) => this.caption(Number((e.target as HTMLSelectElement).value), captions)}>
            <option value="-1" ?selected=${!showing}>${msg('captionsOff')}</option>
            ${captions.map((t, i) => html`<option value=${i} ?selected=${t === showing}>${t.label || t.language}</option>`)}
          </select>` : nothing}
      ${rates ? html`
        <label>${msg('speed')}
          <select part="rate-menu" @change=${(e: Event) => this.speed(Number((e.target as HTMLSelectElement).value) || 1)}>
            ${rates.map((r) => html`<option value=${r} ?selected=${r === this.rate}>${msg('rate', { rate: r })}</option>`)}
          </select>
        </label>` : nothing}`;
  }

  private speed(rate: number): void {
    this.rate = rate;
    const video = this.kit.video;
    if (video) video.playbackRate = video.defaultPlaybackRate = rate;
    this.kit.host.requestUpdate();
  }

  /** The captions and subtitles the video has (its `<track>`s and, under MSE, the stream's own), each name once. */
  private captionTracks(video: HTMLVideoElement): TextTrack[] {
    const seen = new Set<string>();
    return [...video.textTracks].filter((t) => {
      const name = `${t.label}|${t.language}`.toLowerCase();
      if ((t.kind !== 'captions' && t.kind !== 'subtitles') || seen.has(name)) return false;
      seen.add(name);
      return true;
    });
  }

  private caption(index: number, tracks: TextTrack[]): void {
    for (const track of this.kit.video?.textTracks ?? []) {
      if (track.kind === 'captions' || track.kind === 'subtitles') track.mode = 'disabled';
    }
    if (tracks[index]) tracks[index]!.mode = 'showing';
    this.kit.host.requestUpdate();
  }
}
