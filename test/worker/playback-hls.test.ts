// The HLS rewriter once let some absolute URLs through: `URI=http://host/…` unquoted, `URI = "…"`
// and lines separated by a lone CR came back with the upstream URL unchanged, and a 44 MB upstream playlist was
// buffered whole and answered as 266 MB. The rewriter (worker/playback/hls.ts) reads playlists as players do and
// either rewrites every URI to a playback URL or refuses the playlist (502 upstream_unavailable); it reads at most
// MAX_PLAYLIST_BYTES. What players could fetch from an answer is judged by an oracle that reads the text as hls.js, a
// line reader and a lenient reader would (playlist-oracle.ts), never by the rewriter's own parser.
import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MediaResponse } from '../../worker/contract/public-api.ts';
import {
  MAX_PLAYLIST_BYTES, MAX_PLAYLIST_URIS, PlaylistOutsideFolder, PlaylistRefused, readPlaylist, rewritePlaylist,
} from '../../worker/playback/hls.ts';
import { api, EUROPE_SITE, expectError, resetWorld, sandbox } from './helpers.ts';
import { echoPath, escapingUrls } from './playlist-oracle.ts';

const folder = new URL('https://cdn.example/hls/Zz9Yy8Xx/');
const at = new URL('360p/index.m3u8', folder);
const prefix = '/api/play/TOKEN/';
/** Where the worker answers that playlist: the oracle resolves what it finds against this. */
const answeredAt = 'https://reelgate.test/api/play/TOKEN/360p/index.m3u8';
const EVIL = 'http://evil.example/k.key';

const rewrite = (text: string, suffix = '') => rewritePlaylist(text, at, folder, prefix, suffix);
const refused = (text: string) => expect(() => rewrite(text), JSON.stringify(text).slice(0, 300)).toThrow(PlaylistRefused);
/** The rewrite of `text`, checked by the oracle: nothing in it leads off the worker's origin. */
function safeRewrite(text: string): string {
  const out = rewrite(text);
  expect(escapingUrls(out, answeredAt), JSON.stringify(out)).toEqual([]);
  return out;
}

