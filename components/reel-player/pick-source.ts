/** Chooses the rendition a player of a given size should load. */
import type { MediaSource } from '../../worker/contract/public-api.ts';

const HLS_TYPES = ['application/vnd.apple.mpegurl', 'application/x-mpegurl'];

/** A source the answer typed as HLS; a source with no type (an older or foreign answer) is not. */
export const isHls = (source: MediaSource): boolean =>
  typeof source.type === 'string' && HLS_TYPES.includes(source.type.toLowerCase());

/** Whether a source can be handed to a media element at all: a URL and a type to ask `canPlayType` about. */
const usable = (source: MediaSource): boolean =>
  typeof source?.url === 'string' && source.url !== '' && typeof source.type === 'string' && source.type !== '';

/**
 * HLS when the browser plays it natively (it adapts by itself); otherwise the narrowest progressive rendition at
 * least `targetWidth` device pixels wide, or the widest one when none is that wide. Sources without a width (audio)
 * come after sized ones. Null when nothing is playable.
 */
export function pickSource(sources: readonly MediaSource[], targetWidth: number,
  canPlay: (type: string) => boolean): MediaSource | null {
  const candidates = sources.filter(usable);
  const hls = candidates.find((s) => isHls(s) && canPlay(s.type));
  if (hls) return hls;
  const playable = candidates.filter((s) => !isHls(s) && canPlay(s.type));
  const sized = playable.filter((s) => typeof s.width === 'number' && s.width > 0)
    .sort((a, b) => a.width! - b.width!);
  if (sized.length) return sized.find((s) => s.width! >= targetWidth) ?? sized[sized.length - 1]!;
  return playable[0] ?? null;
}
