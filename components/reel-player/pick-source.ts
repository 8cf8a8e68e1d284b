/** Chooses what a player loads: which rendition, and which playback engine plays it. */
import type { MediaSource } from '../../worker/contract/public-api.ts';

const HLS_TYPES = ['application/vnd.apple.mpegurl', 'application/x-mpegurl'];

/** A source the answer typed as HLS; a source with no type (an older or foreign answer) is not. */
export const isHls = (source: MediaSource): boolean =>
  typeof source.type === 'string' && HLS_TYPES.includes(source.type.toLowerCase());

/** Whether a source can be handed to a media element at all: a URL and a type to ask `canPlayType` about. */
const usable = (source: MediaSource): boolean =>
  typeof source?.url === 'string' && source.url !== '' && typeof source.type === 'string' && source.type !== '';

/**
 * How a source is played: `native` (the `<video>` is given the HLS playlist itself), `mse` (HLS through Media Source
 * Extensions, by hls.js, loaded as a separate chunk only then) or `progressive` (one MP4 or audio file).
 */
export type PlaybackEngine = 'native' | 'mse' | 'progressive';

/** What the browser offers: the answers the engine choice needs, asked once per pick. */
export interface PlaybackSupport {
  /** `canPlayType` of the `<video>` element: non-empty. */
  canPlay(type: string): boolean;
  /** Media Source Extensions that can take H.264/AAC (`MediaSource` or `ManagedMediaSource`). */
  mse: boolean;
  /** `ManagedMediaSource` exists: Safari 17+ (macOS, iPadOS, iOS 17.1+), where native HLS is the platform's own. */
  managed: boolean;
}

/** What this browser offers, read from its globals. */
export function browserSupport(): PlaybackSupport {
  const probe = document.createElement('video');
  const g = globalThis as { MediaSource?: typeof MediaSource; ManagedMediaSource?: typeof MediaSource };
  return {
    canPlay: (type) => probe.canPlayType(type) !== '',
    mse: !!(g.ManagedMediaSource ?? g.MediaSource)?.isTypeSupported?.('video/mp4; codecs="avc1.42E01E,mp4a.40.2"'),
    managed: !!g.ManagedMediaSource,
  };
}

export interface Pick {
  source: MediaSource;
  engine: PlaybackEngine;
}

/**
 * HLS when the browser can play it adaptively: natively only where that is trusted, a browser that says it plays HLS
 * and either has `ManagedMediaSource` (Safari 17+, every Apple device since iOS 17.1) or has no MSE at all (older
 * iPhones, where native is the only way); else through MSE. Chrome now answers `maybe` for HLS too, but its new native
 * path stalls on some streams (crbug.com/454630434): with MSE there, hls.js plays it, as mux-player and hls.js's
 * own README now advise. Otherwise the narrowest progressive rendition at least `targetWidth` device pixels wide, or
 * the widest one when none is that wide. Sources without a width (audio) come after sized ones. Null when nothing is
 * playable.
 */
export function pickPlayback(sources: readonly MediaSource[], targetWidth: number, support: PlaybackSupport): Pick | null {
  const candidates = sources.filter(usable);
  const hls = candidates.find(isHls);
  if (hls && support.canPlay(hls.type) && (support.managed || !support.mse)) return { source: hls, engine: 'native' };
  if (hls && support.mse) return { source: hls, engine: 'mse' };
  const playable = candidates.filter((s) => !isHls(s) && support.canPlay(s.type));
  const sized = playable.filter((s) => typeof s.width === 'number' && s.width > 0)
    .sort((a, b) => a.width! - b.width!);
  const source = sized.length ? sized.find((s) => s.width! >= targetWidth) ?? sized[sized.length - 1]! : playable[0];
  return source ? { source, engine: 'progressive' } : null;
}
