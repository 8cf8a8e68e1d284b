/**
 * HLS playlists through the worker: every URI in a master or media playlist (variants, segments, keys, init maps,
 * audio, subtitle and I-frame renditions, parts, preload hints, rendition reports, session data, content steering,
 * interstitial assets) becomes a playback URL under the same token. A URI outside the rendition's folder (another
 * host, `../`, a query) cannot be expressed by the token and is not passed on as an upstream URL either: the playlist
 * is refused (`PlaylistRefused`; the caller answers 502).
 *
 * The playlist is read as RFC 8216 writes it and as players tolerate it, and answered in one canonical form, so that
 * what a player reads is what was checked:
 * - Lines end with LF, CRLF or a lone CR (players that read line by line, ExoPlayer among them, end a line at a lone
 *   CR; a lone CR is refused by none). The answer ends every line with LF only.
 * - Characters RFC 8216 forbids (C0 and C1 controls but TAB, CR and LF) and the two that JavaScript players' regular
 *   expressions take for line ends (U+2028, U+2029) refuse the playlist, as does text that is not UTF-8, a first
 *   line that is not `#EXTM3U`, and `#EXT` anywhere but at the start of a line (hls.js finds `#EXT-X-MEDIA:` and
 *   others anywhere in a master playlist, inside a comment or a quoted value too).
 * - A line that is not blank and does not start with `#` (after spaces and tabs, which are dropped) is a URI.
 * - A tag's attribute list is `NAME=VALUE` pairs (names `[A-Z0-9-]`, values quoted strings or unquoted), with spaces
 *   and tabs tolerated around `=` and `,`; it is answered without them. An attribute list of a known tag that does
 *   not parse, or names an attribute twice, refuses the playlist. Tags the worker does not know are read the same
 *   way when their value is an attribute list.
 * - Every attribute named `URI`, ending in `URI` (`SERVER-URI`, `X-ASSET-URI`) or `X-ASSET-LIST` is a URI, quoted
 *   or not. No other value may be an absolute URL (`//host`, `scheme:/`, `http:host`), and `URI=` may appear in a tag
 *   only as one of those attributes.
 * - `#EXTINF` must be `<duration>,<title>` (hls.js reads a URI from the rest of an `#EXTINF:<duration>` line that
 *   has no comma).
 *
 * Bounds: at most `MAX_PLAYLIST_BYTES` are read from upstream (stopped there, never buffered whole), and a playlist
 * may name at most `MAX_PLAYLIST_URIS` URIs (each grows by the playback prefix, ~170 bytes, in the answer).
 */
import { readBoundedUtf8 } from '../http/bounded-text.ts';
import { withoutSignature } from '../signing/index.ts';

/** Why a playlist is not passed on. The message is the worker's own words (for the log), never upstream text. */
export class PlaylistRefused extends Error {
  override name = 'PlaylistRefused';
}
/** The former name of every refusal (a URI outside the folder was the only one); `instanceof` works with either. */
export { PlaylistRefused as PlaylistOutsideFolder };

/**
 * The most the worker reads of an upstream playlist: 2 MiB. A VOD or DVR media playlist of plain relative names
 * takes ~30 bytes a segment, so this holds ~70,000 segments (four days of 6 s segments, a 24 h window of 2 s ones);
 * a master playlist is a few KiB. Past it the read stops and the playlist is refused.
 */
export const MAX_PLAYLIST_BYTES = 2 * 1024 * 1024;
/**
 * The most URIs one playlist may name: 50,000 (each becomes `/api/play/<token>/…`, ~170 bytes more), so an answer
 * stays under ~11 MiB however short the upstream's lines are.
 */
export const MAX_PLAYLIST_URIS = 50_000;

/**
 * The path of `uri` (as written in the playlist at `playlistUrl`) inside `folder`, or throws. With `signed` (a site
 * whose property signs its URLs: the platform writes each URI of a signed playlist signed), a query that is only a
 * signature is dropped: the worker signs its own fetch of that file.
 */
