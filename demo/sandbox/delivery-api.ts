// The platform's Delivery API v2 as JSON, on the delivery host (README.md, "Delivery API"): `GET /v2/media/<id>` (one
// published media as a feed of one) and `GET /v2/playlists/<id>` (a page of a playlist's published media, with paging
// links), in the shape of worker/contract/delivery-types.ts, made from the same records the Management API answers.
// - Only published media appear (ready, publish_start_date passed, publish_end_date not yet); an item's files are the
//   delivery host's own: the HLS master first (packaged from the MP4 ladder, assets.ts `hlsLadder`), the MP4/M4A files
//   widest first, the storyboard and the published text tracks, the poster at the asked width.
// - A playlist's media follow its stored rules (playlist-rules.ts): a manual one its ids in order, a dynamic one its
//   filters and sort (`trending`/`plays` by the counts plays.ts keeps), a similar one (recommendations) the media
//   sharing tags with `related_media_id`, a search or article-matching one the media matching the words of `search`
//   (an article-matching feed is asked with the article's title there: the platform's player sends the page's
//   OpenGraph or HTML title for `search=__CONTEXTUAL__`); pinned media first, `limit` kept.
// - URL signing is the owning site's (the playlist's, or the media's), in the JWT scheme of the /v2/ paths: an enforcing
//   site refuses an unsigned request, every site one signed wrongly (url-signing.ts). A signed answer names every URL
//   signed for the same expiry, each in its path's scheme, so a player follows them; an unsigned one names them bare.
// - Counted in the stats as `delivery_calls` (and `delivery_signed_calls`), never in the Management API's calls or rate
//   window; a test may script either route (scripted.ts). Every answer, refusals too, is CORS-open like the host's files.
import type {
  DeliveryFeed, DeliveryImage, DeliveryItem, DeliverySource, DeliveryTrack,
} from '../../worker/contract/delivery-types.ts';
import {
  DELIVERY_DEFAULT_POSTER_WIDTH, DELIVERY_MAX_PAGE_LIMIT, DELIVERY_POSTER_WIDTHS,
} from '../../worker/contract/delivery-types.ts';
import type { CustomParamFilter, FilterMatch, PlaylistType, TagFilter } from '../../worker/contract/v2-types.ts';
import { DEFAULT_PLAYLIST_LIMIT } from '../../worker/contract/v2-types.ts';
import { hlsLadder } from './assets.ts';
import { recordDeliveryCall } from './controls.ts';
import { renditionName } from './conversions.ts';
import { type DeliveryApiRoute, deliveryPath } from './delivery-paths.ts';
import type { SandboxEnv } from './env.ts';
import { errorResponse, HttpError, invalid, json } from './http.ts';
import { defaultRules, isPublished } from './playlist-rules.ts';
import { playCounts, type PlayCounts } from './plays.ts';
import type { Media, MediaRendition, Playlist, TextTrack } from './records.ts';
import { scriptedAnswer } from './scripted.ts';
import type { Store } from './store.ts';
import { advanceProcessing } from './uploads.ts';
import { jwtSigner, legacyQuery, siteVerdict } from './url-signing.ts';

const HLS_MIME = 'application/vnd.apple.mpegurl';
/** The widths an item's `images` lists its poster at (what today's answers list). */
const IMAGE_WIDTHS = [320, 480, 640, 720, 1280, 1920] as const;
/**
 * `page_limit` when none is asked for. The platform's feeds default to 500 items, but its definition caps `page_limit`
 * at 100 (DELIVERY_MAX_PAGE_LIMIT): the sandbox keeps to the definition, so a page is at most 100 whether asked or not.
 */
const DEFAULT_PAGE_LIMIT = DELIVERY_MAX_PAGE_LIMIT;

