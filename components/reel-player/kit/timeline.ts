/**
 * The kit's timeline: a seek slider with chapter marks over the toolbar, and the preview thumbnail from the media's
 * storyboard over the frame while it is hovered or moved; both from the media's chapters and thumbnails tracks.
 */
import type { MediaResponse } from '../../../worker/contract/public-api.ts';
import { mediaUrl } from '../../shared/api.ts';
import type { KitContext } from './host.ts';
import { clock, cueAt, frameOf, parseCues, type Cue, type Frame } from './vtt.ts';

export class Timeline {
  chapters: Cue[] = [];
  private storyboard: Array<Cue & { frame: Frame }> = [];
  private tracksFor = '';
  /** The preview shown over the timeline: the time it is for. */
  private preview: number | null = null;

  constructor(private readonly kit: KitContext) {}

  /** Whether it follows the position (chapters or a storyboard): without, nothing to render four times a second. */
  get active(): boolean {
    return this.chapters.length > 0 || this.storyboard.length > 0;
  }

  reset(): void {
    this.preview = null;
  }

  /** The media's chapters and storyboard, fetched once per set of tracks. */
  load(media: MediaResponse): void {
    const key = media.tracks.map((t) => t.url).join(' ');
    if (key === this.tracksFor) return;
    this.tracksFor = key;
    this.chapters = [];
    this.storyboard = [];
    const chapters = media.tracks.find((t) => t.kind === 'chapters');
    const storyboard = media.tracks.find((t) => t.kind === 'thumbnails');
    if (chapters) void this.vtt(chapters.url, key, (cues) => { this.chapters = cues; });
    if (storyboard) {
      void this.vtt(storyboard.url, key, (cues, base) => {
        this.storyboard = cues.flatMap((cue) => {
          const frame = frameOf(cue.text, base);
          return frame ? [{ ...cue, frame: { ...frame, url: mediaUrl(this.kit.host.endpoint, frame.url) } }] : [];
        });
      });
    }
  }

  /** The slider and its chapter marks, for media with chapters or a storyboard. */
  render(video: HTMLVideoElement, duration: number): unknown {
    const { html, nothing } = this.kit.lit;
    const msg = this.kit.say;
    if (!duration || !this.active) return nothing;
    const chapter = cueAt(this.chapters, video.currentTime);
    return html`
        <div class="timeline">
          <input type="range" part="timeline" aria-label=${msg('seek')} min="0" max=${duration} step="any"
            .value=${String(video.currentTime)}
            aria-valuetext=${msg(chapter ? 'seekPositionChapter' : 'seekPosition',
              { time: clock(video.currentTime), duration: clock(duration), chapter: chapter?.text })}
            @input=${(e: Event) => this.seek(Number((e.target as HTMLInputElement).value), true)}
            @pointermove=${(e: PointerEvent) => this.hover(e, duration)}
            @pointerleave=${() => this.show(null)} @blur=${() => this.show(null)}>
          ${this.chapters.slice(1).map((c) => html`<span class="mark" part="chapter-mark" .style=${`left:${(c.start / duration) * 100}%`}></span>`)}
        </div>`;
  }

  /** The preview thumbnail over the frame, while the slider is hovered or moved. */
  renderPreview(duration: number): unknown {
    const { html, nothing } = this.kit.lit;
    const msg = this.kit.say;
    const at = this.preview;
    const cue = at === null ? undefined : cueAt(this.storyboard, at);
    return cue && duration ? html`
        <div class="preview" part="preview" role="img" aria-label=${msg('previewAt', { time: clock(at!) })}
          .style=${`left:clamp(0px,calc(${(at! / duration) * 100}% - 60px),calc(100% - 120px));${frameStyle(cue.frame)}`}>
          <span>${clock(at!)}</span>
        </div>` : nothing;
  }

  /** Seeks, showing the preview for that time (the slider) or none (the chapter menu). */
  seek(time: number, preview: boolean): void {
    const video = this.kit.video;
    if (!video) return;
    video.currentTime = time;
    this.show(preview ? time : null);
  }

  private hover(event: PointerEvent, duration: number): void {
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    this.show(Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) * duration);
  }

  private show(time: number | null): void {
    this.preview = time;
    this.kit.host.requestUpdate();
  }

  private async vtt(url: string, key: string, use: (cues: Cue[], base: string) => void): Promise<void> {
    const resolved = mediaUrl(this.kit.host.endpoint, url);
    try {
      const response = await fetch(resolved, { credentials: 'omit' });
      if (!response.ok) return;
      const cues = parseCues(await response.text());
      if (key !== this.tracksFor) return;
      use(cues, response.url || resolved);
      this.kit.host.requestUpdate();
    } catch {
      // Without it the player plays on, with no chapters or previews: nothing a viewer must be told.
    }
  }
}

function frameStyle(frame: Frame): string {
  const url = `background-image:url("${encodeURI(frame.url)}")`;
  if (!frame.box) return `${url};background-size:cover`;
  const [x, y, w, h] = frame.box;
  return `${url};background-position:-${x}px -${y}px;width:${w}px;height:${h}px`;
}
