/** The few WebVTT facts the player's timeline needs: each cue's start, end and first payload line. */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}\.\d{3})\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}\.\d{3})/;

function seconds(stamp: string): number {
  return stamp.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/**
 * The cues of a WebVTT file, in order, at most `limit` (a storyboard has one per few seconds; more than that is not
 * a storyboard). Cue settings and further payload lines are ignored.
 */
export function parseCues(text: string, limit = 5000): Cue[] {
  const lines = text.split(/\r\n?|\n/);
  if (!/^WEBVTT(\s|$)/.test(lines[0] ?? '')) return [];
  const cues: Cue[] = [];
  for (let i = 1; i < lines.length && cues.length < limit; i++) {
    const match = TIMING.exec(lines[i]!);
    if (!match) continue;
    const payload = (lines[i + 1] ?? '').trim();
    cues.push({ start: seconds(match[1]!), end: seconds(match[2]!), text: payload });
  }
  return cues;
}

/** A storyboard frame: the image and, with a `#xywh=` fragment, the part of it that is the frame. */
export interface Frame {
  url: string;
  box: [number, number, number, number] | null;
}

/** A storyboard cue's payload as a frame, its URL resolved against the storyboard's own; null when it is no URL. */
export function frameOf(payload: string, base: string): Frame | null {
  let url: URL;
  try {
    url = new URL(payload, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const xywh = /^#xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(url.hash);
  url.hash = '';
  return { url: url.href, box: xywh ? [1, 2, 3, 4].map((i) => Number(xywh[i])) as Frame['box'] : null };
}

/** The cue playing at `time`, or undefined. */
export const cueAt = <C extends Cue>(cues: readonly C[], time: number): C | undefined =>
  cues.find((cue) => time >= cue.start && time < cue.end);

/** `m:ss` or `h:mm:ss`. */
export function clock(time: number): string {
  const t = Math.max(0, Math.floor(time));
  const s = String(t % 60).padStart(2, '0');
  const m = Math.floor(t / 60) % 60;
  const h = Math.floor(t / 3600);
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
