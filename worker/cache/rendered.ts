/**
 * Public answers as rendered, per isolate: the JSON text and its ETag of an answer that is the same for every caller,
 * so a cache HIT does not rebuild, re-serialise and re-hash what it sent a moment ago. An answer is held under its
 * request's key together with what it was made from (the cache entry's ETag, the configuration object) and until the
 * time it would change by itself (e.g. an item's publish window opening); it is used only while all of these still
 * hold, so a new entry, a new configuration or the passing of that time renders it again. Answers that depend on who
 * asks (geo policies, playback URLs) are never held. Bounded, oldest out first; this isolate's memory only.
 */
import type { RenderedJson } from '../http/respond.ts';
import { BoundedMap } from '../http/bounded-map.ts';

const MAX_ANSWERS = 128;

/** An answer as sent (its text and ETag) and as built (the body, for readers that use it as a value: the server render). */
export interface HeldAnswer<B> {
  rendered: RenderedJson;
  body: B;
}

interface Held {
  source: string;
  config: object;
  until: number;
  answer: HeldAnswer<unknown>;
}

const held = new BoundedMap<string, Held>(MAX_ANSWERS);

/** The answer rendered for `key` from `source` under `config`, if it is still what would be rendered now. */
export function heldAnswer<B>(key: string, source: string, config: object, now: number): HeldAnswer<B> | undefined {
  const entry = held.get(key);
  if (!entry) return undefined;
  if (entry.source !== source || entry.config !== config || now >= entry.until) {
    held.delete(key);
    return undefined;
  }
  return entry.answer as HeldAnswer<B>;
}

export function holdAnswer<B>(key: string, source: string, config: object, until: number, answer: HeldAnswer<B>): void {
  held.set(key, { source, config, until, answer });
}

/** Empties the held answers (tests). */
export function clearRenderedAnswers(): void {
  held.clear();
}
