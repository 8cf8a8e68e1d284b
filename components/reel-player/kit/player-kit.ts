/**
 * What `<reel-player>` does once it has something to play, loaded as a chunk of its own when it does (chunks.ts): the
 * MSE engine (hls.js, itself another chunk), the playback events, the quality, captions and chapter menus, the
 * timeline with chapter marks and preview thumbnails, and up next. The element's core (the script tag) keeps the
 * geometry, the loading and the native `<video>`; a page with no player never fetches this.
 *
 * It never imports Lit: the element hands it its own `html` and `nothing`, so the chunk carries no second copy. It
 * reaches the element through `KitHost`, public members only (the embed build renames private ones per chunk).
 */
import type { MediaResponse } from '../../../worker/contract/public-api.ts';
import { mediaUrl } from '../../shared/api.ts';
import { formatRate, pageLang } from '../../shared/format.ts';
import {
  ReelEndedEvent, ReelPauseEvent, ReelPlayEvent, ReelProgressEvent, ReelRenditionEvent, ReelStallEvent,
} from '../../shared/playback-events.ts';
import { loadHls } from './hls-chunk.ts';
import type { HlsSession, Rendition } from '../hls-engine.ts';
import { clock, cueAt, frameOf, parseCues, type Cue, type Frame } from './vtt.ts';
import { KIT_CSS } from './kit.styles.ts';
import type { KitHost, Lit, Playing } from './host.ts';
import { linkedPlaylist, upNextChoice, type UpNext } from './up-next.ts';

const QUARTILES = [25, 50, 75] as const;

export class PlayerKit {
  private video: HTMLVideoElement | null = null;
  private playing: Playing | null = null;
  private listeners: AbortController | null = null;
  private hls: HlsSession | null = null;
  private hlsUrl = '';
  /**
   * The HLS playlist the player plays through MSE. hls.js (its chunk, the playlists) is loaded only once playback is
   * asked for (a play, autostart): a page whose viewers never press play never fetches it.
   */
  private mseUrl = '';
  private started = false;
  private renditions: Rendition[] = [];
  /** The quality menu's choice: -1 automatic. */
  private pinned = -1;
  private lastRendition = '';
  /** The height of the rendition playing, for the menu's "Auto (720p)". */
  private height: number | null = null;
  /** Playback has begun (a first `playing`): a wait after this is a stall. */
  private rolling = false;
  /**
   * `reel-play` was said and no `reel-pause` or `reel-ended` since: a play that only re-issues one (after hls.js
   * attached, or one the kit arrived too late to hear) is said once.
   */
  private announced = false;
  private quartiles = new Set<number>();
  private stalledAt = 0;
  private chapters: Cue[] = [];
  private storyboard: Array<Cue & { frame: Frame }> = [];
  private tracksFor = '';
  /** The preview shown over the timeline: the time it is for. */
  private preview: number | null = null;
  private upNext: UpNext | null = null;
  private countdown = 0;
  private timer = 0;
  /** The speed menu's choice, kept from one media to the next. */
  private rate = 1;
  /** Autostart `viewable`: watching for half the video in view, once per media. */
  private viewable: IntersectionObserver | null = null;
  private autostarted = false;
  /** Up next chose to play the media now loading. */
  private playNext = false;

