/**
 * Ids go into upstream paths. A caller-supplied id must never change which route is called (`../players`, `a/b`,
 * `x?q=`), so every segment is checked before any request is built and then percent-encoded.
 */
import { InvalidArgumentError } from './invalid-argument.ts';
import { PLAYLIST_TYPES, type PlaylistType } from './v2-types.ts';

const MAX_SEGMENT_LENGTH = 256;
// Control characters and the characters that would end or split a path segment.
const FORBIDDEN = /[\u0000-\u001f\u007f/?#\\]/;

/** Returns the encoded segment, or throws `InvalidArgumentError` naming the argument. */
export function pathSegment(argument: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidArgumentError(argument, `${argument} must be a non-empty string.`);
  }
  if (value.length > MAX_SEGMENT_LENGTH) {
    throw new InvalidArgumentError(argument, `${argument} is longer than ${MAX_SEGMENT_LENGTH} characters.`);
  }
  if (FORBIDDEN.test(value) || value.includes('..') || value === '.') {
    throw new InvalidArgumentError(argument, `${argument} must not contain '/', '?', '#', '\\', '..' or control characters.`);
  }
  return encodeURIComponent(value);
}

export function isPlaylistType(value: unknown): value is PlaylistType {
  return typeof value === 'string' && (PLAYLIST_TYPES as readonly string[]).includes(value);
}

/** The path spelling of every type: `manual_playlist`, `dynamic_playlist`, … */
export const PLAYLIST_TYPE_SEGMENTS: readonly string[] = PLAYLIST_TYPES.map((type) => `${type}_playlist`);

/**
 * The path segment of a playlist type, as the platform spells it: `manual` → `manual_playlist` (both official clients
 * build `playlists/<type>_playlist/` and `playlists/<id>/<type>_playlist/`). Either spelling may be given.
 */
export function playlistTypeSegment(value: unknown): string {
  const type = readPlaylistType(value);
  if (type === null) {
    throw new InvalidArgumentError('type', `type must be one of ${PLAYLIST_TYPES.join(', ')}.`);
  }
  return `${type}_playlist`;
}

/** The type a path segment names: only the platform's spelling (`manual_playlist`); anything else is null. */
export function playlistTypeFromSegment(segment: string): PlaylistType | null {
  if (!segment.endsWith('_playlist')) return null;
  const type = segment.slice(0, -'_playlist'.length);
  return isPlaylistType(type) ? type : null;
}

/** A playlist's type read from an answer, whichever way it is written (`manual` or `manual_playlist`); else null. */
export function readPlaylistType(value: unknown): PlaylistType | null {
  if (isPlaylistType(value)) return value;
  return typeof value === 'string' ? playlistTypeFromSegment(value) : null;
}

/**
 * Why a typed-playlist path segment is refused, naming what is accepted: the short spelling gets the platform's
 * (`'manual' → 'manual_playlist'`). One text for the sandbox and the gateway, so both refuse alike.
 */
export function playlistTypeRefusal(segment: string): string {
  const hint = isPlaylistType(segment) ? ` The platform spells it '${segment}_playlist'.` : '';
  const shown = segment.length > 64 ? `${segment.slice(0, 64)}…` : segment;
  return `'${shown}' is not a playlist type path segment.${hint} Use one of ${PLAYLIST_TYPE_SEGMENTS.join(', ')}.`;
}

/**
 * A whole `/v2/...` path given to `raw()`: each segment is checked like an id, though already-encoded segments
 * (`%20`) are kept as they are. An empty last segment (the trailing slash) is allowed, empty middle ones are not.
 */
export function checkRawV2Path(path: unknown): string {
  if (typeof path !== 'string' || !path.startsWith('/v2/')) {
    throw new InvalidArgumentError('path', "path must start with '/v2/'.");
  }
  const segments = path.slice(1).split('/');
  segments.forEach((segment, index) => {
    if (segment === '' && index === segments.length - 1) return;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new InvalidArgumentError('path', 'path holds a malformed percent-encoding.');
    }
    pathSegment('path', decoded);
    // The segment is sent as given; it may only hold characters that need no further encoding.
    if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:@%]+$/.test(segment)) {
      throw new InvalidArgumentError('path', 'path segments must be percent-encoded.');
    }
  });
  return path;
}
