/**
 * The cache: stale-while-revalidate over KV behind a per-isolate memory layer (cached.ts), the one invalidation purge
 * uses, and the feed answers held rendered per entry (rendered.ts). It knows no resource: the keys are the catalog's
 * (catalog/keys.ts), the windows the configuration's (`cache.<kind>`). Others import from here.
 */
export { cached, clearMemoryCache, invalidate, peekCached, type CachedOptions, type CachedValue } from './cached.ts';
export { isEnvelope, type Envelope } from './envelope.ts';
export { MemoryCache } from './memory.ts';
export { sharedRead, type SharedReadOptions } from './shared-reads.ts';
export { clearRenderedAnswers, heldAnswer, holdAnswer, type HeldAnswer } from './rendered.ts';