describe('the HLS rewriter lets no absolute URL through', () => {
  it('the reported bypasses are refused: an unquoted URI, spaces around "=", lines separated by a lone CR', () => {
    refused(`#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=${EVIL}\n#EXTINF:6.0,\nseg-0.ts\n`);
    refused(`#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI = "${EVIL}"\n#EXTINF:6.0,\nseg-0.ts\n`);
    refused(`#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI\t=\t"${EVIL}"\n`);
    refused(`#EXTM3U\r#EXTINF:6.0,\r${EVIL}\r`);
    refused(`#EXTM3U\r#EXT-X-KEY:METHOD=AES-128,URI="${EVIL}"\r#EXTINF:6.0,\rseg-0.ts\r`);
    // The same forms inside the folder are rewritten, into one canonical spelling every player reads alike.
    expect(safeRewrite('#EXTM3U\r#EXT-X-KEY:METHOD=AES-128 , URI = k.key ,IV=0x1\r#EXTINF:6.0,\rseg-0.ts\r').split('\n')).toEqual([
      '#EXTM3U', '#EXT-X-KEY:METHOD=AES-128,URI="/api/play/TOKEN/360p/k.key",IV=0x1', '#EXTINF:6.0,',
      '/api/play/TOKEN/360p/seg-0.ts', '']);
    expect(safeRewrite('#EXTM3U\r\n#EXT-X-MAP:URI = "init.mp4"\r\n  seg-0.m4s  \r\n')).toBe(
      '#EXTM3U\n#EXT-X-MAP:URI="/api/play/TOKEN/360p/init.mp4"\n/api/play/TOKEN/360p/seg-0.m4s\n');
  });

  it('every tag that can carry a URI has it rewritten, or the playlist refused when it leaves the folder', () => {
    const tags: Array<[string, string]> = [
      ['#EXT-X-KEY:METHOD=AES-128,URI=', ''],
      ['#EXT-X-SESSION-KEY:METHOD=AES-128,URI=', ''],
      ['#EXT-X-MAP:URI=', ',BYTERANGE="720@0"'],
      ['#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",URI=', ''],
      ['#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI=', ''],
      ['#EXT-X-IMAGE-STREAM-INF:BANDWIDTH=16000,RESOLUTION=320x180,URI=', ''],
      ['#EXT-X-PART:DURATION=0.5,URI=', ',INDEPENDENT=YES'],
      ['#EXT-X-PRELOAD-HINT:TYPE=PART,URI=', ''],
      ['#EXT-X-RENDITION-REPORT:URI=', ',LAST-MSN=10,LAST-PART=2'],
      ['#EXT-X-SESSION-DATA:DATA-ID="com.example.lyrics",URI=', ''],
      ['#EXT-X-CONTENT-STEERING:SERVER-URI=', ',PATHWAY-ID="CDN-A"'],
      ['#EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2020-01-01T00:00:00Z",X-ASSET-URI=', ''],
      ['#EXT-X-DATERANGE:ID="ad2",CLASS="com.apple.hls.interstitial",START-DATE="2020-01-01T00:00:00Z",X-ASSET-LIST=', ''],
      ['#EXT-X-SOMETHING-NEW:X-COM-EXAMPLE-URI=', ''],
    ];
    for (const [head, tail] of tags) {
      for (const quote of ['"', '']) {
        const out = safeRewrite(`#EXTM3U\n${head}${quote}file.bin${quote}${tail}\n`);
        expect(out, head).toContain(`="/api/play/TOKEN/360p/file.bin"${tail}\n`);
        for (const uri of [EVIL, '//evil.example/k', 'http:evil.example/k', '\\\\evil.example\\k', '../../Other000/k', 'k?x=1']) {
          refused(`#EXTM3U\n${head}${quote}${uri}${quote}${tail}\n`);
          refused(`#EXTM3U\n${head.replace(/=$/, ' = ')}${quote}${uri}${quote}${tail}\n`);
        }
      }
    }
    // URI lines, with whatever spaces and tabs around them.
    expect(safeRewrite('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n\t720p/index.m3u8 \n')).toBe(
      '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n/api/play/TOKEN/360p/720p/index.m3u8\n');
    for (const uri of [EVIL, ' //evil.example/x', 'http:evil.example/x', 'ht\ttp://evil.example/x', '/\\evil.example/x']) {
      refused(`#EXTM3U\n#EXTINF:6.0,\n${uri}\n`);
    }
  });

  it('what players find where the rewriter would not look is refused: #EXT inside a line, #EXTINF without a comma, URI= in a value', () => {
    // hls.js runs its master-playlist expressions over the whole text: a comment or a quoted value can hold a tag.
    refused(`#EXTM3U\n# note #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",URI="${EVIL}"\n`);
    refused(`#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID="x",VALUE="#EXT-X-MEDIA:TYPE=AUDIO,URI=${EVIL}"\n`);
    refused(`#EXTM3U\n#EXTINF:6.0,#EXT-X-SESSION-KEY:METHOD=AES-128,URI="${EVIL}"\n`);
    // hls.js takes a URI from what follows `#EXTINF:<duration>` when no comma comes next.
    refused('#EXTM3U\n#EXTINF:6 //evil.example/seg.ts\n');
    refused('#EXTM3U\n#EXTINF:6.0\n');
    // A line reader that searches `URI="` anywhere in a tag (ExoPlayer) must only find rewritten ones.
    refused(`#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="URI=",X-Y="z"\n`);
    refused(`#EXTM3U\n#EXTINF:6.0,URI="${EVIL}"\nseg-0.ts\n`);
    // A name given twice (players differ on which one wins), a name in lower case, a quote never closed.
    refused(`#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="k.key",URI="${EVIL}"\n`);
    refused(`#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,uri="${EVIL}"\n`);
    refused(`#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="${EVIL}\n`);
    refused(`#EXTM3U\n#ext-x-key:METHOD=AES-128,URI="${EVIL}"\n`);
    refused(`#EXTM3U\n#EXT-X-KEY :METHOD=AES-128,URI="${EVIL}"\n`);
    // Any other value that is an absolute URL: client attributes, session data, a tag the worker does not know.
    refused('#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID="com.example.poster",VALUE="https://evil.example/p.jpg"\n');
    refused('#EXTM3U\n#EXT-X-DATERANGE:ID="a",START-DATE="2020-01-01T00:00:00Z",X-COM-EXAMPLE-BEACON="//evil.example/b"\n');
    refused('#EXTM3U\n#EXT-X-TWITCH-PREFETCH:https://evil.example/seg.ts\n');
    // Characters RFC 8216 forbids, and U+2028/U+2029 (line ends to hls.js's expressions); a missing #EXTM3U.
    refused(`#EXTM3U\n#EXTINF:6.0,\u2028${EVIL}\n`);
    refused('#EXTM3U\n#EXTINF:6.0,\u0000\nseg-0.ts\n');
    refused('#EXTM3U\n#EXTINF:6.0,\u0085\nseg-0.ts\n');
    refused('#EXTINF:6.0,\nseg-0.ts\n');
    refused('<!doctype html><script>alert(1)</script>');
    // The former name of the refusal still catches every one.
    expect(() => rewrite('#EXTINF:6.0,\nseg-0.ts\n')).toThrow(PlaylistOutsideFolder);
  });

  it('a well-formed playlist keeps every tag, comment and value; titles, key formats and dates are not URLs', () => {
    const text = [
      '#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-TARGETDURATION:6', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD',
      '#EXT-X-INDEPENDENT-SEGMENTS', '#EXT-X-KEY:METHOD=SAMPLE-AES,KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed",KEYFORMATVERSIONS="1",URI="keys/k.bin"',
      '#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z', '#EXTINF:6.006,Recap: the first part', '#EXT-X-BYTERANGE:1000@0',
      'seg-0.ts', '# a comment', '#EXT-X-DISCONTINUITY', '#EXT-X-CUE-OUT:30', '#EXT-OATCLS-SCTE35:/DAlAAAAAAAAAP/wFAUAAAACf+/+', '#EXTINF:6,',
      'seg-1.ts', '#EXT-X-ENDLIST', '',
    ].join('\n');
    expect(safeRewrite(text)).toBe(text.replace('URI="keys/k.bin"', 'URI="/api/play/TOKEN/360p/keys/k.bin"')
      .replace('\nseg-0.ts', '\n/api/play/TOKEN/360p/seg-0.ts').replace('\nseg-1.ts', '\n/api/play/TOKEN/360p/seg-1.ts'));
    // A byte order mark is dropped; the development suffix rides on every URI.
    expect(rewrite('\uFEFF#EXTM3U\n#EXT-X-MAP:URI="i.mp4"\ns.m4s', '?dev_ip=1')).toBe(
      '#EXTM3U\n#EXT-X-MAP:URI="/api/play/TOKEN/360p/i.mp4?dev_ip=1"\n/api/play/TOKEN/360p/s.m4s?dev_ip=1');
  });

  it('hostile playlists, generated: each is refused or answered with nothing an hls.js, line or lenient reader takes off the origin', () => {
    const uri = fc.constantFrom('seg-0.ts', 'k.key', '../720p/seg.ts', 'sub/x.m3u8', EVIL, 'https://evil.example/x', '//evil.example/x',
      'https:evil.example/x', 'HTTP://EVIL.EXAMPLE/x', '\\\\evil.example\\x', '/\\evil.example/x', 'ht\ttp://evil.example/x',
      ' http://evil.example/x ', 'data:text/plain,x', 'skd://k', 'https://cdn.example/hls/Zz9Yy8Xx/360p/seg-1.ts',
      '../../Other000/seg.ts', 'seg.ts?x=1', '{$host}/x', '%2e%2e/x', 'seg.ts#x', 'a"b', 'x,URI=http://evil.example/');
    const name = fc.constantFrom('URI', 'uri', 'X-ASSET-URI', 'SERVER-URI', 'X-ASSET-LIST', 'X-URI', 'URI ', ' URI', 'XURI');
    const equals = fc.constantFrom('=', ' = ', '=\t', ' =', '= ');
    const attribute = fc.oneof(
      fc.tuple(name, equals, fc.boolean(), uri).map(([n, e, q, u]) => `${n}${e}${q ? `"${u}"` : u}`),
      fc.constantFrom('METHOD=AES-128', 'TYPE=AUDIO', 'GROUP-ID="a"', 'NAME="x,y"', 'BANDWIDTH=1', 'IV=0x1',
        'VALUE="https://evil.example/"', 'NAME="#EXT-X-MEDIA:URI=http://evil.example/"', 'X-COM-BEACON="//evil.example/b"',
        'NAME="URI="', 'A=', '=x', 'B="unclosed'),
    );
    const tagName = fc.constantFrom('EXT-X-KEY', 'EXT-X-SESSION-KEY', 'EXT-X-MAP', 'EXT-X-MEDIA', 'EXT-X-I-FRAME-STREAM-INF',
      'EXT-X-PART', 'EXT-X-PRELOAD-HINT', 'EXT-X-RENDITION-REPORT', 'EXT-X-SESSION-DATA', 'EXT-X-DATERANGE',
      'EXT-X-CONTENT-STEERING', 'EXT-X-IMAGE-STREAM-INF', 'EXT-X-STREAM-INF', 'EXT-X-SOMETHING-NEW', 'ext-x-key', 'EXTINF');
    const tagLine = fc.tuple(tagName, fc.array(attribute, { maxLength: 4 }), fc.constantFrom(',', ', ', ' ,', ',,'))
      .map(([t, attributes, comma]) => `#${t}:${attributes.join(comma)}`);
    const line = fc.oneof(
      { weight: 6, arbitrary: tagLine },
      { weight: 3, arbitrary: fc.tuple(fc.constantFrom('', ' ', '\t'), uri).map(([lead, u]) => `${lead}${u}`) },
      { weight: 2, arbitrary: fc.constantFrom('#EXTINF:6.0,', '#EXTINF:6 http://evil.example/x.ts', '#EXTINF:6,//evil.example/x',
        '#EXTINF:6.0', '#EXTINF:6//evil.example/x', '#EXT-X-STREAM-INF:BANDWIDTH=1', '', ' #EXT-X-KEY:URI=http://evil.example/',
        '# note', '# a #EXT-X-MEDIA:TYPE=AUDIO,URI="http://evil.example/a.m3u8"', '#EXT-X-TWITCH-PREFETCH:https://evil.example/s.ts',
        '#EXT-X-CUE-OUT:30', `#EXTINF:6,\u2028${EVIL}`, '#EXTINF:6,\u000b//evil.example/x') },
    );
    const separator = fc.constantFrom('\n', '\r\n', '\r', '\n\r', '\u2028', '\u2029', '\r\r\n');
    const playlist = fc.array(fc.tuple(line, separator), { minLength: 1, maxLength: 8 })
      .map((lines) => `#EXTM3U\n${lines.map(([l, s]) => `${l}${s}`).join('')}`);
    let answered = 0;
    fc.assert(fc.property(playlist, (text) => {
      let out: string;
      try {
        out = rewrite(text);
      } catch (error) {
        if (error instanceof PlaylistRefused) return;
        throw error;
      }
      answered += 1;
      expect(escapingUrls(out, answeredAt), JSON.stringify([text, out])).toEqual([]);
      for (const l of out.split('\n')) if (l && !l.startsWith('#')) expect(l.startsWith(prefix), l).toBe(true);
    }), { numRuns: 5000, seed: 22_003 });
    // Not everything is refused: playlists of in-folder URIs come through.
    expect(answered).toBeGreaterThan(50);
  });

  it('bounds what it reads and writes: more than MAX_PLAYLIST_BYTES or MAX_PLAYLIST_URIS is refused', async () => {
    const big = `#EXTM3U\n${'#EXT-X-CUE-OUT:30\n'.repeat(Math.ceil(MAX_PLAYLIST_BYTES / 18))}`;
    expect(big.length).toBeGreaterThan(MAX_PLAYLIST_BYTES);
    refused(big);
    // Short lines grow by the playback prefix: the URI count is bounded too.
    const many = (n: number) => `#EXTM3U\n${'s\n'.repeat(n)}`;
    expect(rewrite(many(MAX_PLAYLIST_URIS)).split('\n').length).toBe(MAX_PLAYLIST_URIS + 2);
    refused(many(MAX_PLAYLIST_URIS + 1));

    // The read stops at the limit: a declared length above it is refused before one byte is read...
    let pulls = 0;
    const endless = () => new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(new TextEncoder().encode('#EXTINF:6.0,\nseg.ts\n'.repeat(3000)));
      },
    }, { highWaterMark: 0 });
    await expect(readPlaylist(new Response(endless(), { headers: { 'content-length': String(44 * 1024 * 1024) } })))
      .rejects.toThrow(PlaylistRefused);
    expect(pulls).toBe(0);
    // ... and an endless body without a length is read to just past the limit, then cancelled.
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(new TextEncoder().encode('#EXTINF:6.0,\nseg.ts\n'.repeat(3000)));
      },
      cancel() {
        cancelled = true;
      },
    }, { highWaterMark: 0 });
    await expect(readPlaylist(new Response(body))).rejects.toThrow(PlaylistRefused);
    expect(cancelled).toBe(true);
    expect(pulls * 60_000).toBeLessThanOrEqual(MAX_PLAYLIST_BYTES + 2 * 60_000);
    // Within the limit: the text, without a byte order mark; bytes that are not UTF-8 are refused.
    expect(await readPlaylist(new Response('\uFEFF#EXTM3U\nseg.ts\n'))).toBe('#EXTM3U\nseg.ts\n');
    expect(await readPlaylist(new Response('#EXTM3U\n'), 8)).toBe('#EXTM3U\n');
    await expect(readPlaylist(new Response('#EXTM3U\n!'), 8)).rejects.toThrow(PlaylistRefused);
    await expect(readPlaylist(new Response(new Uint8Array([0x23, 0xff, 0x0a])))).rejects.toThrow(PlaylistRefused);
  });
});

