// A delivery folder an attacker controls, for the regression tests that playback URLs serve no page or script on
// the worker's own origin (stored XSS). Anyone who may write media can create an `external` media whose source
// is any URL, so its HLS folder can hold anything: here a real master playlist (with a variant and a real MPEG-TS
// segment) beside a web page, a script, an SVG with a script, a page named like a video and one named like a
// playlist. The edge worker must pass none of them on as something a browser would show as a page or run.
//
// Served under /cdn/hostile/ (public, like the rest of /cdn/). Nothing in the seed points here: a test makes the media,
// through /v2 (`upload: {method: "external", source_url: "<sandbox>/cdn/hostile/master.m3u8"}`), or with
// `POST /_sandbox/hostile-media` (`hostileMediaBody`), which needs no API secret: a browser test page, which cannot
// send the secret, asks for it through its own test server (the sandbox takes no control write from another origin).
import { errorResponse } from './http.ts';
import { SAMPLE_SECONDS, SAMPLE_VIDEO_TS } from './sample-media.ts';

export const HOSTILE_FOLDER = '/cdn/hostile/';
const HLS_MIME = 'application/vnd.apple.mpegurl';

/**
 * The address a script of the page asks with, as `?dev_ip=` (the edge worker honours it with DEV_MODE on only): the
 * Berlin fixture (geo-fixtures.ts), a visitor the `europe` policy allows. In production a real visitor's browser
 * needs no such thing, so without it the browser suite's DEV_MODE worker would refuse the script for a reason that
 * has nothing to do with its type, and a test could pass on code that still serves it.
 */
const ALLOWED_VISITOR = '192.0.2.30';

/** What the hostile scripts do when they run: a mark any test can look for, in the frame and in its parent. */
const MARK = (what: string) => `try { document.title = 'reelgate hostile ${what} ran'; } catch (e) {}
try { parent.postMessage({ reelgateHostile: '${what}' }, '*'); } catch (e) {}
try { parent.reelgateHostile = (parent.reelgateHostile || []).concat('${what}'); } catch (e) {}`;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>attacker page</title>
<script>${MARK('inline script')}</script>
<script src="evil.js"></script>
<script src="evil.js?dev_ip=${ALLOWED_VISITOR}"></script>
</head><body onload="${MARK('onload handler').replace(/"/g, '&quot;').replace(/\n/g, ' ')}">
<h1>Not a video</h1><img src="missing.png" onerror="${MARK('onerror handler').replace(/"/g, '&quot;').replace(/\n/g, ' ')}">
</body></html>
`;

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9" viewBox="0 0 16 9">
<rect width="16" height="9" fill="#000"/><script>${MARK('svg script')}</script></svg>
`;

type File = { type: string; body: string | Uint8Array };

const FILES: Record<string, File> = {
  'master.m3u8': { type: HLS_MIME, body: ['#EXTM3U', '#EXT-X-VERSION:3',
    '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360', 'v/index.m3u8', ''].join('\n') },
  'v/index.m3u8': { type: HLS_MIME, body: ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${SAMPLE_SECONDS}`,
    '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD', `#EXTINF:${SAMPLE_SECONDS.toFixed(1)},`, 'seg-0.ts',
    '#EXT-X-ENDLIST', ''].join('\n') },
  'v/seg-0.ts': { type: 'video/mp2t', body: SAMPLE_VIDEO_TS },
  'subs.vtt': { type: 'text/vtt; charset=utf-8', body: 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHello\n' },
  'key.bin': { type: 'application/octet-stream', body: new Uint8Array(16).fill(7) },
  // What must never pass as it is:
  'page.html': { type: 'text/html; charset=utf-8', body: PAGE },
  'evil.js': { type: 'text/javascript; charset=utf-8', body: `${MARK('script file')}\n` },
  'image.svg': { type: 'image/svg+xml', body: SVG },
  'styles.css': { type: 'text/css', body: 'body { background: red; }\n' },
  'data.json': { type: 'application/json', body: '{"reelgate":"hostile"}\n' },
  // A page named like a video, like a playlist, and a playlist named like nothing, reaching out of the folder.
  'clip.mp4': { type: 'text/html; charset=utf-8', body: PAGE },
  'page.m3u8': { type: 'text/html; charset=utf-8', body: PAGE },
  'playlist': { type: HLS_MIME, body: '#EXTM3U\n#EXTINF:6.0,\nhttps://elsewhere.example/seg.ts\n' },
  // A video that is really a page, with a type a browser does not render: no type at all, and nosniff decides.
  'untyped.bin': { type: '', body: PAGE },
};

/** The file names a test can point an external media at. */
export const HOSTILE_FILES: readonly string[] = Object.keys(FILES);

export function serveHostileFile(path: string): Response {
  const file = FILES[path.slice(HOSTILE_FOLDER.length)];
  if (!file) return errorResponse(404, 'not_found', `Nothing is served at ${path}.`);
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (file.type) headers['content-type'] = file.type;
  const body = typeof file.body === 'string' ? new TextEncoder().encode(file.body) : file.body;
  return new Response(body, { headers: { ...headers, 'content-length': String(body.length) } });
}

/**
 * The `POST /v2/sites/<site>/media/` body of an external media whose source is `file` of the hostile folder at
 * `origin`, published since 2020 (so a gated site's visitors are handed playback URLs for it).
 */
export function hostileMediaBody(origin: string, file: string): Record<string, unknown> {
  return {
    metadata: { title: 'Hostile folder (test fixture)', publish_start_date: '2020-01-01T00:00:00Z' },
    upload: { method: 'external', source_url: `${origin}${HOSTILE_FOLDER}${file}`,
      mime_type: file.endsWith('.m3u8') ? HLS_MIME : 'video/mp4' },
  };
}
