/**
 * What a rendition is, read from what the platform sends: its `format` (a file extension: `mp4`, `m3u8`, `m4a`…) and
 * its delivery URL, never a MIME type (the platform's rendition has none). A rendition whose kind neither names is
 * left out of answers: a player given a source it cannot type would try it blind.
 */

/** MIME type by extension, for the formats a web player can be handed. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  m3u8: 'application/vnd.apple.mpegurl',
  mpd: 'application/dash+xml',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
};

/** The table's own entries only: a format or extension `constructor` or `__proto__` names no type. */
function typeOfExtension(extension: string): string | null {
  return Object.hasOwn(BY_EXTENSION, extension) ? BY_EXTENSION[extension]! : null;
}

/** Whether a MIME type (as the Delivery API states a source's) is one the table gives a player. */
export function isPlayableType(type: string): boolean {
  return Object.values(BY_EXTENSION).includes(type) || isHlsType(type);
}

const HLS_TYPES = ['application/vnd.apple.mpegurl', 'application/x-mpegurl'];

export function isHlsType(type: string | null | undefined): boolean {
  return typeof type === 'string' && HLS_TYPES.includes(type.toLowerCase());
}

/** The extension of a URL's last path segment, lower-cased; '' when it has none or is not a URL. */
function urlExtension(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    const dot = last.lastIndexOf('.');
    return dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
  } catch {
    return '';
  }
}

export interface RenditionShape {
  format?: unknown;
  delivery_url?: unknown;
  width?: unknown;
  height?: unknown;
}

/**
 * The MIME type of a rendition from its `format`, else its URL's extension; null when neither names a kind a player
 * plays. An MP4 without a picture (no width, no height) is audio, as the platform's AAC renditions are.
 */
export function sourceTypeOf(rendition: RenditionShape): string | null {
  const format = typeof rendition.format === 'string' ? rendition.format.trim().toLowerCase().replace(/^\./, '') : '';
  const url = typeof rendition.delivery_url === 'string' ? rendition.delivery_url : '';
  const type = typeOfExtension(format) ?? typeOfExtension(urlExtension(url));
  if (type === 'video/mp4' && !dimension(rendition.width) && !dimension(rendition.height)) return 'audio/mp4';
  return type;
}

/** A positive whole number of pixels, else null. */
export function dimension(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

/**
 * The label a quality menu shows, from the picture's size: `720p` by its height (a portrait picture by its width, so a
 * 1080×1920 rendition is `1080p` as its viewers expect), `Auto` for an adaptive stream, `Audio` with no picture.
 */
export function renditionLabel(type: string, width: number | null, height: number | null): string {
  if (isHlsType(type) || type === 'application/dash+xml') return 'Auto';
  if (width === null && height === null) return 'Audio';
  const lines = width !== null && height !== null ? Math.min(width, height) : (height ?? Math.round((width! * 9) / 16));
  return `${lines}p`;
}