export function folderPath(uri: string, playlistUrl: URL, folder: URL, signed = false): string {
  let target: URL;
  try {
    target = new URL(signed ? withoutSignature(uri) : uri, playlistUrl);
  } catch {
    throw new PlaylistRefused('not a URI');
  }
  if (target.origin !== folder.origin || !target.pathname.startsWith(folder.pathname) || target.search || target.hash) {
    throw new PlaylistRefused('a URI outside the folder');
  }
  const path = target.pathname.slice(folder.pathname.length);
  if (!/^[A-Za-z0-9_~-][A-Za-z0-9._~-]*(\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*$/.test(path)) {
    throw new PlaylistRefused('a URI that is not a plain path');
  }
  return path;
}

/**
 * The upstream playlist's text, read up to `limit` bytes: a declared Content-Length above it is refused before
 * reading, and a body that grows past it is cancelled there. Text that is not UTF-8 is refused (RFC 8216 §4.1).
 */
export async function readPlaylist(response: Response, limit = MAX_PLAYLIST_BYTES): Promise<string> {
  const read = await readBoundedUtf8(response, limit);
  if (read.ok) return read.text;
  throw new PlaylistRefused(read.reason === 'too_large' ? 'a playlist larger than the limit' : 'a playlist that is not UTF-8');
}

/** RFC 8216 §4.1: no C0 or C1 control but TAB, CR, LF; and U+2028/U+2029, line ends to JavaScript's `.`. */
const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;
const LINE_BREAK = /\r\n|\r|\n/;
const TAG = /^#(EXT[A-Z0-9-]*)(?::(.*))?$/;
const ATTRIBUTE_NAME = /^[A-Z0-9-]+$/;
/** `#EXT` where a player may take it for a tag, in any case. */
const TAG_MARK = /#ext/i;
/** A duration, then a comma, then the title (RFC 8216 §4.3.2.1). */
const EXTINF = /^[ \t]*(\d+(?:\.\d+)?)[ \t]*,(.*)$/;

/** Tags whose value is an attribute list (RFC 8216 and its successor draft, Apple's image and interstitial tags). */
const ATTRIBUTE_TAGS = new Set([
  'EXT-X-KEY', 'EXT-X-SESSION-KEY', 'EXT-X-MAP', 'EXT-X-MEDIA', 'EXT-X-STREAM-INF', 'EXT-X-I-FRAME-STREAM-INF',
  'EXT-X-IMAGE-STREAM-INF', 'EXT-X-PART', 'EXT-X-PART-INF', 'EXT-X-PRELOAD-HINT', 'EXT-X-RENDITION-REPORT',
  'EXT-X-SESSION-DATA', 'EXT-X-DATERANGE', 'EXT-X-CONTENT-STEERING', 'EXT-X-DEFINE', 'EXT-X-START', 'EXT-X-SKIP',
  'EXT-X-SERVER-CONTROL', 'EXT-X-TILES',
]);
/** Tags whose value is not an attribute list and holds no URI; passed on as written (`#EXTINF` is checked). */
const PLAIN_TAGS = new Set([
  'EXTM3U', 'EXTINF', 'EXT-X-VERSION', 'EXT-X-TARGETDURATION', 'EXT-X-MEDIA-SEQUENCE', 'EXT-X-DISCONTINUITY-SEQUENCE',
  'EXT-X-DISCONTINUITY', 'EXT-X-ENDLIST', 'EXT-X-PLAYLIST-TYPE', 'EXT-X-I-FRAMES-ONLY', 'EXT-X-INDEPENDENT-SEGMENTS',
  'EXT-X-BYTERANGE', 'EXT-X-PROGRAM-DATE-TIME', 'EXT-X-GAP', 'EXT-X-BITRATE', 'EXT-X-ALLOW-CACHE',
]);

/** An attribute that names a resource a player loads. */
function isUriAttribute(name: string): boolean {
  return name.endsWith('URI') || name === 'X-ASSET-LIST';
}

/**
 * Whether a value a player could take for a URL would leave the worker's origin: `//host` (or with backslashes, which
 * URL parsers read as slashes), `scheme:/…`, `scheme:\…`, or a special scheme without slashes (`https:host` against
 * an `http:` page). A relative value resolves against the playlist's own playback URL, on the worker.
 */
function looksAbsolute(value: string): boolean {
  const v = value.replace(/\t/g, '').trim();
  return /^[\\/]{2}/.test(v) || /^[A-Za-z][A-Za-z0-9+.-]*:[\\/]/.test(v) || /^(?:https?|wss?|ftp|file):[^\s]/i.test(v);
}

interface Attribute {
  name: string;
  value: string;
  quoted: boolean;
}

/**
 * An attribute list as players read it, or null when it does not parse: `NAME=VALUE` pairs separated by commas,
 * spaces and tabs around `=` and `,` tolerated, a trailing comma tolerated, a quoted value up to the next quote, an
 * unquoted one up to the next comma (not empty, no whitespace or quotes in it). A name given twice does not parse.
 */
function parseAttributes(text: string): Attribute[] | null {
  const attributes: Attribute[] = [];
  const names = new Set<string>();
  const n = text.length;
  let i = 0;
  const skipBlanks = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  skipBlanks();
  if (i === n) return null;
  while (i < n) {
    const nameStart = i;
    while (i < n && text[i] !== '=' && text[i] !== ',' && text[i] !== ' ' && text[i] !== '\t') i++;
    const name = text.slice(nameStart, i);
    if (!ATTRIBUTE_NAME.test(name) || names.has(name)) return null;
    names.add(name);
    skipBlanks();
    if (text[i] !== '=') return null;
    i++;
    skipBlanks();
    let value: string;
    let quoted = false;
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) return null;
      value = text.slice(i + 1, end);
      quoted = true;
      i = end + 1;
    } else {
      const start = i;
      while (i < n && text[i] !== ',') i++;
      value = text.slice(start, i).replace(/[ \t]+$/, '');
      if (!value || /[\s"]/.test(value)) return null;
    }
    attributes.push({ name, value, quoted });
    skipBlanks();
    if (i === n) break;
    if (text[i] !== ',') return null;
    i++;
    skipBlanks();
  }
  return attributes;
}

/**
 * The playlist with each URI replaced by `${prefix}${path in folder}${suffix}`. `prefix` is `/api/play/<token>/`;
 * `suffix` is empty except in development (the stand-in address, so a test's media element keeps its identity).
 * Throws `PlaylistRefused` for a playlist that cannot be passed on (see the top of this file).
 */
export function rewritePlaylist(text: string, playlistUrl: URL, folder: URL, prefix: string, suffix = '', signed = false): string {
  if (text.length > MAX_PLAYLIST_BYTES ||
    (text.length * 3 > MAX_PLAYLIST_BYTES && new TextEncoder().encode(text).length > MAX_PLAYLIST_BYTES)) {
    throw new PlaylistRefused('a playlist larger than the limit');
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (FORBIDDEN_CHARACTER.test(text)) throw new PlaylistRefused('a control character or line separator');
  const lines = text.split(LINE_BREAK);
  if (lines[0]!.replace(/[ \t]+$/, '') !== '#EXTM3U') throw new PlaylistRefused('no #EXTM3U first line');

  let uris = 0;
  const play = (uri: string): string => {
    if (++uris > MAX_PLAYLIST_URIS) throw new PlaylistRefused('more URIs than the limit');
    return `${prefix}${folderPath(uri.replace(/\t/g, '').trim(), playlistUrl, folder, signed)}${suffix}`;
  };
  const rewritten = (attributes: Attribute[]): string => attributes.map(({ name, value, quoted }) => {
    if (isUriAttribute(name)) return `${name}="${play(value)}"`;
    if (looksAbsolute(value)) throw new PlaylistRefused('an absolute URL in an attribute');
    return quoted ? `${name}="${value}"` : `${name}=${value}`;
  }).join(',');

  return lines.map((raw) => {
    const line = raw.replace(/^[ \t]+|[ \t]+$/g, '');
    if (!line) return '';
    if (TAG_MARK.test(line.slice(1))) throw new PlaylistRefused('#EXT inside a line');
    if (!line.startsWith('#')) return play(line);
    if (!/^#ext/i.test(line)) return line; // a comment: players skip it
    const tag = TAG.exec(line);
    if (!tag) throw new PlaylistRefused('a tag that does not parse');
    const name = tag[1]!;
    const value = tag[2];
    let out: string;
    if (value === undefined) {
      out = line;
    } else if (name === 'EXTINF') {
      const extinf = EXTINF.exec(value);
      if (!extinf) throw new PlaylistRefused('an #EXTINF without a duration and a comma');
      out = `#EXTINF:${extinf[1]},${extinf[2]}`;
    } else if (PLAIN_TAGS.has(name)) {
      out = line;
    } else {
      const attributes = parseAttributes(value);
      if (attributes) {
        out = `#${name}:${rewritten(attributes)}`;
      } else if (ATTRIBUTE_TAGS.has(name)) {
        throw new PlaylistRefused('an attribute list that does not parse');
      } else {
        // A tag this worker does not know, with a value that is no attribute list: passed on unless it holds a URL.
        if (value.split(/[\s,;="'()<>]+/).some(looksAbsolute)) throw new PlaylistRefused('an absolute URL in a tag');
        out = line;
      }
    }
    // What a player that looks for `URI=` anywhere in a tag (ExoPlayer does) finds is one of the rewritten URIs.
    for (const found of out.matchAll(/URI[ \t]*=/gi)) {
      if (!out.startsWith(`="${prefix}`, found.index + 3)) throw new PlaylistRefused('URI= outside a URI attribute');
    }
    return out;
  }).join('\n');
}

export function isPlaylist(path: string, contentType: string | null): boolean {
  const type = (contentType ?? '').toLowerCase();
  return path.endsWith('.m3u8') || type.includes('mpegurl');
}
