/**
 * The kit's MSE engine: hls.js (its chunk, hls-chunk.ts) attached to the `<video>` for a player that plays HLS through
 * MSE, with the stream's renditions and the quality menu's choice. hls.js is loaded only once playback is asked for (a
 * play, autostart): a page whose viewers never press play never fetches it.
 */
import { loadHls } from './hls-chunk.ts';
import type { HlsSession, Rendition } from './hls-engine.ts';
import type { KitContext, On, Playing } from './host.ts';

export class Engine {
  private hls: HlsSession | null = null;
  private hlsUrl = '';
  /** The HLS playlist the player plays through MSE. */
  private mseUrl = '';
  private started = false;
  renditions: Rendition[] = [];
  /** The quality menu's choice: -1 automatic. */
  pinned = -1;

  constructor(private readonly kit: KitContext,
    private readonly switched: (rendition: Rendition | undefined, auto: boolean) => void) {}

  /** A new media: nothing started, nothing pinned. */
  reset(): void {
    this.started = false;
    this.pinned = -1;
    this.renditions = [];
  }

  /** A new `<video>` (or none): what the old one played is forgotten. */
  forget(): void {
    this.detach();
    this.mseUrl = '';
  }

  /** Follows what the `<video>` plays: attaches a new stream, detaches when it is not MSE. */
  follow(video: HTMLVideoElement, playing: Playing): void {
    if (playing.engine !== 'mse') {
      this.mseUrl = '';
      this.detach();
    } else if (playing.url !== this.mseUrl) {
      this.mseUrl = playing.url;
      // Fresh URLs for a stream already attached (a renewal) are attached at once, as is a stream whose play came
      // before this kit did; otherwise on the first play.
      if (this.hls || !video.paused || this.kit.host.options.autostart === true) void this.attach(video, playing.url);
    }
  }

  listen(video: HTMLVideoElement, on: On): void {
    on('play', () => {
      if (!this.hls && this.mseUrl && this.hlsUrl !== this.mseUrl) void this.attach(video, this.mseUrl);
      else if (this.hls && !this.started) {
        this.started = true;
        this.hls.start(video.currentTime > 0 ? video.currentTime : -1);
      }
    });
    // A pointer over the player, or focus on it, is a hint that play may come: hls.js's chunk is fetched ahead.
    const warm = () => {
      if (this.mseUrl) void loadHls();
    };
    on('pointerenter', warm);
    on('focus', warm);
  }

  /** The quality menu's choice: a rendition's index, or -1 for automatic. */
  choose(index: number): void {
    this.pinned = index;
    this.hls?.choose(index);
    this.kit.host.requestUpdate();
  }

  detach(): void {
    this.hls?.destroy();
    this.hls = null;
    this.hlsUrl = '';
  }

  private async attach(video: HTMLVideoElement, url: string): Promise<void> {
    const host = this.kit.host;
    // Attaching resets the element: a renewal picks up where it was (loading at once if it had started), and a first
    // play where a seek before it put it.
    const resume = !!this.hls && this.started;
    const at = video.currentTime;
    this.detach();
    this.hlsUrl = url;
    const engine = await loadHls();
    if (this.hlsUrl !== url || this.kit.video !== video) return;
    if (!engine.supported()) return host.renew('');
    // Play pressed (or autostart) while hls.js was loading: attaching resets the element, so it is asked again after.
    const wanted = !video.paused || host.options.autostart === true;
    this.hls = engine.attachHls(video, url, {
      renditions: (list) => {
        this.renditions = list;
        host.requestUpdate();
      },
      switched: (index, auto) => this.switched(this.renditions[index], auto),
      refused: (src) => host.renew(src),
      failed: () => video.dispatchEvent(new Event('error')),
    });
    if (this.pinned >= 0) this.hls.choose(this.pinned);
    if (resume || wanted) {
      this.started = true;
      this.hls.start(at > 0 ? at : -1);
      const session = this.hls;
      await session.attached;
      if (wanted && this.hls === session) void video.play().catch(() => {});
    }
  }
}
