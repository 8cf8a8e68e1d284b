// The delivery side's preview-thumbnail storyboards, as the platform publishes one per video at
// `/strips/<media_id>-120.vtt`: a WebVTT file of a cue every few seconds over the media's duration (at most
// STRIP_MAX_FRAMES cues), each naming its frame in a sprite sheet beside it (`<media_id>-120.svg#xywh=x,y,120,68`,
// relative to the VTT), and the sheet itself: a grid of STRIP_COLUMNS frames a row, each tinted and labelled with its
// time. The platform's sheets are JPEG (`<media_id>-120.jpg`); the sandbox draws SVG, like its thumbnails, and names
// it so. Public unless the media's site enforces URL signing (delivery.ts); a storyboard asked for with a signed URL
// names its sheet signed too, with the same expiry. 404 in the v2 error body for anything else (another width, an
// audio media, a media not ready, an unknown one).
import type { Media } from './records.ts';
import { type Signer, UNSIGNED, vttTime } from './assets.ts';
import { errorResponse } from './http.ts';
import { hashString } from './prng.ts';
import type { Store } from './store.ts';

/** The frame width the platform's storyboards are published at; frames are 16:9. */
export const STRIP_WIDTH = 120;
export const STRIP_HEIGHT = 68;
export const STRIP_COLUMNS = 10;
/** The most frames (cues) one storyboard holds: the interval grows with the duration. */
export const STRIP_MAX_FRAMES = 100;
/** The shortest interval between frames, in seconds. */
const MIN_STEP = 2;

const HEADERS = { 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' };

/** Seconds between frames for a media of `duration` seconds, and how many frames. */
export function stripFrames(duration: number): { step: number; frames: number } {
  const step = Math.max(MIN_STEP, Math.ceil(duration / STRIP_MAX_FRAMES));
  return { step, frames: Math.max(1, Math.ceil(duration / step)) };
}

export async function serveStrip(store: Store, url: URL, sign: Signer = UNSIGNED): Promise<Response> {
  const match = /^\/strips\/([A-Za-z0-9]+)-([0-9]+)\.(vtt|svg)$/.exec(url.pathname);
  const found = match && match[2] === String(STRIP_WIDTH) ? store.find<Media>('media', match[1]!) : null;
  const media = found?.doc;
  if (!match || !media || media.media_type !== 'video' || media.status !== 'ready' || !media.duration) {
    return errorResponse(404, 'not_found', `No storyboard at ${url.pathname}.`);
  }
  if (match[3] === 'svg') return sheet(media.id, media.duration);
  return storyboard(media.id, media.duration, await sign(`/strips/${media.id}-${STRIP_WIDTH}.svg`));
}

/** The storyboard's cues, each naming its frame of the sheet (`query`: the sheet's signature, when signed). */
function storyboard(id: string, duration: number, query: string): Response {
  const { step, frames } = stripFrames(duration);
  const lines = ['WEBVTT', ''];
  for (let i = 0; i < frames; i++) {
    const x = (i % STRIP_COLUMNS) * STRIP_WIDTH;
    const y = Math.floor(i / STRIP_COLUMNS) * STRIP_HEIGHT;
    lines.push(`${vttTime(i * step)} --> ${vttTime(Math.min((i + 1) * step, duration))}`,
      `${id}-${STRIP_WIDTH}.svg${query}#xywh=${x},${y},${STRIP_WIDTH},${STRIP_HEIGHT}`, '');
  }
  return new Response(lines.join('\n'), { headers: { 'content-type': 'text/vtt; charset=utf-8', ...HEADERS } });
}

function sheet(id: string, duration: number): Response {
  const { step, frames } = stripFrames(duration);
  const columns = Math.min(STRIP_COLUMNS, frames);
  const rows = Math.ceil(frames / STRIP_COLUMNS);
  const width = columns * STRIP_WIDTH;
  const height = rows * STRIP_HEIGHT;
  const hue = hashString(id) % 360;
  const cells: string[] = [];
  for (let i = 0; i < frames; i++) {
    const x = (i % STRIP_COLUMNS) * STRIP_WIDTH;
    const y = Math.floor(i / STRIP_COLUMNS) * STRIP_HEIGHT;
    // The tint turns through the media: neighbouring frames differ, so a preview visibly follows the pointer.
    const tint = (hue + Math.round((i * 300) / frames)) % 360;
    cells.push(`<rect x="${x}" y="${y}" width="${STRIP_WIDTH}" height="${STRIP_HEIGHT}" fill="hsl(${tint} 55% 32%)"/>` +
      `<text x="${x + STRIP_WIDTH / 2}" y="${y + 40}" text-anchor="middle">${clock(i * step)}</text>`);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<g font-family="system-ui, sans-serif" font-size="18" font-weight="600" fill="#fff">${cells.join('')}</g>
</svg>`;
  return new Response(svg, { headers: { 'content-type': 'image/svg+xml; charset=utf-8', ...HEADERS } });
}

/** `m:ss` (or `h:mm:ss`), as a seek bar's preview labels a time. */
function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(Math.floor(seconds % 60)).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
