/**
 * v2 answers in v1 shape, for the v1 compatibility layer: `{status: 'ok', <resource>: ...}` with v1 field names (the
 * migration helpers' `toV1*` mappers), list paging as v1's `limit`/`offset`/`total`, and errors as the single v1 object
 * `{status: 'error', code, title, message}`.
 */
import { tracksOf } from '../../catalog/index.ts';
import {
  mapV2ErrorToV1, toV1Channel, toV1Conversion, toV1Player, toV1Track, toV1Video,
  type V1ErrorBody,
} from './v1-migration.ts';
import type {
  Media, MediaList, MediaRendition, MediaRenditionList, Original, OriginalList, PageInfo, Player, PlayerList, Playlist,
  PlaylistList, PlaylistType, TextTrack, TextTrackList, Thumbnail, UsageFigures, UsageResult, V2ErrorItem,
} from '../../contract/v2-types.ts';

export type V1Ok = { status: 'ok' } & Record<string, unknown>;

function paging(list: PageInfo): { limit: number; offset: number; total: number } {
  return { limit: list.page_length, offset: (list.page - 1) * list.page_length, total: list.total };
}

/** v1 had no thumbnail resource of its own; this keeps its `key`/`link` naming. */
export function toV1Thumbnail(thumbnail: Thumbnail): Record<string, unknown> {
  return {
    key: thumbnail.id,
    status: thumbnail.status,
    link: thumbnail.delivery_url,
    source_type: thumbnail.source_type,
    videos: thumbnail.relationships.media.map((m) => ({ key: m.id.id })),
  };
}

function v1Usage(figures: UsageFigures): Record<string, number> {
  return { plays: figures.plays, traffic: figures.delivered_bytes, storage: figures.stored_bytes, api_calls: figures.api_calls };
}

/** The v1 body for a successful v2 answer of the v1 route `name` (the key of `V1_ANSWERS`). */
export const V1_ANSWERS: Readonly<Record<string, (body: unknown, extra?: unknown) => V1Ok>> = {
  'videos/list': (body) => {
    const list = body as MediaList;
    return { status: 'ok', videos: list.media.map(toV1Video), ...paging(list) };
  },
  'videos/show': (body) => ({ status: 'ok', video: toV1Video(body as Media) }),
  'channels/list': (body) => {
    const list = body as PlaylistList;
    return { status: 'ok', channels: list.playlists.map(toV1Channel), ...paging(list) };
  },
  // `type` is the v1 type asked for, when the typed answer (which carries no `playlist_type`) was read.
  'channels/show': (body, type) => ({
    status: 'ok', channel: toV1Channel(type === undefined ? body as Playlist : { ...(body as Playlist), playlist_type: type as PlaylistType }),
  }),
  'players/list': (body) => {
    const list = body as PlayerList;
    return { status: 'ok', players: list.players.map(toV1Player), ...paging(list) };
  },
  'players/show': (body) => ({ status: 'ok', player: toV1Player(body as Player) }),
  // v1 listed every conversion of a video; v2 keeps originals apart, so two answers make one list.
  'videos/conversions/list': (body, extra) => {
    const renditions = (body as MediaRenditionList).media_renditions;
    const originals = (extra as OriginalList | undefined)?.originals ?? [];
    const all: Array<MediaRendition | Original> = [...originals, ...renditions];
    return { status: 'ok', conversions: all.map(toV1Conversion), total: all.length };
  },
  'videos/conversions/show': (body) => ({ status: 'ok', conversion: toV1Conversion(body as MediaRendition) }),
  'videos/tracks/list': (body) => {
    const list = body as TextTrackList;
    // The default is the track the player gets as default (projections.ts `tracksOf`).
    const defaults = new Set(tracksOf(list.text_tracks).filter((t) => t.default).map((t) => t.url));
    return { status: 'ok', tracks: list.text_tracks.map((t) => toV1Track(t, t.delivery_url !== null && defaults.has(t.delivery_url))), ...paging(list) };
  },
  'videos/tracks/show': (body) => ({ status: 'ok', track: toV1Track(body as TextTrack) }),
  'videos/thumbnails/show': (body) => ({ status: 'ok', thumbnail: toV1Thumbnail(body as Thumbnail) }),
  // The platform accepts tag actions (202) and carries them out over time: there is nothing to report but that.
  'accounts/tags/delete': () => ({ status: 'ok' }),
  'accounts/tags/update': () => ({ status: 'ok' }),
  'accounts/usage/show': (body) => {
    const usage = body as UsageResult;
    return {
      status: 'ok',
      usage: {
        account_key: usage.site_id,
        start_date: usage.start_date,
        end_date: usage.end_date,
        ...v1Usage(usage.total),
        ...(usage.days ? { days: usage.days.map((day) => ({ date: day.date, ...v1Usage(day) })) } : {}),
      },
    };
  },
};

/**
 * Gateway and platform codes that v1 has its own word for (the codes v1 clients map to their error classes). Every
 * other code goes v1-ward CamelCased (`param_missing` → `ParamMissing`, `idempotency_key_reused` → `IdempotencyKeyReused`).
 */
export const V1_ERROR_CODES: Readonly<Record<string, string>> = {
  Forbidden: 'PermissionDenied',
  Unauthorized: 'ApiKeyInvalid',
  RateLimited: 'RateLimitExceeded',
  MethodNotAllowed: 'NotSupported',
  InvalidRequest: 'CallInvalid',
  InvalidQuery: 'ParamInvalid',
  UpstreamUnavailable: 'CallUnavailable',
  ServerError: 'CallFailed',
};

export function v1Error(items: V2ErrorItem[]): V1ErrorBody {
  const body = mapV2ErrorToV1(items);
  const code = V1_ERROR_CODES[body.code] ?? body.code;
  return { status: 'error', code, title: code.replace(/([a-z0-9])([A-Z])/g, '$1 $2'), message: body.message };
}