  constructor(private readonly host: KitHost, private readonly lit: Lit) {
    const root = host.shadowRoot;
    if (root) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(KIT_CSS);
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    }
    host.addController({ hostDisconnected: () => this.disconnect() });
  }

  /** Called after every update of the element: follows the `<video>` and what it plays. */
  sync(video: HTMLVideoElement | null, playing: Playing | null): void {
    if (video !== this.video) {
      this.detach();
      this.mseUrl = '';
      this.watch(video);
    }
    const previous = this.playing;
    this.playing = playing;
    if (playing?.media.id !== previous?.media.id) {
      this.newMedia();
      // The toolbar and overlay render from what this saw: the element renders them again now that it has.
      if (playing) this.host.requestUpdate();
    }
    if (!video || !playing) return this.detach();
    if (this.playNext) {
      this.playNext = false;
      void video.play().catch(() => {});
    }
    // Playing already (autoplay, or a play before this chunk arrived): said now.
    if (!video.paused) this.announcePlay();
    this.watchViewable(video);
    if (playing.engine !== 'mse') {
      this.mseUrl = '';
      this.detach();
    } else if (playing.url !== this.mseUrl) {
      this.mseUrl = playing.url;
      // Fresh URLs for a stream already attached (a renewal) are attached at once, as is a stream whose play came
      // before this kit did; otherwise on the first play.
      if (this.hls || !video.paused || this.host.options.autostart === true) void this.attach(video, playing.url);
    }
    this.loadTracks(playing.media);
  }

  /**
   * A card chosen in a linked playlist starts the player: when it is off screen (a phone, the shelf far below), it
   * is scrolled into view so the viewer sees (and hears) what started. Focus stays on the card.
   */
  bringIntoView(): void {
    const { top, bottom } = this.host.getBoundingClientRect();
    if (bottom < 0 || top > innerHeight) {
      this.host.scrollIntoView({ block: 'nearest', behavior: matchMedia('(prefers-reduced-motion:reduce)').matches ? 'auto' : 'smooth' });
    }
  }

  disconnect(): void {
    this.viewable?.disconnect();
    this.watch(null);
    this.detach();
    this.cancelUpNext();
  }

  private get mediaId(): string {
    return this.playing?.media.id ?? '';
  }

  private emit(make: (id: string, time: number) => Event): void {
    this.host.dispatchEvent(make(this.mediaId, this.video?.currentTime ?? 0));
  }

  private newMedia(): void {
    this.quartiles = new Set();
    this.lastRendition = '';
    this.stalledAt = 0;
    this.rolling = false;
    this.announced = false;
    this.height = null;
    this.started = false;
    this.pinned = -1;
    this.renditions = [];
    this.preview = null;
    this.autostarted = false;
    this.cancelUpNext();
  }

  /** Autostart `viewable`: starts muted once half the video is in view, once per media. */
  private watchViewable(video: HTMLVideoElement): void {
    const wanted = this.host.options.autostart === 'viewable' && !this.autostarted;
    if (!wanted) {
      this.viewable?.disconnect();
      return;
    }
    this.viewable ??= new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting) || this.autostarted) return;
      this.autostarted = true;
      this.viewable!.disconnect();
      const target = entries[0]!.target as HTMLVideoElement;
      target.muted = true;
      void target.play().catch(() => {});
    }, { threshold: 0.5 });
    this.viewable.disconnect();
    this.viewable.observe(video);
  }

  // ------------------------------------------------------------------------------------------------ MSE engine

  private async attach(video: HTMLVideoElement, url: string): Promise<void> {
    // Attaching resets the element: a renewal picks up where it was (loading at once if it had started), and a first
    // play where a seek before it put it.
    const resume = !!this.hls && this.started;
    const at = video.currentTime;
    this.detach();
    this.hlsUrl = url;
    const engine = await loadHls();
    if (this.hlsUrl !== url || this.video !== video) return;
    if (!engine.supported()) return this.host.renew('');
    // Play pressed (or autostart) while hls.js was loading: attaching resets the element, so it is asked again after.
    const wanted = !video.paused || this.host.options.autostart === true;
    this.hls = engine.attachHls(video, url, {
      renditions: (list) => {
        this.renditions = list;
        this.host.requestUpdate();
      },
      switched: (index, auto) => this.rendition(this.renditions[index], auto),
      refused: (src) => this.host.renew(src),
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

  private detach(): void {
    this.hls?.destroy();
    this.hls = null;
    this.hlsUrl = '';
  }

  // ---------------------------------------------------------------------------------------------------- events

  private watch(video: HTMLVideoElement | null): void {
    this.listeners?.abort();
    this.listeners = null;
    this.video = video;
    if (!video) return;
    // The speed menu's choice carries over to a new <video> (a page's own playbackRate is its business after that).
    video.playbackRate = video.defaultPlaybackRate = this.rate;
    const signal = (this.listeners = new AbortController()).signal;
    const on = (type: string, handler: () => void) => video.addEventListener(type, handler, { signal });
    on('play', () => {
      if (!this.hls && this.mseUrl && this.hlsUrl !== this.mseUrl) void this.attach(video, this.mseUrl);
      else if (this.hls && !this.started) {
        this.started = true;
        this.hls.start(video.currentTime > 0 ? video.currentTime : -1);
      }
      this.cancelUpNext();
      this.announcePlay();
    });
    on('pause', () => {
      if (video.ended || !this.announced) return;
      this.announced = false;
      this.emit((id, t) => new ReelPauseEvent(id, t));
    });
    on('ended', () => {
      this.announced = false;
      this.quartile(100);
      this.emit((id, t) => new ReelEndedEvent(id, t));
      this.offerUpNext();
    });
    on('timeupdate', () => {
      const { currentTime, duration } = video;
      if (duration > 0 && Number.isFinite(duration)) {
        for (const q of QUARTILES) if (currentTime >= (duration * q) / 100) this.quartile(q);
      }
      // Only the timeline and the chapter menu follow the position: without them, nothing to render four times a second.
      if (this.chapters.length || this.storyboard.length) this.host.requestUpdate();
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
      if (this.playing?.engine !== 'mse' && video.videoWidth) {
        this.rendition({ width: video.videoWidth, height: video.videoHeight, bitrate: null },
          this.playing?.engine === 'native');
      }
    });
    // A pointer over the player, or focus on it, is a hint that play may come: hls.js's chunk is fetched ahead.
    const warm = () => {
      if (this.mseUrl) void loadHls();
    };
    on('pointerenter', warm);
    on('focus', warm);
    video.textTracks.addEventListener('addtrack', () => this.host.requestUpdate(), { signal });
    video.textTracks.addEventListener('change', () => this.host.requestUpdate(), { signal });
  }

  private announcePlay(): void {
    if (this.announced || !this.playing) return;
    this.announced = true;
    this.emit((id, t) => new ReelPlayEvent(id, t));
  }

  private quartile(q: 25 | 50 | 75 | 100): void {
    if (this.quartiles.has(q)) return;
    // Reaching the end passes every quarter on the way.
    for (const earlier of QUARTILES) if (earlier < q) this.quartile(earlier);
    this.quartiles.add(q);
    this.emit((id, t) => new ReelProgressEvent(id, t, q));
  }

  private rendition(r: Rendition | undefined, auto: boolean): void {
    if (!r) return;
    const key = `${r.width}x${r.height}@${r.bitrate}`;
    if (key === this.lastRendition) return;
    this.lastRendition = key;
    this.height = r.height;
    this.emit((id, t) => new ReelRenditionEvent(id, t, r.width, r.height, r.bitrate, auto));
    this.host.requestUpdate();
  }

  // ------------------------------------------------------------------------------------- chapters, storyboard

  private loadTracks(media: MediaResponse): void {
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
          return frame ? [{ ...cue, frame: { ...frame, url: mediaUrl(this.host.endpoint, frame.url) } }] : [];
        });
      });
    }
  }

  private async vtt(url: string, key: string, use: (cues: Cue[], base: string) => void): Promise<void> {
    const resolved = mediaUrl(this.host.endpoint, url);
    try {
      const response = await fetch(resolved, { credentials: 'omit' });
      if (!response.ok) return;
      const cues = parseCues(await response.text());
      if (key !== this.tracksFor) return;
      use(cues, response.url || resolved);
      this.host.requestUpdate();
    } catch {
      // Without it the player plays on, with no chapters or previews: nothing a viewer must be told.
    }
  }

  // ----------------------------------------------------------------------------------------------------- up next

  private offerUpNext(): void {
    const choice = upNextChoice(this.host, this.mediaId);
    if (!choice) return;
    this.upNext = choice;
    this.countdown = choice.seconds;
    this.host.requestUpdate();
    this.timer = window.setInterval(() => {
      if (--this.countdown <= 0) this.takeUpNext();
      this.host.requestUpdate();
    }, 1000);
  }

  private takeUpNext(): void {
    const next = this.upNext;
    this.cancelUpNext();
    if (!next) return;
    const playlist = linkedPlaylist(this.host);
    if (playlist) playlist.selected = next.id;
    this.playNext = next.play;
    this.host.media = next.id;
  }

  private cancelUpNext(): void {
    clearInterval(this.timer);
    if (!this.upNext) return;
    this.upNext = null;
    this.host.requestUpdate();
  }

  // ------------------------------------------------------------------------------------------------------ render

  /** The controls of the toolbar row: timeline, chapters, quality, captions, speed. */
  toolbar(): unknown {
    const { html, nothing } = this.lit;
    const video = this.video;
    if (!video || !this.playing) return nothing;
    const rates = this.host.options.rates;
    const lang = pageLang(this.host);
    const duration = Number.isFinite(video.duration) && video.duration > 0 ? video.duration
      : this.playing.media.duration || 0;
    const chapter = cueAt(this.chapters, video.currentTime);
    const captions = this.captionTracks();
    const showing = captions.find((t) => t.mode === 'showing');
    return html`
      ${duration && (this.storyboard.length || this.chapters.length) ? html`
        <div class="timeline">
          <input type="range" part="timeline" aria-label="Seek" min="0" max=${duration} step="any"
            .value=${String(video.currentTime)}
            aria-valuetext=${`${clock(video.currentTime)} of ${clock(duration)}${chapter ? `, ${chapter.text}` : ''}`}
            @input=${(e: Event) => this.seek(Number((e.target as HTMLInputElement).value), true)}
            @pointermove=${(e: PointerEvent) => this.hover(e, duration)}
            @pointerleave=${() => this.show(null)} @blur=${() => this.show(null)}>
          ${this.chapters.slice(1).map((c) => html`<span class="mark" part="chapter-mark" .style=${`left:${(c.start / duration) * 100}%`}></span>`)}
        </div>` : nothing}
      ${this.chapters.length ? html`
        <select part="chapter-menu" aria-label="Chapters" @change=${(e: Event) => this.seek(
            this.chapters[Number((e.target as HTMLSelectElement).value)]!.start, false)}>
            ${this.chapters.map((c, i) => html`<option value=${i} ?selected=${c === chapter}>${clock(c.start)} ${c.text}</option>`)}
          </select>` : nothing}
      ${this.renditions.length > 1 ? html`
        <select part="quality-menu" aria-label="Quality" @change=${(e: Event) => this.choose(Number((e.target as HTMLSelectElement).value))}>
            <option value="-1" ?selected=${this.pinned < 0}>Auto${this.pinned < 0 && this.height ? ` (${this.height}p)` : ''}</option>
            ${this.renditions.map((r, i) => html`<option value=${i} ?selected=${this.pinned === i}>${r.height ? `${r.height}p` : `${Math.round((r.bitrate ?? 0) / 1000)} kbps`}</option>`)}
          </select>` : nothing}
      ${captions.length ? html`
        <select part="captions-menu" aria-label="Captions" @change=${(e: Event) => this.caption(Number((e.target as HTMLSelectElement).value), captions)}>
            <option value="-1" ?selected=${!showing}>Captions off</option>
            ${captions.map((t, i) => html`<option value=${i} ?selected=${t === showing}>${t.label || t.language}</option>`)}
          </select>` : nothing}
      ${rates ? html`
        <label>Speed
          <select part="rate-menu" @change=${(e: Event) => this.speed(Number((e.target as HTMLSelectElement).value) || 1)}>
            ${rates.map((r) => html`<option value=${r} ?selected=${r === this.rate}>${formatRate(r, lang)}</option>`)}
          </select>
        </label>` : nothing}`;
  }

  /** Over the frame: the preview thumbnail, and the up-next card. */
  overlay(): unknown {
    const { html, nothing } = this.lit;
    const video = this.video;
    const at = this.preview;
    const duration = video?.duration || this.playing?.media.duration || 0;
    const cue = at === null ? undefined : cueAt(this.storyboard, at);
    return html`
      ${cue && duration ? html`
        <div class="preview" part="preview" role="img" aria-label=${`Preview at ${clock(at!)}`}
          .style=${`left:clamp(0px,calc(${(at! / duration) * 100}% - 60px),calc(100% - 120px));${frameStyle(cue.frame)}`}>
          <span>${clock(at!)}</span>
        </div>` : nothing}
      ${this.upNext ? html`
        <div class="up-next" part="up-next" role="status">
          <p>Up next${this.upNext.title ? html`: <strong>${this.upNext.title}</strong>` : nothing}
            ${this.upNext.play ? `plays in ${this.countdown} s` : `in ${this.countdown} s`}</p>
          <button part="up-next-play" @click=${() => this.takeUpNext()}>${this.upNext.play ? 'Play now' : 'Show now'}</button>
          <button part="up-next-cancel" @click=${() => this.cancelUpNext()}>Cancel</button>
        </div>` : nothing}`;
  }

  private hover(event: PointerEvent, duration: number): void {
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    this.show(Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) * duration);
  }

  private show(time: number | null): void {
    this.preview = time;
    this.host.requestUpdate();
  }

  private seek(time: number, preview: boolean): void {
    const video = this.video;
    if (!video) return;
    video.currentTime = time;
    this.show(preview ? time : null);
  }

  private speed(rate: number): void {
    this.rate = rate;
    if (this.video) this.video.playbackRate = this.video.defaultPlaybackRate = rate;
    this.host.requestUpdate();
  }

  private choose(index: number): void {
    this.pinned = index;
    this.hls?.choose(index);
    this.host.requestUpdate();
  }

  /** The captions and subtitles the video has (its `<track>`s and, under MSE, the stream's own), each name once. */
  private captionTracks(): TextTrack[] {
    const seen = new Set<string>();
    return [...(this.video?.textTracks ?? [])].filter((t) => {
      const name = `${t.label}|${t.language}`.toLowerCase();
      if ((t.kind !== 'captions' && t.kind !== 'subtitles') || seen.has(name)) return false;
      seen.add(name);
      return true;
    });
  }

  private caption(index: number, tracks: TextTrack[]): void {
    for (const track of this.video?.textTracks ?? []) {
      if (track.kind === 'captions' || track.kind === 'subtitles') track.mode = 'disabled';
    }
    if (tracks[index]) tracks[index]!.mode = 'showing';
    this.host.requestUpdate();
  }
}

function frameStyle(frame: Frame): string {
  const url = `background-image:url("${encodeURI(frame.url)}")`;
  if (!frame.box) return `${url};background-size:cover`;
  const [x, y, w, h] = frame.box;
  return `${url};background-position:-${x}px -${y}px;width:${w}px;height:${h}px`;
}

export const createKit = (host: KitHost, lit: Lit) => new PlayerKit(host, lit);
