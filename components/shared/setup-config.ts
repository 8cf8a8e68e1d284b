/**
 * What a player's `setup_config` means for a native `<video>`, and how to say it in plain words. The player and the
 * config panel both read options through here, so they cannot disagree.
 */

export type Autostart = false | true | 'viewable';
export type Fit = 'contain' | 'cover' | 'fill' | 'none';
export type Preload = 'none' | 'metadata' | 'auto';

export interface PlayerOptions {
  /** CSS `aspect-ratio` (`16 / 9`), or null to follow the video's own shape. */
  aspectRatio: string | null;
  autostart: Autostart;
  /** Start muted (always true when autostarting: browsers only autoplay muted video). */
  muted: boolean;
  repeat: boolean;
  preload: Preload;
  fit: Fit;
  /** Rates for the speed menu, or null for no menu. */
  rates: number[] | null;
  showTitle: boolean;
  showDescription: boolean;
}

export const DEFAULT_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2];

const truthy = (value: unknown): boolean => value === true || value === 'true';

/** `"16:9"` → `16 / 9`; anything malformed → null. */
export function aspectRatio(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*[:/]\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
  if (!match) return null;
  const w = Number(match[1]);
  const h = Number(match[2]);
  return w > 0 && h > 0 ? `${w} / ${h}` : null;
}

/**
 * The platform's `stretching` names → `object-fit`. `uniform` fits the whole picture inside the frame (`contain`),
 * `fill` fills the frame keeping proportions and crops the overflow (`cover`), `exactfit` stretches to the frame
 * (`fill`), `none` shows the video at its own size (`none`). CSS names are accepted as they are.
 */
export function objectFit(value: unknown): Fit {
  switch (value) {
    case 'fill':
    case 'cover':
      return 'cover';
    case 'exactfit':
      return 'fill';
    case 'none':
      return 'none';
    default:
      return 'contain';
  }
}

export function playbackRates(value: unknown): number[] | null {
  if (truthy(value)) return DEFAULT_RATES;
  if (!Array.isArray(value)) return null;
  const rates = [...new Set(value.map(Number).filter((n) => Number.isFinite(n) && n >= 0.0625 && n <= 16))];
  if (rates.length === 0) return null;
  if (!rates.includes(1)) rates.push(1);
  return rates.sort((a, b) => a - b);
}

export function playerOptions(config: Record<string, unknown> | null | undefined): PlayerOptions {
  const c = config ?? {};
  const autostart: Autostart = c.autostart === 'viewable' ? 'viewable' : truthy(c.autostart);
  const preload: Preload = c.preload === 'none' || c.preload === 'auto' ? c.preload : 'metadata';
  return {
    aspectRatio: aspectRatio(c.aspectratio),
    autostart,
    muted: autostart !== false || truthy(c.mute),
    repeat: truthy(c.repeat),
    preload,
    fit: objectFit(c.stretching),
    rates: playbackRates(c.playbackRateControls),
    // The platform shows title and description unless told not to.
    showTitle: c.displaytitle === undefined ? true : truthy(c.displaytitle),
    showDescription: c.displaydescription === undefined ? true : truthy(c.displaydescription),
  };
}

export interface ConfigRow {
  key: string;
  /** Plain-language name, or null for an option this toolkit does not know (shown by its key). */
  label: string | null;
  /** Plain-language value, or the raw JSON for unknown options. */
  value: string;
  known: boolean;
}

const yesNo = (value: unknown): string => (truthy(value) ? 'Yes' : 'No');

type Describe = (value: unknown, format: (n: number) => string) => string;

const KNOWN: Record<string, { label: string; describe: Describe }> = {
  aspectratio: {
    label: 'Shape of the player',
    describe: (v) => (aspectRatio(v) ? `${String(v).trim()} (width to height)` : 'Follows the video'),
  },
  autostart: {
    label: 'Starts playing',
    describe: (v) => (v === 'viewable' ? 'When scrolled into view, muted'
      : truthy(v) ? 'As soon as the page loads, muted' : 'When the viewer presses play'),
  },
  mute: { label: 'Starts muted', describe: yesNo },
  repeat: { label: 'Plays again from the start when it ends', describe: yesNo },
  preload: {
    label: 'Loads before play is pressed',
    describe: (v) => (v === 'none' ? 'Nothing' : v === 'auto' ? 'As much of the video as the browser likes'
      : 'Only the length and first frame'),
  },
  stretching: {
    label: 'How the picture fills the frame',
    describe: (v) => ({
      contain: 'Whole picture, with bars if the shapes differ',
      cover: 'Fills the frame, cropping the edges',
      fill: 'Stretched to the frame',
      none: 'At its own size',
    })[objectFit(v)],
  },
  playbackRateControls: {
    label: 'Playback speed menu',
    describe: (v, format) => {
      const rates = playbackRates(v);
      return rates ? `Yes: ${rates.map((r) => `${format(r)}×`).join(', ')}` : 'No';
    },
  },
  displaytitle: { label: 'Shows the title', describe: yesNo },
  displaydescription: { label: 'Shows the description', describe: yesNo },
  controls: { label: 'Shows the controls', describe: (v) => (v === false || v === 'false' ? 'No' : 'Yes') },
  width: { label: 'Width', describe: (v) => String(v) },
  height: { label: 'Height', describe: (v) => String(v) },
};

/** Every option of a `setup_config`, known ones first in a fixed order, then the rest by key. */
export function describeConfig(config: Record<string, unknown>, format: (n: number) => string): ConfigRow[] {
  const order = Object.keys(KNOWN);
  const keys = Object.keys(config).sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib) || a.localeCompare(b);
  });
  return keys.map((key) => {
    const known = Object.hasOwn(KNOWN, key) ? KNOWN[key]! : null;
    const value = config[key];
    return known
      ? { key, label: known.label, value: known.describe(value, format), known: true }
      : { key, label: null, value: JSON.stringify(value) ?? 'undefined', known: false };
  });
}
