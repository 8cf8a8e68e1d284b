/**
 * `custom_params` has replacement semantics: the object sent on PATCH becomes the stored one and every key left out is
 * deleted (spec rule 3). These helpers make the change explicit: you say what to set and what to delete, they produce
 * the complete object, so nobody drops a key by sending only the one they meant to change.
 */
import { InvalidArgumentError } from './errors.ts';
import type { CallOptions } from './transport.ts';
import type { V2Client } from './v2-client.ts';
import type { CustomParams, Media } from '../contract/v2-types.ts';

/** A value sets the key; `null` deletes it. */
export type CustomParamChanges = Record<string, string | null>;

/** The complete object to send: `current` with `changes` applied. Neither input is modified. */
export function mergeCustomParams(current: CustomParams, changes: CustomParamChanges): CustomParams {
  if (typeof current !== 'object' || current === null) {
    throw new InvalidArgumentError('current', 'current custom_params must be an object.');
  }
  if (typeof changes !== 'object' || changes === null) {
    throw new InvalidArgumentError('changes', 'changes must be an object of strings (set) and nulls (delete).');
  }
  // A Map and Object.fromEntries keep keys such as `__proto__` as ordinary data instead of touching the prototype.
  const merged = new Map<string, string>(Object.entries(current));
  for (const [key, value] of Object.entries(changes)) {
    if (key === '') throw new InvalidArgumentError('changes', 'custom param names must not be empty.');
    if (value === null) merged.delete(key);
    else if (typeof value === 'string') merged.set(key, value);
    else throw new InvalidArgumentError('changes', `custom param '${key}' must be a string, or null to delete it.`);
  }
  return Object.fromEntries(merged);
}

/**
 * Reads the media, applies the changes and PATCHes only `metadata.custom_params`. (Two calls; a change made by someone
 * else between them is overwritten, as with any read-modify-write against this API.)
 */
export async function updateCustomParams(
  client: V2Client,
  site: string,
  mediaId: string,
  changes: CustomParamChanges,
  options?: CallOptions,
): Promise<Media> {
  const media = await client.getMedia(site, mediaId, options);
  const current = media.metadata?.custom_params ?? {};
  const custom_params = mergeCustomParams(current, changes);
  return client.updateMedia(site, mediaId, { metadata: { custom_params } }, options);
}
