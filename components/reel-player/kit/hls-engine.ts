/**
 * HLS through Media Source Extensions, by hls.js: the chunk the player loads only for a player that plays HLS where
 * native HLS is not trusted (../pick-source.ts). The embed build ships it as its own versioned file beside the bundle
 * (`/embed/reelgate-hls.<hash>.js`); the library build leaves `hls.js` to the page's bundler, as a chunk of its own.
 */
import Hls, { ErrorTypes, Events, type ErrorData, type Level } from 'hls.js';

/** A rendition of the stream, as the quality menu and `reel-rendition` name it. */
export interface Rendition {
  width: number | null;
  height: number | null;
  /** Bits per second, as the playlist declares it. */
  bitrate: number | null;
}

export interface HlsCallbacks {
  /** The renditions, once the master playlist is read. */
  renditions(list: Rendition[]): void;
  /** The rendition now playing (its index in the list) and whether the player chose it itself. */
  switched(index: number, auto: boolean): void;
  /** A playback URL was refused (expired, moved to another network, geo): the media must be asked for again. */
  refused(url: string): void;
  /** Playback cannot go on (a stream that is not HLS, codecs the browser lacks). */
  failed(): void;
}

export interface HlsSession {
  /** Resolves once the video has its MediaSource (its `src` set: a play() before that would be undone). */
  attached: Promise<void>;
  /** Pins a rendition by index, or -1 for automatic choice. */
  choose(index: number): void;
  /** Starts loading segments, from `at` seconds (the first play: nothing is fetched beyond the playlists before). */
  start(at?: number): void;
  destroy(): void;
}

const rendition = (level: Level): Rendition => ({
  width: level.width || null,
  height: level.height || null,
  bitrate: level.bitrate || null,
});

/** An empty WebVTT file as a `blob:` URL, made once: what the tracks hls.js adds load instead of `data:,WEBVTT`. */
let emptyVtt = '';

/**
 * hls.js gives each text track it adds to the video (the stream's subtitles and captions, its ID3 metadata) the
 * placeholder source `data:,WEBVTT`, which the page CSP components/README.md documents (`media-src 'self' blob: https:
 * http:`) refuses, with a violation report for each. The same empty file as a `blob:` URL (which that policy allows,
 * as MSE itself needs) is set instead, before the track joins the video and loads anything. Returns the undo.
 */
function blobPlaceholders(video: HTMLVideoElement): () => void {
  const append = video.appendChild;
  video.appendChild = function appendChild<T extends Node>(this: HTMLVideoElement, node: T): T {
    if (node instanceof HTMLTrackElement && node.getAttribute('src')?.startsWith('data:')) {
      node.src = emptyVtt ||= URL.createObjectURL(new Blob(['WEBVTT\n'], { type: 'text/vtt' }));
    }
    return append.call(this, node) as T;
  };
  return () => {
    delete (video as { appendChild?: unknown }).appendChild;
  };
}

/** Whether hls.js can play in this browser (its own MSE and codec checks). */
export const supported = (): boolean => Hls.isSupported();

/**
 * Plays `url` in `video` through MSE. Nothing beyond the playlists is fetched until `start()` (the element's
 * `preload="none"` for HLS). A refused playback URL (a 4xx from the worker) is never retried: it cannot get better,
 * so the player is told to renew its URLs instead.
 */
export function attachHls(video: HTMLVideoElement, url: string, callbacks: HlsCallbacks): HlsSession {
  const hls = new Hls({
    autoStartLoad: false,
    // Transmuxing on the page's thread: a worker would come from a blob: URL, which a publisher's CSP may forbid.
    enableWorker: false,
    // Never more pixels than the player shows (device pixels), whatever the bandwidth allows.
    capLevelToPlayerSize: true,
    // At most a minute ahead (hls.js would otherwise fill up to ten minutes of a low bitrate): a viewer who stops
    // early costs the publisher a minute of bytes, not the whole video.
    maxMaxBufferLength: 60,
  });
  let started = false;
  const attached = new Promise<void>((resolve) => hls.once(Events.MEDIA_ATTACHED, () => resolve()));
  hls.on(Events.MANIFEST_PARSED, (_, data) => callbacks.renditions(data.levels.map(rendition)));
  hls.on(Events.LEVEL_SWITCHED, (_, data) => callbacks.switched(data.level, hls.autoLevelEnabled));
  hls.on(Events.ERROR, (_, data: ErrorData) => {
    const status = data.response?.code ?? 0;
    if (data.type === ErrorTypes.NETWORK_ERROR && status >= 400 && status < 500) {
      callbacks.refused(data.url ?? data.frag?.url ?? url);
    } else if (data.fatal) {
      if (data.type === ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
      else callbacks.failed();
    }
  });
  const restore = blobPlaceholders(video);
  hls.loadSource(url);
  hls.attachMedia(video);
  return {
    attached,
    choose(index) {
      // Takes effect from the next segment, keeping what is buffered (no stall for a menu choice); -1 is automatic.
      // (`currentLevel` would switch at once by flushing the buffer.)
      hls.nextLevel = index;
    },
    start(at = -1) {
      if (started) return;
      started = true;
      hls.startLoad(at);
    },
    destroy() {
      hls.destroy();
      restore();
    },
  };
}
