/**
 * What players could fetch from a playlist, read independently of the worker's own parser: the oracle of the HLS
 * suites (test/worker/playback-hls.test.ts) and of the fuzz's HLS cases (test/faults/fuzz.test.ts). It reads the
 * text three ways at once and keeps every URL any of them finds:
 * - as hls.js reads it: its master-playlist expressions run over the whole text (they find `#EXT-X-MEDIA:` and
 *   `#EXT-X-SESSION-KEY:` anywhere, not only at a line's start), its media-playlist expression (which takes a URI
 *   from what follows `#EXTINF:<duration>` when no comma does), and its attribute-list expression;
 * - as a line reader (ExoPlayer) reads it: lines end at LF, CR or CRLF, and `URI="…"` is searched anywhere in a tag;
 * - leniently: every `…URI` or `X-ASSET-LIST` attribute of any tag line (`#EXT`, in any case), with spaces around
 *   `=`, quoted or not, and every line not starting with `#`, lines ended by U+2028/U+2029 as well.
 * Comments (`#` lines that are no tag) are read only as hls.js reads them.
 */

/** hls.js's attribute-list expression: a name up to `=`, a quoted value or anything up to a comma. */
function hlsJsAttributes(list: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of list.matchAll(/(.+?)=(".*?"|.*?)(?:,|$)/g)) {
    const value = match[2]!;
    out.set(match[1]!.trim(), value.startsWith('"') && value.endsWith('"') && value.length > 1 ? value.slice(1, -1) : value);
  }
  return out;
}

function uriAttributes(attributes: Map<string, string>): string[] {
  return [...attributes].filter(([name]) => /URI$|^X-ASSET-LIST$/i.test(name)).map(([, value]) => value);
}

/** Every URI hls.js takes from `text`, master and media playlist readings both. */
function asHlsJs(text: string): string[] {
  const found: string[] = [];
  const master = /#EXT-X-STREAM-INF:([^\r\n]*)(?:[\r\n](?:#[^\r\n]*)?)*([^\r\n]+)|#EXT-X-(SESSION-DATA|SESSION-KEY|DEFINE|CONTENT-STEERING|START):([^\r\n]*)[\r\n]+/g;
  for (const match of text.matchAll(master)) {
    if (match[2] !== undefined) found.push(match[2]);
    if (match[4] !== undefined) found.push(...uriAttributes(hlsJsAttributes(match[4])));
  }
  for (const match of text.matchAll(/#EXT-X-(?:MEDIA|I-FRAME-STREAM-INF|IMAGE-STREAM-INF):(.*)/g)) {
    found.push(...uriAttributes(hlsJsAttributes(match[1]!)));
  }
  const level = /#EXTINF:\s*(\d*(?:\.\d+)?)(?:,(.*)\s+)?|(?!#) *(\S[^\r\n]*)|#.*/g;
  for (const match of text.matchAll(level)) {
    if (match[3] !== undefined) found.push(match[3]);
    const tag = /#EXT-X-(?:DATERANGE|DEFINE|KEY|MAP|PART|PART-INF|PLAYLIST-TYPE|PRELOAD-HINT|RENDITION-REPORT|SERVER-CONTROL|SKIP|START):(.+)/
      .exec(match[0]);
    if (tag) found.push(...uriAttributes(hlsJsAttributes(tag[1]!)));
  }
  return found;
}

/** Every URI a line reader that searches `URI="…"` in tags (ExoPlayer) takes. */
function asLineReader(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (!line.startsWith('#')) {
      if (line.trim()) found.push(line.trim());
    } else if (line.startsWith('#EXT')) {
      for (const match of line.matchAll(/URI="(.+?)"/g)) found.push(match[1]!);
    }
  }
  return found;
}

/** Every URI a lenient reader takes: any `…URI` attribute however spelled, any line not starting with `#`. */
function asLenient(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split(/\r\n|\r|\n|\u2028|\u2029/)) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    if (!trimmed.startsWith('#')) {
      found.push(trimmed);
      continue;
    }
    if (!/^#ext/i.test(trimmed)) continue; // a comment
    for (const match of trimmed.matchAll(/([A-Za-z0-9-]*URI|X-ASSET-LIST)\s*=\s*(?:"([^"]*)"?|([^,]*))/gi)) {
      found.push(match[2] ?? match[3] ?? '');
    }
  }
  return found;
}

/**
 * The URLs players could take from a playlist answered at `at` that do not stay on `at`'s origin: empty for a
 * playlist the worker may hand out.
 */
export function escapingUrls(text: string, at: string): string[] {
  const base = new URL(at);
  const escaping = new Set<string>();
  for (const uri of playlistUris(text)) {
    let url: URL;
    try {
      url = new URL(uri, base);
    } catch {
      continue; // not a URL: nothing is fetched
    }
    if (url.origin !== base.origin) escaping.add(uri);
  }
  return [...escaping];
}

/** Every URI any of the three readings takes from a playlist. */
export function playlistUris(text: string): string[] {
  return [...asHlsJs(text), ...asLineReader(text), ...asLenient(text)];
}

/** The sandbox's test-only path that serves `playlist` as an HLS master (demo/sandbox/assets.ts, `testHls`). */
export function echoPath(playlist: string): string {
  const bytes = new TextEncoder().encode(playlist);
  const b64 = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `/cdn/test-hls/echo/${b64}/master.m3u8`;
}
