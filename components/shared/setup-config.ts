/**
 * What a player's `setup_config` means for a native `<video>`, and how to say it in plain words. The player and the
 * config panel both read options through here, so they cannot disagree.
 */
import type { MessageId, Values } from './i18n/types.ts';

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

/** A value in words: a message and its placeholders, or the value itself (a width). */
type Words = [MessageId, Values?] | string;
type Describe = (value: unknown, format: (n: number) => string) => Words;

const yesNo = (value: unknown): Words => [truthy(value) ? 'yes' : 'no'];
const asIs = (value: unknown): Words => String(value);

/** The options this toolkit knows, in the order shown: each one's name is the message of its key. */
const KNOWN: Record<string, Describe> = {
  aspectratio: (v) => (aspectRatio(v) ? ['ratioValue', { ratio: String(v).trim() }] : ['followsVideo']),
  autostart: (v) => [v === 'viewable' ? 'whenViewable' : truthy(v) ? 'onLoad' : 'onPlay'],
  mute: yesNo,
  repeat: yesNo,
  preload: (v) => [v === 'none' ? 'preloadNone' : v === 'auto' ? 'preloadAuto' : 'preloadMetadata'],
  stretching: (v) => [({ contain: 'fitContain', cover: 'fitCover', fill: 'fitFill', none: 'fitNone' } as const)[objectFit(v)]],
  playbackRateControls: (v, format) => {
    const rates = playbackRates(v);
    return rates ? ['ratesValue', { rates: rates.map((r) => `${format(r)}×`).join(', ') }] : ['no'];
  },
  displaytitle: yesNo,
  displaydescription: yesNo,
  controls: (v) => [v === false || v === 'false' ? 'no' : 'yes'],
  width: asIs,
  height: asIs,
};

/**
 * Every option of a `setup_config`, known ones first in a fixed order, then the rest by key; `say` puts a message in
 * the visitor's language.
 */
export function describeConfig(config: Record<string, unknown>, format: (n: number) => string,
  say: (id: MessageId, values?: Values) => string): ConfigRow[] {
  const order = Object.keys(KNOWN);
  const keys = Object.keys(config).sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib) || a.localeCompare(b);
  });
  return keys.map((key) => {
    const describe = Object.hasOwn(KNOWN, key) ? KNOWN[key]! : null;
    const value = config[key];
    const words = describe?.(value, format);
    return words
      ? { key, label: say(key as MessageId), value: typeof words === 'string' ? words : say(...words), known: true }
      : { key, label: null, value: JSON.stringify(value) ?? 'undefined', known: false };
  });
}
