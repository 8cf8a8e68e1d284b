/**
 * Public answers as rendered, per isolate: the JSON text and its ETag of an answer that is the same for every caller,
 * so a cache HIT does not rebuild, re-serialise and re-hash what it sent a moment ago. An answer is held under its
 * request's key together with what it was made from (the cache entry's ETag, the configuration object) and until the
 * time it would change by itself (e.g. an item's publish window opening); it is used only while all of these still
 * hold, so a new entry, a new configuration or the passing of that time renders it again. Answers that depend on who
 * asks (geo policies, playback URLs) are never held. Bounded, oldest out first; this isolate's memory only.
 */
import type { RenderedJson } from '../respond.ts';

const MAX_ANSWERS = 128;

interface Held {
  source: string;
  config: object;
  until: number;
  rendered: RenderedJson;
}

const held = new Map<string, Held>();

/** The answer rendered for `key` from `source` under `config`, if it is still what would be rendered now. */
export function heldAnswer(key: string, source: string, config: object, now: number): RenderedJson | undefined {
  const answer = held.get(key);
  if (!answer) return undefined;
  if (answer.source !== source || answer.config !== config || now >= answer.until) {
    held.delete(key);
    return undefined;
  }
  return answer.rendered;
}

export function holdAnswer(key: string, source: string, config: object, until: number, rendered: RenderedJson): void {
  held.delete(key);
  held.set(key, { source, config, until, rendered });
  if (held.size > MAX_ANSWERS) held.delete(held.keys().next().value!);
}

/** Empties the held answers (tests). */
export function clearRenderedAnswers(): void {
  held.clear();
}
