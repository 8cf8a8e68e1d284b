// The three PUT actions: remove_tag and rename_tag act on every media of the site; query_usage answers figures.
import type { Media, MediaRendition, TagActionResult, UsageFigures, UsageResult } from '../../../worker/contract/v2-types.ts';
import { field, onlyKnown, requireSection } from '../body.ts';
import { type RouteContext, nowIso, site } from '../context.ts';
import { invalid, json } from '../http.ts';
import { hashString } from '../prng.ts';

function tagValue(value: unknown, path: string): string {
  const tag = (field.string(value, path, { nonEmpty: true, max: 200 }) as string).trim();
  return tag;
}

export function removeTag(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const metadata = requireSection(ctx.body, 'metadata');
  onlyKnown(metadata, 'metadata', ['tag']);
  const tag = tagValue(metadata.tag, 'metadata.tag');
  let affected = 0;
  for (const media of ctx.store.list<Media>('media', siteId)) {
    if (!media.metadata.tags.includes(tag)) continue;
    media.metadata.tags = media.metadata.tags.filter((existing) => existing !== tag);
    media.last_modified = nowIso(ctx);
    ctx.store.put('media', siteId, null, media);
    affected++;
  }
  const result: TagActionResult = { tag, media_affected: affected };
  return json(result);
}

export function renameTag(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const metadata = requireSection(ctx.body, 'metadata');
  onlyKnown(metadata, 'metadata', ['tag', 'new_tag']);
  const tag = tagValue(metadata.tag, 'metadata.tag');
  const newTag = tagValue(metadata.new_tag, 'metadata.new_tag');
  if (tag === newTag) throw invalid('invalid_parameter', 'metadata.new_tag must differ from metadata.tag.');
  let affected = 0;
  for (const media of ctx.store.list<Media>('media', siteId)) {
    if (!media.metadata.tags.includes(tag)) continue;
    // Where the media already carries the new tag, the two merge into one.
    media.metadata.tags = [...new Set(media.metadata.tags.map((existing) => (existing === tag ? newTag : existing)))];
    media.last_modified = nowIso(ctx);
    ctx.store.put('media', siteId, null, media);
    affected++;
  }
  const result: TagActionResult = { tag, new_tag: newTag, media_affected: affected };
  return json(result);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DAYS = 366;

function parseDay(value: unknown, path: string): number {
  if (typeof value !== 'string' || !DATE.test(value)) throw invalid('invalid_date', `${path} must be a date written YYYY-MM-DD.`);
  const time = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) {
    throw invalid('invalid_date', `${path} '${value}' is not a calendar date.`);
  }
  return time;
}

/**
 * Usage figures are derived from the site id and the day (so they are stable) and scaled by what the site stores
 * now. `stored_bytes` is a level, not a flow: the total carries the last day's value, the others are sums.
 */
export function queryUsage(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const metadata = requireSection(ctx.body, 'metadata');
  onlyKnown(metadata, 'metadata', ['start_date', 'end_date', 'group_by']);
  const start = parseDay(metadata.start_date, 'metadata.start_date');
  const end = parseDay(metadata.end_date, 'metadata.end_date');
  if (end < start) throw invalid('invalid_date', 'metadata.end_date must not be before metadata.start_date.');
  const dayCount = (end - start) / 86_400_000 + 1;
  if (dayCount > MAX_DAYS) throw invalid('invalid_date', `A usage query spans at most ${MAX_DAYS} days (this one spans ${dayCount}).`);
  const groupBy = metadata.group_by === undefined ? 'total' : field.oneOf(metadata.group_by, 'metadata.group_by', ['total', 'day'] as const);
  const mediaIds = ctx.store.list<Media>('media', siteId).map((media) => media.id);
  const storedBytes = mediaIds.reduce((sum, id) => sum + ctx.store.list<MediaRendition>('media_rendition', siteId, id)
    .reduce((inner, rendition) => inner + rendition.filesize, 0), 0);
  const days: Array<{ date: string } & UsageFigures> = [];
  for (let time = start; time <= end; time += 86_400_000) {
    const date = new Date(time).toISOString().slice(0, 10);
    const h = hashString(`${siteId}:${date}`);
    const plays = 200 + (h % 4800);
    days.push({ date, plays, delivered_bytes: plays * (2_000_000 + (h % 30_000_000)), stored_bytes: storedBytes, api_calls: 50 + ((h >>> 8) % 950) });
  }
  const total: UsageFigures = {
    plays: days.reduce((sum, day) => sum + day.plays, 0),
    delivered_bytes: days.reduce((sum, day) => sum + day.delivered_bytes, 0),
    stored_bytes: days[days.length - 1]?.stored_bytes ?? 0,
    api_calls: days.reduce((sum, day) => sum + day.api_calls, 0),
  };
  const result: UsageResult = {
    site_id: siteId, start_date: String(metadata.start_date), end_date: String(metadata.end_date), total,
    ...(groupBy === 'day' ? { days } : {}),
  };
  return json(result);
}
