/**
 * `<reel-player>`'s playback events, for a publisher's measurement: typed `Event` subclasses that bubble and cross
 * shadow roots, declared in `GlobalEventHandlersEventMap`. Only the player's playback kit dispatches them, so they
 * live apart from the other events (shared/events.ts), out of the core bundle.
 */
const init: EventInit = { bubbles: true, composed: true };

/** What every playback event says: the media and where playback was. */
class ReelPlaybackEvent extends Event {
  constructor(type: string, readonly mediaId: string, readonly currentTime: number) {
    super(type, init);
  }
}

/** Playback started or resumed (the video's `play`). */
export class ReelPlayEvent extends ReelPlaybackEvent {
  static readonly type = 'reel-play';
  constructor(mediaId: string, currentTime: number) {
    super(ReelPlayEvent.type, mediaId, currentTime);
  }
}

/** Playback paused (not at the end: that is `reel-ended`). */
export class ReelPauseEvent extends ReelPlaybackEvent {
  static readonly type = 'reel-pause';
  constructor(mediaId: string, currentTime: number) {
    super(ReelPauseEvent.type, mediaId, currentTime);
  }
}

/** The media played to its end. */
export class ReelEndedEvent extends ReelPlaybackEvent {
  static readonly type = 'reel-ended';
  constructor(mediaId: string, currentTime: number) {
    super(ReelEndedEvent.type, mediaId, currentTime);
  }
}

/** Playback first reached a quarter of the media: 25, 50, 75 (% of its duration) or 100 (its end); once each per media. */
export class ReelProgressEvent extends ReelPlaybackEvent {
  static readonly type = 'reel-progress';
  constructor(mediaId: string, currentTime: number, readonly quartile: 25 | 50 | 75 | 100) {
    super(ReelProgressEvent.type, mediaId, currentTime);
  }
}

/**
 * The rendition being played changed (the first one counts): its size in pixels, its declared bitrate (bits per
 * second, null when unknown: a progressive file or native HLS), and `auto`, false when the viewer pinned it in the
 * quality menu.
 */
export class ReelRenditionEvent extends ReelPlaybackEvent {
  static readonly type = 'reel-rendition';
  constructor(mediaId: string, currentTime: number, readonly width: number | null, readonly height: number | null,
    readonly bitrate: number | null, readonly auto: boolean) {
    super(ReelRenditionEvent.type, mediaId, currentTime);
  }
}

/**
 * Rebuffering: playback, once started, stopped to wait for data (`stalled` true) or went on again (`stalled` false,
 * with `duration` the milliseconds it waited). Waiting after a seek is not a stall.
 */
export class ReelStallEvent extends ReelPlaybackEvent {
  static readonly type = 'reel-stall';
  constructor(mediaId: string, currentTime: number, readonly stalled: boolean, readonly duration: number) {
    super(ReelStallEvent.type, mediaId, currentTime);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'reel-play': ReelPlayEvent;
    'reel-pause': ReelPauseEvent;
    'reel-ended': ReelEndedEvent;
    'reel-progress': ReelProgressEvent;
    'reel-rendition': ReelRenditionEvent;
    'reel-stall': ReelStallEvent;
  }
}
