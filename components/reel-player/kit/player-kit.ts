/**
 * What `<reel-player>` does once it has something to play, loaded as a chunk of its own when the player comes near
 * the viewport, is interacted with or autostarts (../chunks.ts). The element's core (the script tag) keeps the
 * geometry, the loading and the native `<video>`; a page with no player never fetches this.
 *
 * `PlayerKit` only composes small controllers, one concern each: the MSE engine (engine.ts, hls.js a chunk of its
 * own), the playback events (playback-events.ts), the menus (menus.ts), the timeline and previews (timeline.ts), up
 * next (up-next.ts) and autostart (autostart.ts). It never imports Lit: the element hands it its own `html` and
 * `nothing`, so the chunk carries no second copy. It reaches the element through `KitHost` (host.ts), public members
 * only (the embed build renames private ones per chunk).
 */
import { Autostart } from './autostart.ts';
import { Engine } from './engine.ts';
import type { MessageId, Values } from '../../shared/i18n/types.ts';
import { kitEnglish } from './en.ts';
import type { KitContext, KitHost, Lit, On, Playing } from './host.ts';
import { KIT_CSS } from './kit.styles.ts';
import { Menus } from './menus.ts';
import { PlaybackEvents } from './playback-events.ts';
import { Timeline } from './timeline.ts';
import { UpNext } from './up-next.ts';

export class PlayerKit implements KitContext {
  video: HTMLVideoElement | null = null;
  playing: Playing | null = null;
  private listeners: AbortController | null = null;
  private readonly events = new PlaybackEvents(this);
  private readonly engine = new Engine(this, (rendition, auto) => this.events.rendition(rendition, auto));
  private readonly timeline = new Timeline(this);
  private readonly menus = new Menus(this, this.engine, this.events, this.timeline);
  private readonly upNext = new UpNext(this);
  private readonly autostart = new Autostart(this);

  readonly say = (id: MessageId, values?: Values): string => this.lit.msg(this.host, id, values);
  readonly sayParts = (id: MessageId, values?: Values): unknown[] => this.lit.parts(this.host, id, values);

  constructor(readonly host: KitHost, readonly lit: Lit) {
    lit.addEnglish(kitEnglish);
    const root = host.shadowRoot;
    if (root) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(KIT_CSS);
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    }
    host.addController({ hostDisconnected: () => this.disconnect() });
  }

  get mediaId(): string {
    return this.playing?.media.id ?? '';
  }

  /** Called after every update of the element: follows the `<video>` and what it plays. */
  sync(video: HTMLVideoElement | null, playing: Playing | null): void {
    if (video !== this.video) {
      this.engine.forget();
      this.watch(video);
    }
    const previous = this.playing;
    this.playing = playing;
    if (playing?.media.id !== previous?.media.id) {
      this.newMedia();
      // The toolbar and overlay render from what this saw: the element renders them again now that it has.
      if (playing) this.host.requestUpdate();
    }
    if (!video || !playing) return this.engine.detach();
    this.upNext.follow(video);
    // Playing already (autoplay, or a play before this chunk arrived): said now.
    if (!video.paused) this.events.announcePlay();
    this.autostart.watch(video);
    this.engine.follow(video, playing);
    this.timeline.load(playing.media);
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
    this.autostart.disconnect();
    this.watch(null);
    this.engine.detach();
    this.upNext.cancel();
  }

  /** The controls of the toolbar row: timeline, chapters, quality, captions, speed. */
  toolbar(): unknown {
    const { html, nothing } = this.lit;
    const { video, playing } = this;
    if (!video || !playing) return nothing;
    const duration = Number.isFinite(video.duration) && video.duration > 0 ? video.duration
      : playing.media.duration || 0;
    return html`${this.timeline.render(video, duration)}${this.menus.render(video)}`;
  }

  /** Over the frame: the preview thumbnail, and the up-next card. */
  overlay(): unknown {
    const duration = this.video?.duration || this.playing?.media.duration || 0;
    return this.lit.html`${this.timeline.renderPreview(duration)}${this.upNext.render()}`;
  }

  private newMedia(): void {
    this.events.reset();
    this.engine.reset();
    this.timeline.reset();
    this.autostart.reset();
    this.upNext.cancel();
  }

  /** Follows a new `<video>` (or none): each controller listens to it until it changes. */
  private watch(video: HTMLVideoElement | null): void {
    this.listeners?.abort();
    this.listeners = null;
    this.video = video;
    if (!video) return;
    const signal = (this.listeners = new AbortController()).signal;
    const on: On = (type, handler) => video.addEventListener(type, handler, { signal });
    this.menus.listen(video, signal);
    // In this order: a play attaches the engine and cancels up next before it is said; an end is said, then offered.
    this.engine.listen(video, on);
    on('play', () => this.upNext.cancel());
    this.events.listen(video, on);
    on('ended', () => this.upNext.offer());
    on('timeupdate', () => {
      // Only the timeline and the chapter menu follow the position.
      if (this.timeline.active) this.host.requestUpdate();
    });
  }
}

export const createKit = (host: KitHost, lit: Lit) => new PlayerKit(host, lit);
