/**
 * A Delivery API answer read as the definition gives it (contract/delivery-types.ts), or refused whole: an answer
 * that is not the documented shape is the platform's fault, and 502 `delivery_answer_invalid` says so rather than
 * passing on half of it. Fields the definition does not name (today's answers add `variations`, `bitrate`, …) are
 * ignored, not refused; custom parameters that are not strings are left out, as the Management side does.
 */
import type { DeliveryFeed, DeliveryImage, DeliveryItem, DeliverySource, DeliveryTrack } from '../contract/delivery-types.ts';
import { ApiError } from '../http/errors.ts';

export const deliveryAnswerInvalid = (what: string, why: string) => new ApiError(502, 'delivery_answer_invalid',
  `The platform's Delivery API answered ${what} in a shape it does not document (${why}); nothing of it is passed on.`);

const MEDIA_ID = /^[A-Za-z0-9]{8}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalNumber = (v: unknown) => v === undefined || v === null || (typeof v === 'number' && Number.isFinite(v));
const optionalString = (v: unknown) => v === undefined || v === null || typeof v === 'string';

class Invalid extends Error {}
function need(ok: boolean, why: string): asserts ok {
  if (!ok) throw new Invalid(why);
}

function source(raw: unknown, at: string): DeliverySource {
  need(isObject(raw) && typeof raw.file === 'string' && typeof raw.type === 'string', `${at}: a source needs file and type`);
  need(optionalNumber(raw.width) && optionalNumber(raw.height) && optionalNumber(raw.filesize) && optionalString(raw.label),
    `${at}: width, height, filesize are numbers and label a string`);
  const out: DeliverySource = { file: raw.file, type: raw.type };
  if (typeof raw.width === 'number') out.width = raw.width;
  if (typeof raw.height === 'number') out.height = raw.height;
  if (typeof raw.label === 'string') out.label = raw.label;
  if (typeof raw.filesize === 'number') out.filesize = raw.filesize;
  return out;
}

function track(raw: unknown, at: string): DeliveryTrack {
  need(isObject(raw) && typeof raw.file === 'string' && typeof raw.kind === 'string', `${at}: a track needs file and kind`);
  need(optionalString(raw.label) && (raw.default === undefined || typeof raw.default === 'boolean'),
    `${at}: label is a string and default a boolean`);
  const out: DeliveryTrack = { file: raw.file, kind: raw.kind };
  if (typeof raw.label === 'string') out.label = raw.label;
  if (raw.default === true) out.default = true;
  return out;
}

function image(raw: unknown, at: string): DeliveryImage {
  need(isObject(raw) && typeof raw.src === 'string' && typeof raw.width === 'number' && Number.isFinite(raw.width),
    `${at}: an image needs src and width`);
  return { src: raw.src, width: raw.width, type: typeof raw.type === 'string' ? raw.type : 'image/jpeg' };
}

function list<T>(raw: unknown, at: string, read: (v: unknown, at: string) => T): T[] {
  if (raw === undefined || raw === null) return [];
  need(Array.isArray(raw), `${at} is not a list`);
  return raw.map((v, i) => read(v, `${at}[${i}]`));
}

function item(raw: unknown, at: string): DeliveryItem {
  need(isObject(raw), `${at} is not an object`);
  need(typeof raw.mediaid === 'string' && MEDIA_ID.test(raw.mediaid), `${at}.mediaid is not a media id`);
  need(typeof raw.title === 'string', `${at}.title is not a string`);
  need(optionalString(raw.description), `${at}.description is not a string`);
  need(typeof raw.pubdate === 'number' && Number.isFinite(raw.pubdate), `${at}.pubdate is not a number`);
  need(optionalString(raw.tags), `${at}.tags is not a string`);
  need(optionalString(raw.image) && optionalString(raw.link) && optionalString(raw.feedid) && optionalString(raw.recommendations),
    `${at}: image, link, feedid and recommendations are strings`);
  need(optionalNumber(raw.duration), `${at}.duration is not a number`);
  need(raw.custom === undefined || raw.custom === null || isObject(raw.custom), `${at}.custom is not an object`);
  const custom: Record<string, string> = {};
  for (const [name, value] of Object.entries(isObject(raw.custom) ? raw.custom : {})) if (typeof value === 'string') custom[name] = value;
  const out: DeliveryItem = {
    mediaid: raw.mediaid,
    title: raw.title,
    description: typeof raw.description === 'string' ? raw.description : '',
    pubdate: raw.pubdate,
    image: typeof raw.image === 'string' ? raw.image : '',
    duration: typeof raw.duration === 'number' && raw.duration > 0 ? raw.duration : 0,
    link: typeof raw.link === 'string' ? raw.link : '',
    custom,
    sources: list(raw.sources, `${at}.sources`, source),
    tracks: list(raw.tracks, `${at}.tracks`, track),
  };
  if (typeof raw.tags === 'string') out.tags = raw.tags;
  if (raw.images !== undefined) out.images = list(raw.images, `${at}.images`, image);
  if (typeof raw.feedid === 'string') out.feedid = raw.feedid;
  if (typeof raw.recommendations === 'string') out.recommendations = raw.recommendations;
  return out;
}

/** The answer's JSON as a `DeliveryFeed`; throws `delivery_answer_invalid` naming the first thing out of shape. */
export function readDeliveryFeed(body: unknown, what: string): DeliveryFeed {
  try {
    need(isObject(body), 'the answer is not an object');
    need(optionalString(body.title) && optionalString(body.description) && optionalString(body.kind) && optionalString(body.feedid),
      'title, description, kind and feedid are strings');
    need(Array.isArray(body.playlist), 'playlist is not a list');
    const feed: DeliveryFeed = { playlist: list(body.playlist, 'playlist', item) };
    if (typeof body.title === 'string') feed.title = body.title;
    if (typeof body.description === 'string') feed.description = body.description;
    if (typeof body.kind === 'string') feed.kind = body.kind;
    if (typeof body.feedid === 'string') feed.feedid = body.feedid;
    if (isObject(body.links)) {
      const links: NonNullable<DeliveryFeed['links']> = {};
      for (const name of ['first', 'prev', 'next', 'last'] as const) {
        const value = body.links[name];
        if (typeof value === 'string') links[name] = value;
      }
      feed.links = links;
    }
    return feed;
  } catch (error) {
    if (error instanceof Invalid) throw deliveryAnswerInvalid(what, error.message);
    throw error;
  }
}

/** An item's tags as a list: the answer joins them with commas (and spaces). */
export function tagsOf(item: Pick<DeliveryItem, 'tags'>): string[] {
  return (item.tags ?? '').split(',').map((tag) => tag.trim()).filter(Boolean);
}
