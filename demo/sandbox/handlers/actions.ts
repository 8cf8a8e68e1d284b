// The three PUT actions: remove_tag and rename_tag act on every media and playlist of the site and answer 202 with no
// body, as the platform's definition has them; query_usage answers figures.
import type { UsageFigures, UsageResult } from '../../../worker/contract/v2-types.ts';
import type { Media, MediaRendition } from '../records.ts';
import { field, onlyKnown, requireSection } from '../body.ts';
import { type RouteContext, nowIso, site } from '../context.ts';
import { invalid, json } from '../http.ts';
import { hashString } from '../prng.ts';
import { retagPlaylists } from './playlists.ts';

function tagValue(value: unknown, path: string, max: number): string {
  return (field.string(value, path, { nonEmpty: true, max }) as string).trim();
}

/** The platform's answer to a tag action: accepted, with no body (it carries the action out over time). */
const accepted = (): Response => new Response(null, { status: 202 });

/** Rewrites a tag list: `replace` maps each tag to its new name, or to null to drop it; duplicates merge. */
function retag(tags: readonly string[], replace: (tag: string) => string | null): string[] {
  return [...new Set(tags.map(replace).filter((tag): tag is string => tag !== null))];
}

/** Applies a tag change to every media and every dynamic playlist's tag filters of the site. */
function retagSite(ctx: RouteContext, siteId: string, tag: string, replace: (tag: string) => string | null): void {
  for (const media of ctx.store.list<Media>('media', siteId)) {
    if (!media.metadata.tags.includes(tag)) continue;
    media.metadata.tags = retag(media.metadata.tags, replace);
    media.last_modified = nowIso(ctx);
    ctx.store.put('media', siteId, null, media);
  }
  retagPlaylists(ctx, siteId, tag, (tags) => retag(tags, replace));
}

/** PUT remove_tag/ `{tag}`: the tag leaves every media and playlist of the site. */
export function removeTag(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const tag = tagValue(ctx.body.tag, 'tag', 200);
  retagSite(ctx, siteId, tag, (existing) => (existing === tag ? null : existing));
  return accepted();
}

/** PUT rename_tag/ `{original_tag, new_tag}`: where a media already has the new tag, the two merge into one. */
export function renameTag(ctx: RouteContext): Response {
  const siteId = site(ctx);
  const tag = tagValue(ctx.body.original_tag, 'original_tag', 128);
  const newTag = tagValue(ctx.body.new_tag, 'new_tag', 200);
  if (tag === newTag) throw invalid('invalid_parameter', 'new_tag must differ from original_tag.');
  retagSite(ctx, siteId, tag, (existing) => (existing === tag ? newTag : existing));
  return accepted();
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
