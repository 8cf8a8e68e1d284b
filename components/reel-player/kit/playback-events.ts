/**
 * The kit's playback events: `reel-play`, `reel-pause`, `reel-ended`, `reel-progress` (each quarter once per media),
 * `reel-stall` and `reel-rendition`, said by the element from what its `<video>` (and hls.js) do.
 */
import {
  ReelEndedEvent, ReelPauseEvent, ReelPlayEvent, ReelProgressEvent, ReelRenditionEvent, ReelStallEvent,
} from '../../shared/playback-events.ts';
import type { Rendition } from './hls-engine.ts';
import type { KitContext, On } from './host.ts';

const QUARTILES = [25, 50, 75] as const;

export class PlaybackEvents {
  private quartiles = new Set<number>();
  private lastRendition = '';
  /** The height of the rendition playing, for the quality menu's "Auto (720p)". */
  height: number | null = null;
  /** Playback has begun (a first `playing`): a wait after this is a stall. */
  private rolling = false;
  /**
   * `reel-play` was said and no `reel-pause` or `reel-ended` since: a play that only re-issues one (after hls.js
   * attached, or one the kit arrived too late to hear) is said once.
   */
  private announced = false;
  private stalledAt = 0;

  constructor(private readonly kit: KitContext) {}

  /** A new media: every quarter, the rendition and the stall watch start over. */
  reset(): void {
    this.quartiles = new Set();
    this.lastRendition = '';
    this.stalledAt = 0;
    this.rolling = false;
    this.announced = false;
    this.height = null;
  }

  listen(video: HTMLVideoElement, on: On): void {
    on('play', () => this.announcePlay());
    on('pause', () => {
      if (video.ended || !this.announced) return;
      this.announced = false;
      this.emit((id, t) => new ReelPauseEvent(id, t));
    });
    on('ended', () => {
      this.announced = false;
      this.quartile(100);
      this.emit((id, t) => new ReelEndedEvent(id, t));
    });
    on('timeupdate', () => {
      const { currentTime, duration } = video;
      if (duration > 0 && Number.isFinite(duration)) {
        for (const q of QUARTILES) if (currentTime >= (duration * q) / 100) this.quartile(q);
      }
    });
    on('waiting', () => {
      if (this.stalledAt || video.seeking || !this.rolling) return;
      this.stalledAt = performance.now();
      this.emit((id, t) => new ReelStallEvent(id, t, true, 0));
    });
    on('playing', () => {
      this.rolling = true;
      if (!this.stalledAt) return;
      const waited = Math.round(performance.now() - this.stalledAt);
      this.stalledAt = 0;
      this.emit((id, t) => new ReelStallEvent(id, t, false, waited));
    });
    // A progressive file, or native HLS switching by itself: its picture's size is all a page can know.
    on('resize', () => {
      const engine = this.kit.playing?.engine;
      if (engine !== 'mse' && video.videoWidth) {
        this.rendition({ width: video.videoWidth, height: video.videoHeight, bitrate: null }, engine === 'native');
      }
    });
  }

  announcePlay(): void {
    if (this.announced || !this.kit.playing) return;
    this.announced = true;
    this.emit((id, t) => new ReelPlayEvent(id, t));
  }

  /** The rendition playing now (from hls.js, or the picture's size): said when it changed. */
  rendition(r: Rendition | undefined, auto: boolean): void {
    if (!r) return;
    const key = `${r.width}x${r.height}@${r.bitrate}`;
    if (key === this.lastRendition) return;
    this.lastRendition = key;
    this.height = r.height;
    this.emit((id, t) => new ReelRenditionEvent(id, t, r.width, r.height, r.bitrate, auto));
    this.kit.host.requestUpdate();
  }

  private quartile(q: 25 | 50 | 75 | 100): void {
    if (this.quartiles.has(q)) return;
    // Reaching the end passes every quarter on the way.
    for (const earlier of QUARTILES) if (earlier < q) this.quartile(earlier);
    this.quartiles.add(q);
    this.emit((id, t) => new ReelProgressEvent(id, t, q));
  }

  private emit(make: (id: string, time: number) => Event): void {
    this.kit.host.dispatchEvent(make(this.kit.mediaId, this.kit.video?.currentTime ?? 0));
  }
}