// Through the worker: an `external` media whose source is a hostile playlist the sandbox serves
// (`/cdn/test-hls/`, demo/sandbox/assets.ts), played by an allowed visitor as the attacker's viewers would.
const BERLIN = '192.0.2.30';
const HLS = 'application/vnd.apple.mpegurl';

/** The playback URL of a new external HLS media of the europe site whose source is the sandbox's `path`. */
async function hostileMedia(path: string): Promise<string> {
  const created = await sandbox(`/v2/sites/${EUROPE_SITE}/media/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      metadata: { title: 'A hostile playlist', publish_start_date: '2020-01-01T00:00:00Z' },
      upload: { method: 'external', source_url: `http://sandbox.test${path}`, mime_type: HLS },
    }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const { id } = await created.json<{ id: string }>();
  const response = await api(`/api/sites/${EUROPE_SITE}/media/${id}`, { ip: BERLIN });
  expect(response.status).toBe(200);
  const source = (await response.json<MediaResponse>()).sources.find((s) => s.type === HLS);
  expect(source?.url).toMatch(/^\/api\/play\/[A-Za-z0-9_-]+\/[a-z]+\.m3u8$/);
  return source!.url;
}

describe('through the worker: hostile upstream playlists are refused with 502, never passed on', () => {
  beforeEach(async () => {
    await resetWorld();
  });

  it('an unquoted key URI, a spaced one and CR-separated lines pointing elsewhere: 502 upstream_unavailable', async () => {
    for (const playlist of [
      `#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI=${EVIL}\n#EXTINF:6.0,\nseg-0.ts\n`,
      `#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI = "${EVIL}"\n#EXTINF:6.0,\nseg-0.ts\n`,
      `#EXTM3U\r#EXT-X-TARGETDURATION:6\r#EXTINF:6.0,\r${EVIL}\r`,
      `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\r//evil.example/v.m3u8\n`,
    ]) {
      await expectError(await api(await hostileMedia(echoPath(playlist)), { ip: BERLIN }), 502, 'upstream_unavailable');
    }
  });

  it('the same forms inside the folder are answered rewritten: LF lines, every URI a playback URL', async () => {
    const url = await hostileMedia(echoPath('#EXTM3U\r#EXT-X-KEY:METHOD=AES-128,URI=k.key\r#EXT-X-MAP:URI = "init.mp4"\r#EXTINF:6.0,\rseg-0.m4s\r'));
    const response = await api(url, { ip: BERLIN });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(HLS);
    const folderUrl = url.replace(/[^/]+$/, '');
    expect((await response.text()).split('\n')).toEqual(['#EXTM3U', `#EXT-X-KEY:METHOD=AES-128,URI="${folderUrl}k.key"`,
      `#EXT-X-MAP:URI="${folderUrl}init.mp4"`, '#EXTINF:6.0,', `${folderUrl}seg-0.m4s`, '']);
  });

  it('an oversize playlist (44 MiB, with or without a Content-Length) is refused with 502, not buffered and inflated', async () => {
    for (const kind of ['sized', 'unsized']) {
      const started = Date.now();
      const response = await api(await hostileMedia(`/cdn/test-hls/generated/45056/${kind}.m3u8`), { ip: BERLIN });
      // Read as a stream, at most 64 KiB: an inflated answer must fail here, not flood the runner.
      const reader = response.body!.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        chunks.push(read.value);
        size += read.value.length;
        if (size > 65_536) break;
      }
      await reader.cancel();
      expect({ kind, status: response.status, size: Math.min(size, 65_537) }).toEqual({ kind, status: 502, size: expect.any(Number) });
      expect(size).toBeLessThan(1000);
      const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
      expect(JSON.parse(text)).toEqual({ errors: [{ code: 'upstream_unavailable', description: expect.any(String) }] });
      expect(Date.now() - started, kind).toBeLessThan(10_000);
    }
    // Within the bound, the same generated playlist plays.
    const small = await api(await hostileMedia('/cdn/test-hls/generated/64/unsized.m3u8'), { ip: BERLIN });
    expect(small.status).toBe(200);
    expect((await small.text()).split('\n').filter((l) => l.startsWith('/api/play/')).length).toBeGreaterThan(2000);
  });
});