/** `kind` of a playlist answer by the playlist's type (a trending playlist is a dynamic one: the platform has no type). */
const KINDS: Record<Exclude<PlaylistType, 'watchlist'>, string> = {
  manual: 'MANUAL', dynamic: 'DYNAMIC', search: 'SEARCH', recommendations: 'SIMILAR', article_matching: 'ARTICLE_MATCHING',
};
/** The types whose feed is of media related to `related_media_id` (the definition's "similar type playlists"). */
const SIMILAR_TYPES: readonly PlaylistType[] = ['recommendations'];
/**
 * The types whose feed is of media matching the words of `search`: a search playlist's, and an article-matching one's,
 * which its embed asks with `search=__CONTEXTUAL__` for the player to fill with the article's title.
 */
const SEARCH_TYPES: readonly PlaylistType[] = ['search', 'article_matching'];

/** What every answer carries: the delivery host's answers are read by players on any page. */
const CORS = { 'access-control-allow-origin': '*' };

function refusal(status: number, code: string, description: string): Response {
  return errorResponse(status, code, description, { ...CORS, 'cache-control': 'no-store' });
}

/** The query an answer is made for, checked; `params` as asked (a signed request's are its token's), for the links. */
interface DeliveryQuery {
  posterWidth: number;
  pageOffset: number;
  pageLimit: number;
  recommendationsPlaylistId: string | null;
  params: URLSearchParams;
}

/** The one value of a parameter, or null; given twice, it is refused (which one would count is anyone's guess). */
function single(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  if (values.length > 1) throw invalid('invalid_parameter', `${name} is given more than once.`);
  return values[0] ?? null;
}

function integer(params: URLSearchParams, name: string, fallback: number, min: number, max: number, rule: string): number {
  const value = single(params, name);
  if (value === null) return fallback;
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw invalid('invalid_parameter', `${name} must be ${rule}, got '${value.slice(0, 40)}'.`);
  }
  return Number(value);
}

/** The parameters both routes take (what does not depend on the playlist's type); others are ignored, as the platform does. */
function readQuery(params: URLSearchParams): DeliveryQuery {
  const format = single(params, 'format');
  if (format !== null && format !== 'json') {
    throw invalid('invalid_parameter', ['mrss', 'legacyrss'].includes(format)
      ? `The sandbox answers format=json only; the platform's ${format} feed is not modelled.`
      : `format must be one of json, mrss, legacyrss, got '${format.slice(0, 40)}'.`);
  }
  const posterWidth = single(params, 'poster_width');
  if (posterWidth !== null && !(DELIVERY_POSTER_WIDTHS as readonly number[]).map(String).includes(posterWidth)) {
    throw invalid('invalid_parameter', `poster_width must be one of ${DELIVERY_POSTER_WIDTHS.join(', ')}, got '${posterWidth.slice(0, 40)}'.`);
  }
  return {
    posterWidth: posterWidth === null ? DELIVERY_DEFAULT_POSTER_WIDTH : Number(posterWidth),
    pageOffset: integer(params, 'page_offset', 1, 1, 999_999_999, 'an integer of at least 1 (the position of the page\'s first item)'),
    pageLimit: integer(params, 'page_limit', DEFAULT_PAGE_LIMIT, 1, DELIVERY_MAX_PAGE_LIMIT, `an integer from 1 to ${DELIVERY_MAX_PAGE_LIMIT}`),
    recommendationsPlaylistId: single(params, 'recommendations_playlist_id'),
    params,
  };
}

// ----------------------------------------------------------------------------------------------------- URLs in answers

/** Writes an answer's URLs: bare, or (a signed answer) signed for the request's expiry, each in its path's scheme. */
interface Linker {
  /** A file of the legacy scheme: /videos/, /manifests/, /tracks/, /strips/. */
  file(path: string): Promise<string>;
  /** A media's image (/v2/media/<id>/poster.jpg) at a width. */
  image(path: string, width: number): Promise<string>;
  /** A Delivery API answer (/v2/playlists/<id>) with its query. */
  feed(path: string, params: URLSearchParams): Promise<string>;
}

