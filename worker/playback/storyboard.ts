/**
 * A gated media's storyboard (catalog/storyboard.ts) through the worker: its VTT is served rewritten, so that every
 * image a cue names is a playback URL too (`/api/play/<token>/<name>#xywh=…`, a `sprite` token for that one file,
 * with the VTT token's expiry and network). A reference is resolved against the VTT's upstream URL and kept only when
 * it is one of the media's own storyboard files (`storyboardFile`: same host and folder, named for the media, http(s),
 * no query) with no fragment or a well-formed `#xywh=` one; any other cue is dropped, never passed on as an upstream
 * URL.
 *
 * The answer is written afresh in one canonical form, so nothing of the upstream's text reaches the player but checked
 * timings and the worker's own URLs: `WEBVTT`, then per kept cue its timing (`start --> end`, cue settings and
 * identifiers dropped) and its one URL. Comments (`NOTE`), `STYLE` and `REGION` blocks are dropped. A file that is
 * not UTF-8 or has no `WEBVTT` first line is refused (`StoryboardRefused`).
 *
 * Bounds: at most `MAX_STORYBOARD_BYTES` are read from upstream (the bounded reader: stopped there, never buffered
 * whole), at most `MAX_STORYBOARD_CUES` cues and `MAX_STORYBOARD_FILES` distinct images (each a signed URL).
 */
import { readBoundedUtf8 } from '../http/bounded-text.ts';
import { storyboardFile } from '../catalog/index.ts';
import { withoutSignature } from '../signing/index.ts';

/** Why a storyboard is not passed on. The message is the worker's own words (for the log), never upstream text. */
export class StoryboardRefused extends Error {
  override name = 'StoryboardRefused';
}

/**
 * The most the worker reads of an upstream storyboard: 1 MiB. A cue takes ~70 bytes (`00:00:00.000 --> …` and a
 * relative name with its fragment), so this holds ~15,000 cues: a frame every 5 s for 20 hours. The platform's
 * storyboards have a few hundred.
 */
export const MAX_STORYBOARD_BYTES = 1024 * 1024;
/** The most cues one storyboard may hold; each grows by the playback prefix (~170 bytes) in the answer. */
export const MAX_STORYBOARD_CUES = 20_000;
/** The most distinct images its cues may name (each is signed once). */
export const MAX_STORYBOARD_FILES = 500;

/** The upstream storyboard's text, read up to `limit` bytes, or refused. */
export async function readStoryboard(response: Response, limit = MAX_STORYBOARD_BYTES): Promise<string> {
  const read = await readBoundedUtf8(response, limit);
  if (read.ok) return read.text;
  throw new StoryboardRefused(read.reason === 'too_large' ? 'a storyboard larger than the limit' : 'a storyboard that is not UTF-8');
}

const LINE_BREAK = /\r\n|\r|\n/;
const TIMESTAMP = '(?:\\d{2,}:)?[0-5]\\d:[0-5]\\d\\.\\d{3}';
const TIMING = new RegExp(`^(${TIMESTAMP})[ \\t]+-->[ \\t]+(${TIMESTAMP})(?:[ \\t].*)?$`);
/** A media fragment naming a rectangle in pixels (the only fragment a thumbnails cue uses). */
const XYWH = /^xywh=(?:pixel:)?\d{1,5},\d{1,5},\d{1,5},\d{1,5}$/;

export interface StoryboardRewrite {
  text: string;
  /** Cues dropped for naming something other than one of the media's own storyboard images. */
  dropped: number;
}

/**
 * The storyboard with each cue's image replaced by `await playUrl(file)` plus its `#xywh=` fragment. `vttUrl` is the
 * storyboard's upstream URL (what references resolve against and what bounds them), `mediaId` the media it is of.
 */
export async function rewriteStoryboard(text: string, vttUrl: string, mediaId: string,
  playUrl: (file: URL) => Promise<string>, signedFiles = false): Promise<StoryboardRewrite> {
  if (text.length > MAX_STORYBOARD_BYTES) throw new StoryboardRefused('a storyboard larger than the limit');
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const lines = text.split(LINE_BREAK);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0]!)) throw new StoryboardRefused('no WEBVTT first line');

  const signed = new Map<string, Promise<string>>();
  const out = ['WEBVTT', ''];
  let cues = 0;
  let dropped = 0;
  let at = 1;
  // The header's own lines run up to the first blank line.
  while (at < lines.length && lines[at]!.trim() !== '') at++;
  while (at < lines.length) {
    while (at < lines.length && lines[at]!.trim() === '') at++;
    const block: string[] = [];
    while (at < lines.length && lines[at]!.trim() !== '') block.push(lines[at++]!);
    if (!block.length) break;
    // A cue's timing is its first line, or its second after an identifier; a block with none (NOTE, STYLE, REGION,
    // or text a parser skips) is no cue.
    const timingAt = block[0]!.includes('-->') ? 0 : block[1]?.includes('-->') ? 1 : -1;
    if (timingAt < 0) continue;
    if (++cues > MAX_STORYBOARD_CUES) throw new StoryboardRefused('more cues than the limit');
    const timing = TIMING.exec(block[timingAt]!.trim());
    const payload = block.slice(timingAt + 1).map((line) => line.trim()).filter(Boolean);
    const url = timing && payload.length === 1 ? await imageUrl(payload[0]!) : null;
    if (!timing || url === null) {
      dropped++;
      continue;
    }
    out.push(`${timing[1]} --> ${timing[2]}`, url, '');
  }
  return { text: out.join('\n'), dropped };

  async function imageUrl(reference: string): Promise<string | null> {
    if (/[\s"'<>\\]/.test(reference)) return null;
    // A signed storyboard names its images signed (the platform's own signature): the worker signs its own fetches.
    if (signedFiles) reference = withoutSignature(reference);
    const hash = reference.indexOf('#');
    const fragment = hash < 0 ? '' : reference.slice(hash + 1);
    if (hash >= 0 && !XYWH.test(fragment)) return null;
    const file = storyboardFile(vttUrl, mediaId, hash < 0 ? reference : reference.slice(0, hash));
    if (!file) return null;
    let url = signed.get(file.href);
    if (!url) {
      if (signed.size >= MAX_STORYBOARD_FILES) throw new StoryboardRefused('more images than the limit');
      url = playUrl(file);
      signed.set(file.href, url);
    }
    return `${await url}${fragment ? `#${fragment}` : ''}`;
  }
}
