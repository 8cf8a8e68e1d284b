/**
 * Ids go into upstream paths. A caller-supplied id must never change which route is called (`../players`, `a/b`,
 * `x?q=`), so every segment is checked before any request is built and then percent-encoded.
 */
import { InvalidArgumentError } from './errors.ts';
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

export function playlistTypeSegment(value: unknown): PlaylistType {
  if (!isPlaylistType(value)) {
    throw new InvalidArgumentError('type', `type must be one of ${PLAYLIST_TYPES.join(', ')}.`);
  }
  return value;
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