async function linkerFor(origin: string, signing: { exp: number; secret: string } | null): Promise<Linker> {
  const query = (params: URLSearchParams) => (params.size ? `?${params}` : '');
  if (!signing) {
    return {
      file: (path) => Promise.resolve(origin + path),
      image: (path, width) => Promise.resolve(`${origin}${path}?width=${width}`),
      feed: (path, params) => Promise.resolve(origin + path + query(params)),
    };
  }
  const { exp, secret } = signing;
  const jwt = await jwtSigner(secret);
  return {
    file: async (path) => origin + path + await legacyQuery(path, exp, secret),
    image: async (path, width) => `${origin}${path}?width=${width}&token=${await jwt({ resource: path, exp, width })}`,
    feed: async (path, params) => {
      const token = await jwt({ resource: path, exp, ...Object.fromEntries(params) });
      const signed = new URLSearchParams(params);
      signed.set('token', token);
      return origin + path + query(signed);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------- the items

interface Answering {
  store: Store;
  site: string;
  origin: string;
  posterWidth: number;
  link: Linker;
  /** The playlist an item's `recommendations` names (the one asked for, or the site's default), or null. */
  recommendations: string | null;
}

const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** HLS first (when the media is packaged in it), then its own MP4/M4A files widest first; an external media its URL. */
async function sourcesOf(a: Answering, media: Media): Promise<DeliverySource[]> {
  const renditions = a.store.list<MediaRendition>('media_rendition', a.site, media.id).filter((r) => r.status === 'ready');
  if (media.hosting_type === 'external') {
    const source = renditions.sort(byId)[0];
    if (!source) return [];
    const file = source.delivery_url.startsWith('/') && !source.delivery_url.startsWith('//') ? a.origin + source.delivery_url : source.delivery_url;
    return [{ file, type: source.mime_type }];
  }
  const sources: DeliverySource[] = [];
  // Audio is delivered as its M4A only (whatever HLS the host may still serve for it).
  const hls = media.media_type === 'video' ? hlsLadder(a.store, a.site, media) : null;
  if (hls) {
    const top = hls.variants[hls.variants.length - 1]!;
    sources.push({ file: await a.link.file(deliveryPath.manifest(media.id)), type: HLS_MIME, width: top.width, height: top.height });
  }
  const files = renditions
    .filter((r) => r.delivery_url.startsWith('/videos/') && (r.mime_type === 'video/mp4' || r.mime_type.startsWith('audio/')))
    .sort((x, y) => (y.width ?? -1) - (x.width ?? -1) || (y.height ?? -1) - (x.height ?? -1) || byId(x, y));
  for (const r of files) {
    const audio = r.mime_type.startsWith('audio/');
    sources.push({
      file: await a.link.file(r.delivery_url), type: audio ? 'audio/mp4' : 'video/mp4',
      ...(r.width !== null ? { width: r.width } : {}), ...(r.height !== null ? { height: r.height } : {}),
      label: renditionName(r.width, r.mime_type), filesize: r.filesize,
    });
  }
  return sources;
}

/** The storyboard of a video (where strips.ts serves one), then the published text tracks in the player's menu order. */
async function tracksOf(a: Answering, media: Media): Promise<DeliveryTrack[]> {
  const tracks: DeliveryTrack[] = [];
  if (media.media_type === 'video' && media.status === 'ready' && media.duration) {
    tracks.push({ file: await a.link.file(deliveryPath.strip(media.id)), kind: 'thumbnails' });
  }
  // `ready` is published; a draft (processed, unpublished), a track still processing and a failed one never show.
  const published = a.store.list<TextTrack>('text_track', a.site, media.id).filter((t) => t.status === 'ready')
    .sort((x, y) => x.metadata.position - y.metadata.position || (x.created < y.created ? -1 : x.created > y.created ? 1 : byId(x, y)));
  // One default at most: the first published track marked so.
  const defaultTrack = published.find((t) => t.metadata.default);
  for (const t of published) {
    const isDefault = t === defaultTrack;
    tracks.push({
      file: await a.link.file(deliveryPath.track(t.id)), kind: t.metadata.kind, label: t.metadata.label,
      ...(isDefault ? { default: true } : {}),
    });
  }
  return tracks;
}

const pubdate = (media: Media): number => Math.floor((Date.parse(media.metadata.publish_start_date ?? '') || 0) / 1000);

async function itemOf(a: Answering, media: Media, feedid: string | null): Promise<DeliveryItem> {
  const m = media.metadata;
  const poster = deliveryPath.poster(media.id);
  const images = await Promise.all(IMAGE_WIDTHS.map(async (width): Promise<DeliveryImage> =>
    ({ src: await a.link.image(poster, width), width, type: 'image/jpeg' })));
  const recommendations = a.recommendations === null ? null
    : await a.link.feed(deliveryPath.playlistFeed(a.recommendations), new URLSearchParams({ related_media_id: media.id }));
  return {
    mediaid: media.id,
    title: m.title,
    description: m.description ?? '',
    pubdate: pubdate(media),
    ...(m.tags.length ? { tags: m.tags.join(', ') } : {}),
    image: await a.link.image(poster, a.posterWidth),
    images,
    duration: Math.round(media.duration ?? 0),
    // The media's own link (its permalink) where the publisher set one, else the delivery host's preview page.
    link: m.permalink || a.origin + deliveryPath.preview(media.id),
    ...(feedid !== null ? { feedid } : {}),
    custom: { ...m.custom_params },
    sources: await sourcesOf(a, media),
    tracks: await tracksOf(a, media),
    ...(recommendations !== null ? { recommendations } : {}),
  };
}

// --------------------------------------------------------------------------------------------- a playlist's selection

interface Rules {
  includeTags: TagFilter['include'];
  excludeTags: TagFilter['exclude'];
  includeParams: CustomParamFilter['include'];
  excludeParams: CustomParamFilter['exclude'];
  pinned: string[];
  recencyMs: number | null;
  sort: string;
  limit: number;
}

/** A filtered playlist's rules as stored, each type's defaults filling in what a stored playlist lacks. */
function rulesOf(playlist: Playlist): Rules {
  const meta = { ...defaultRules(playlist.playlist_type), ...playlist.metadata } as Record<string, unknown>;
  const tags = meta.tag_filter as TagFilter;
  const params = meta.custom_param_filter as CustomParamFilter;
  const filter = (meta.media_filter ?? {}) as { sort?: string; limit?: number };
  const pinning = (meta.pinning ?? {}) as { slot1?: string | null; slot2?: string | null };
  const recency = typeof meta.recency === 'string' ? /^(\d{1,4})(D|YR)$/.exec(meta.recency) : null;
  return {
    includeTags: tags.include, excludeTags: tags.exclude, includeParams: params.include, excludeParams: params.exclude,
    pinned: [pinning.slot1, pinning.slot2].filter((id): id is string => typeof id === 'string'),
    recencyMs: recency ? Number(recency[1]) * (recency[2] === 'YR' ? 365 : 1) * 86_400_000 : null,
    sort: filter.sort ?? 'publish_start_date:dsc',
    limit: filter.limit ?? DEFAULT_PLAYLIST_LIMIT,
  };
}

function tagsMatch(tags: readonly string[], filter: { values: string[]; match: FilterMatch }): boolean {
  return filter.match === 'all' ? filter.values.every((t) => tags.includes(t)) : filter.values.some((t) => tags.includes(t));
}

function paramsMatch(params: Readonly<Record<string, string>>, filter: { values: Record<string, string>; match: FilterMatch }): boolean {
  const hit = ([name, value]: [string, string]) => params[name] === value;
  const wanted = Object.entries(filter.values);
  return filter.match === 'all' ? wanted.every(hit) : wanted.some(hit);
}

/** Whether a published media passes the playlist's filters: tags and custom parameters (an empty filter passes all), recency. */
function passes(rules: Rules, media: Media, now: number): boolean {
  const { tags, custom_params: params } = media.metadata;
  if (rules.includeTags.values.length && !tagsMatch(tags, rules.includeTags)) return false;
  if (rules.excludeTags.values.length && tagsMatch(tags, rules.excludeTags)) return false;
  if (Object.keys(rules.includeParams.values).length && !paramsMatch(params, rules.includeParams)) return false;
  if (Object.keys(rules.excludeParams.values).length && paramsMatch(params, rules.excludeParams)) return false;
  return rules.recencyMs === null || (Date.parse(media.metadata.publish_start_date ?? '') || 0) >= now - rules.recencyMs;
}

/** Newest first (publish_start_date), then by id: the tie-break of every order. */
const newest = (a: Media, b: Media): number => pubdate(b) - pubdate(a) || byId(a, b);

/** A dynamic playlist's `sort` as an order; `trending` and `plays` are both the plays count here. */
function ordered(media: Media[], sort: string, plays: PlayCounts): Media[] {
  if (sort === 'shuffle') {
    const out = [...media];
    const random = crypto.getRandomValues(new Uint32Array(out.length));
    for (let i = out.length - 1; i > 0; i--) {
      const j = random[i]! % (i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
  const [field, direction] = sort.split(':');
  const sign = direction === 'asc' ? 1 : -1;
  const key = (m: Media): number | string => {
    switch (field) {
      case 'title': return m.metadata.title.toLowerCase();
      case 'duration': return m.duration ?? 0;
      case 'plays': case 'trending': return plays[m.id] ?? 0;
      default: return pubdate(m);
    }
  };
  return [...media].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return (x < y ? -sign : x > y ? sign : 0) || newest(a, b);
  });
}

/** The words of a search phrase, lower-cased: single words, and phrases in double quotes (straight or curly). */
function searchWords(phrase: string): string[] {
  // A word's own punctuation stays (`beginner's`); what only touches it goes (`iceland:`, `guide?`), as a search
  // engine's tokenizer drops it.
  const words = [...phrase.matchAll(/["\u201c\u201d]([^"\u201c\u201d]*)["\u201c\u201d]?|([^\s"\u201c\u201d]+)/g)]
    .map((m) => (m[1] ?? m[2] ?? '').trim().replace(/^\p{P}+|\p{P}+$/gu, '').toLowerCase()).filter(Boolean);
  return [...new Set(words)];
}

/** How many of the words a media's title, description or tags contain. */
function wordsMatched(media: Media, words: readonly string[]): number {
  const texts = [media.metadata.title, media.metadata.description ?? '', ...media.metadata.tags].map((t) => t.toLowerCase());
  return words.filter((word) => texts.some((text) => text.includes(word))).length;
}

/**
 * The playlist's media in order, before paging (a filtered playlist's `limit` applied): published ones only. Refuses
 * what the type needs and the query lacks.
 */
function playlistMedia(store: Store, site: string, playlist: Playlist, params: URLSearchParams, now: number): Media[] {
  const type = playlist.playlist_type;
  const publishedMedia = (id: string): Media | null => {
    const media = store.get<Media>('media', site, id);
    return media && isPublished(media, now) ? media : null;
  };
  if (type === 'watchlist') {
    // A watchlist is each viewer's own list: the platform delivers it only for a signed-in viewer (its apps' watchlist
    // endpoints). Asked as a plain feed there is no viewer to read the list of, so the request is refused (400), not
    // answered as if the playlist did not exist (404): it does exist, this request cannot be answered for it.
    throw invalid('invalid_parameter', `Playlist '${playlist.id}' is a watchlist: it is delivered for a signed-in viewer only, not as a public feed.`);
  }
  if (type === 'manual') {
    const ids = ((playlist.metadata.media_filter as { include?: { values?: string[] } } | undefined)?.include?.values) ?? [];
    return [...new Set(ids)].flatMap((id) => publishedMedia(id) ?? []);
  }
  const rules = rulesOf(playlist);
  const candidates = store.list<Media>('media', site).filter((m) => isPublished(m, now) && passes(rules, m, now));
  let chosen: Media[];
  let excluded: string | null = null;
  if (SIMILAR_TYPES.includes(type)) {
    const relatedId = single(params, 'related_media_id');
    if (relatedId === null || relatedId === '') {
      throw invalid('invalid_parameter', `related_media_id is required: playlist '${playlist.id}' is a ${KINDS[type as keyof typeof KINDS]} playlist of media related to one.`);
    }
    const related = publishedMedia(relatedId);
    if (!related) throw new HttpError(404, 'not_found', `Media '${relatedId.slice(0, 40)}' (related_media_id) was not found in this playlist's property.`);
    excluded = related.id;
    const shared = (m: Media) => m.metadata.tags.filter((t) => related.metadata.tags.includes(t)).length;
    chosen = candidates.filter((m) => m.id !== related.id && shared(m) > 0)
      .sort((a, b) => shared(b) - shared(a) || newest(a, b));
  } else if (SEARCH_TYPES.includes(type)) {
    const words = searchWords(single(params, 'search') ?? '');
    if (!words.length) {
      throw invalid('invalid_parameter', `search is required: playlist '${playlist.id}' is a ${KINDS[type as keyof typeof KINDS]} playlist of media matching a phrase.`);
    }
    chosen = candidates.filter((m) => wordsMatched(m, words) > 0)
      .sort((a, b) => wordsMatched(b, words) - wordsMatched(a, words) || newest(a, b));
  } else {
    chosen = ordered(candidates, rules.sort, playCounts(store));
  }
  // Pinned media hold the first places whatever the filters say (if published; never the related media itself).
  const pinned = [...new Set(rules.pinned)].filter((id) => id !== excluded).flatMap((id) => publishedMedia(id) ?? []);
  const pinnedIds = new Set(pinned.map((m) => m.id));
  return [...pinned, ...chosen.filter((m) => !pinnedIds.has(m.id))].slice(0, rules.limit);
}

// -------------------------------------------------------------------------------------------------------- the answers

/** The playlist an item's `recommendations` names: the one asked for (a recommendations playlist of the site), or the site's default. */
function recommendationsPlaylist(store: Store, site: string, asked: string | null): string | null {
  if (asked !== null) {
    const playlist = store.get<Playlist>('playlist', site, asked);
    if (!playlist || playlist.playlist_type !== 'recommendations') {
      throw invalid('invalid_parameter', `recommendations_playlist_id must name a recommendations playlist of this property, got '${asked.slice(0, 40)}'.`);
    }
    return playlist.id;
  }
  const playlists = store.list<Playlist>('playlist', site).filter((p) => p.default && p.playlist_type === 'recommendations').sort(byId);
  return playlists[0]?.id ?? null;
}

async function mediaFeed(a: Answering, media: Media): Promise<DeliveryFeed> {
  return { title: media.metadata.title, description: media.metadata.description ?? '', kind: 'Single Item', playlist: [await itemOf(a, media, null)] };
}

async function playlistFeed(a: Answering, playlist: Playlist, query: DeliveryQuery, now: number): Promise<DeliveryFeed> {
  const all = playlistMedia(a.store, a.site, playlist, query.params, now);
  const { pageOffset: offset, pageLimit: limit } = query;
  const page = all.slice(offset - 1, offset - 1 + limit);
  const playlistItems = [];
  for (const media of page) playlistItems.push(await itemOf(a, media, playlist.id));
  // `page_offset` is the position (from 1) of a page's first item, as the platform's links count it; pages line up on
  // the first item, so the last starts at 1 + a whole number of pages.
  const last = all.length === 0 ? 1 : Math.floor((all.length - 1) / limit) * limit + 1;
  const at = (pageOffset: number): Promise<string> => {
    const params = new URLSearchParams([...query.params].filter(([name]) => !['token', 'page_offset', 'page_limit'].includes(name)));
    params.set('page_offset', String(pageOffset));
    params.set('page_limit', String(limit));
    return a.link.feed(deliveryPath.playlistFeed(playlist.id), params);
  };
  const links: NonNullable<DeliveryFeed['links']> = { first: await at(1) };
  if (offset > 1) links.prev = await at(Math.max(1, Math.min(offset - limit, last)));
  if (offset + limit <= all.length) links.next = await at(offset + limit);
  links.last = await at(last);
  return {
    title: playlist.metadata.title, description: playlist.metadata.description ?? '',
    kind: KINDS[playlist.playlist_type as keyof typeof KINDS], feedid: playlist.id, playlist: playlistItems, links,
  };
}

/**
 * `GET /v2/media/<id>` and `GET /v2/playlists/<id>`: counted, the owning site's signing checked, the query checked, a
 * scripted answer if a test set one, else the answer.
 */
export async function serveDeliveryApi(store: Store, env: SandboxEnv, request: Request, url: URL,
  api: { route: DeliveryApiRoute; params: Record<string, string> }): Promise<Response> {
  // First, before anything awaits: the count, and processing whose time has come (so a just-processed media shows).
  recordDeliveryCall(store, url.searchParams.has('token'));
  const now = Date.now();
  advanceProcessing(store, now);
  const isMedia = api.route.pattern === '/v2/media/:media';
  const id = isMedia ? api.params.media! : api.params.playlist!;
  const found = isMedia ? store.find<Media>('media', id) : store.find<Playlist>('playlist', id);
  try {
    let params = url.searchParams;
    let signing: { exp: number; secret: string } | null = null;
    if (found) {
      const verdict = await siteVerdict(store, env, url, 'jwt', found.site);
      if (!verdict.ok) return refusal(403, 'access_forbidden', verdict.why);
      params = verdict.params;
      if (verdict.exp !== null && verdict.secret !== undefined) signing = { exp: verdict.exp, secret: verdict.secret };
    }
    const query = readQuery(params);
    const scripted = scriptedAnswer(store, api.route, api.params);
    if (scripted) {
      const headers = new Headers(scripted.headers);
      headers.set('access-control-allow-origin', '*');
      return new Response(scripted.body, { status: scripted.status, headers });
    }
    const headers = { ...CORS, 'cache-control': signing ? 'no-store' : 'public, max-age=60' };
    if (isMedia) {
      const media = found?.doc as Media | undefined;
      // A media not published (not ready, scheduled, expired, never scheduled) is not there as far as delivery goes.
      if (!found || !isPublished(media!, now)) return refusal(404, 'not_found', `Media '${id}' was not found.`);
      const answering: Answering = {
        store, site: found.site, origin: url.origin, posterWidth: query.posterWidth, link: await linkerFor(url.origin, signing),
        recommendations: recommendationsPlaylist(store, found.site, query.recommendationsPlaylistId),
      };
      return json(await mediaFeed(answering, media!), 200, headers);
    }
    if (!found) return refusal(404, 'not_found', `Playlist '${id}' was not found.`);
    const answering: Answering = {
      store, site: found.site, origin: url.origin, posterWidth: query.posterWidth, link: await linkerFor(url.origin, signing),
      recommendations: recommendationsPlaylist(store, found.site, query.recommendationsPlaylistId),
    };
    return json(await playlistFeed(answering, found.doc as Playlist, query, now), 200, headers);
  } catch (error) {
    if (error instanceof HttpError) return refusal(error.status, error.code, error.message);
    throw error;
  }
}
