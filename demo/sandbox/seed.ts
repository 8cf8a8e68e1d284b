// The deterministic catalog every fresh (or reset) sandbox starts with. A fixed PRNG seed and a fixed base date make
// ids, titles and figures identical on every run; publish windows sit far in the past (ended 2020), in 2024-2025, or
// in 2099, so "published", "expired" and "scheduled" stay true against the real clock for decades. The third site,
// the one that enforces URL signing, draws from its own PRNG stream after the first two are seeded, so nothing of
// theirs moved when it was added.
import type { Player, PlaylistType } from '../../worker/contract/v2-types.ts';
import type { Media, MediaStatus, Playlist, TextTrack } from './records.ts';
import { processMedia, VIDEO_WIDTHS } from './conversions.ts';
import { deliveryPath } from './delivery-paths.ts';
import { createRandom, derivedId, hashString, type Random } from './prng.ts';
import type { Store } from './store.ts';
import { defaultRules } from './playlist-rules.ts';
import { PLAYER_SCHEMA } from './handlers/players.ts';
import type { SiteRecord } from './url-signing.ts';

const SEED = 20_240_601;
/** The PRNG seed of the site that enforces URL signing: its own stream, so the first two sites' ids stay as they were. */
const SEALED_SEED = 20_260_725;
/**
 * The catalog's version: a state seeded by an older one (another delivery layout, no signing site) is seeded afresh
 * when the sandbox starts (sandbox-state.ts).
 */
export const SEED_VERSION = 2;
/** The site dedicated to URL signing (README.md, "URL signing"); its index among the seeded sites. */
export const SEALED_SITE_NAME = 'Sealed Origin Studio';
const SEALED_SITE_INDEX = 2;
const BASE = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface Topic {
  tag: string;
  subjects: readonly string[];
  category: string;
  series: string;
}

const TOPICS: readonly Topic[] = [
  { tag: 'food', category: 'Food & Drink', series: 'Kitchen Basics', subjects: ['Sourdough Starter', 'Weeknight Ramen', 'Knife Skills', 'Perfect Omelette', 'Street Tacos', 'Summer Salads'] },
  { tag: 'travel', category: 'Travel', series: 'Weekend Away', subjects: ['Lisbon Trams', 'Kyoto Temples', 'Iceland Ring Road', 'Patagonia Trails', 'Venice by Night', 'Route 66'] },
  { tag: 'football', category: 'Sports', series: 'Matchday', subjects: ['Derby Highlights', 'Set-Piece Drills', 'Goalkeeper Training', 'Cup Final Recap', 'Youth Academy'] },
  { tag: 'technology', category: 'Technology & Computing', series: 'Under the Hood', subjects: ['Edge Computing', 'Battery Chemistry', 'Open-Source Maintainers', 'Home Networking', 'Chip Design'] },
  { tag: 'nature', category: 'Science', series: 'Wild Places', subjects: ['Coral Reefs', 'Urban Foxes', 'Alpine Meadows', 'Migrating Cranes', 'Rainforest Canopy'] },
  { tag: 'music', category: 'Music and Audio', series: 'Live Sessions', subjects: ['Jazz Trio', 'String Quartet', 'Synth Workshop', 'Festival Backstage', 'Choir Rehearsal'] },
  { tag: 'science', category: 'Science', series: 'Big Questions', subjects: ['Black Holes', 'Gene Editing', 'Ocean Currents', 'Quantum Sensors', 'Ancient DNA'] },
  { tag: 'climate', category: 'News and Politics', series: 'Climate Desk', subjects: ['Heat Pumps', 'Flood Defences', 'Carbon Capture', 'Glacier Retreat', 'Solar Farms'] },
  { tag: 'fitness', category: 'Healthy Living', series: 'Daily Moves', subjects: ['Morning Stretch', 'Kettlebell Basics', 'Running Form', 'Desk Yoga', 'Recovery Days'] },
  { tag: 'history', category: 'Education', series: 'Then & Now', subjects: ['Roman Roads', 'Lost Libraries', 'Industrial Canals', 'Silk Road Cities', 'Lighthouses'] },
];
const FORMATS = ['Explained', 'in 5 Minutes', 'Behind the Scenes', 'A Beginner\'s Guide', 'Deep Dive', 'Live', 'Q&A', 'Highlights'] as const;
const EXTRA_TAGS = ['tutorial', 'interview', 'behind-the-scenes', 'live', 'documentary', 'kids', 'explainer', 'highlights', 'news'] as const;
const AUTHORS = ['Amara Okafor', 'Jonas Weber', 'Sofia Marquez', 'Hiro Tanaka', 'Priya Nair', 'Liam O\'Connor', 'Chloé Martin'] as const;
const SUBTITLE_LANGS = [['es', 'Español'], ['fr', 'Français'], ['de', 'Deutsch'], ['ja', '日本語'], ['pt', 'Português']] as const;

export interface SiteSeed {
  id: string;
  name: string;
  mediaCount: number;
}

/** Fills an empty store with the seed catalog. */
export function seedCatalog(store: Store): void {
  const random = createRandom(SEED);
  const sites: SiteSeed[] = [
    { id: random.id(), name: 'Northwind Media', mediaCount: 132 },
    { id: random.id(), name: 'Harbour Lights Radio', mediaCount: 24 },
  ];
  sites.forEach((site, index) => seedSite(store, random, site, index));
  // Last, from its own stream: the site that enforces URL signing, its secret the SIGNED_SITE_SECRET binding.
  const sealed = createRandom(SEALED_SEED);
  seedSite(store, sealed, { id: sealed.id(), name: SEALED_SITE_NAME, mediaCount: 12 }, SEALED_SITE_INDEX);
}

function seedSite(store: Store, random: Random, site: SiteSeed, siteIndex: number): void {
  const record: SiteRecord = { id: site.id, name: site.name };
  if (siteIndex === SEALED_SITE_INDEX) record.url_signing = { enforce: true, secret: 'SIGNED_SITE_SECRET' };
  store.put('site', site.id, null, record);
  const media: Media[] = [];
  for (let i = 0; i < site.mediaCount; i++) media.push(seedMedia(store, random, site, i, siteIndex));
  seedPlaylists(store, random, site, media, siteIndex);
  seedPlayers(store, random, site, siteIndex);
}

function seedMedia(store: Store, random: Random, site: SiteSeed, i: number, siteIndex: number): Media {
  const topic = siteIndex === 1 ? TOPICS[(i % 3) + 5]! : TOPICS[i % TOPICS.length]!;
  const subject = random.pick(topic.subjects);
  const format = random.pick(FORMATS);
  const created = BASE + i * 3 * DAY + random.int(0, DAY - 1) - (siteIndex * 40 * DAY);
  const status: MediaStatus = i % 25 === 5 ? 'processing' : i % 25 === 18 ? 'failed' : 'ready';
  const audio = siteIndex === 1 ? i % 2 === 0 : i % 30 === 9;
  const duration = status === 'ready' ? random.int(35, 1800) : null;
  const tags = [topic.tag, ...random.sample(EXTRA_TAGS, random.int(1, 3))];
  if (i % 7 === 0) tags.push(random.pick(TOPICS).tag);
  const window = publishWindow(i, created, random);
  const id = random.id();
  const doc: Media = {
    id, type: 'media', created: iso(created), last_modified: iso(created + random.int(1, 30) * DAY),
    status,
    error_message: status === 'failed' ? 'Transcoding failed: the source has no decodable video stream.' : null,
    duration,
    media_type: audio ? 'audio' : 'video',
    mime_type: audio ? 'audio/mpeg' : 'video/mp4',
    hosting_type: 'hosted',
    metadata: {
      title: `${subject} ${format}`,
      description: `${topic.series}: ${subject.toLowerCase()}, ${format.toLowerCase()}. ${random.pick(DESCRIPTIONS)}`,
      author: random.pick(AUTHORS),
      permalink: `https://www.example.com/${topic.tag}/${slug(subject)}-${i}`,
      category: topic.category,
      language: 'en',
      tags: [...new Set(tags)],
      publish_start_date: window.start,
      publish_end_date: window.end,
      custom_params: seedCustomParams(random, topic, i),
      external_id: i % 4 === 0 ? `cms-${siteIndex + 1}-${1000 + i}` : null,
    },
    upload: { method: 'fetch', mime_type: audio ? 'audio/mpeg' : 'video/mp4', source_url: `https://uploads.example.com/${id}.${audio ? 'mp3' : 'mp4'}`, download_url: null, trim_in_point: null, trim_out_point: null },
  };
  if (status === 'ready') {
    const widths = i % 3 === 2 ? VIDEO_WIDTHS.slice(0, 3) : VIDEO_WIDTHS;
    // The signing site delivers a third of its media as MP4 files only, the rest with HLS too.
    const hls = siteIndex !== SEALED_SITE_INDEX || i % 3 !== 1;
    const conv = processMedia(doc, doc.created, () => random.id(), widths, hls);
    doc.hls = conv.hls;
    store.put('original', site.id, id, conv.original);
    for (const rendition of conv.renditions) store.put('media_rendition', site.id, id, rendition);
    for (const thumbnail of conv.thumbnails) store.put('thumbnail', site.id, id, thumbnail);
    if (!audio) seedTracks(store, random, site.id, doc, i, siteIndex);
  }
  store.put('media', site.id, null, doc);
  return doc;
}

function publishWindow(i: number, created: number, random: Random): { start: string | null; end: string | null } {
  if (i % 20 === 3) return { start: iso(Date.UTC(2099, 0, 1) + (i % 60) * DAY), end: null };              // scheduled
  if (i % 20 === 7) return { start: iso(Date.UTC(2019, 0, 1) + i * DAY), end: iso(Date.UTC(2020, 5, 30) + i * DAY) }; // expired
  if (i % 40 === 15) return { start: null, end: null };                                                    // never scheduled
  const start = Math.min(created + DAY, Date.UTC(2025, 11, 31));
  if (i % 20 === 11) return { start: iso(start), end: iso(Date.UTC(2099, 11, 31)) };
  return { start: iso(start + random.int(0, 3600) * 1000), end: null };
}

function seedCustomParams(random: Random, topic: Topic, i: number): Record<string, string> {
  const params: Record<string, string> = { series: topic.series, episode: String((i % 12) + 1) };
  if (i % 5 === 0) params.sponsor = random.pick(['Acme Outdoor', 'Bright Bank', 'Nimbus Cloud']);
  if (i % 6 === 1) params.content_rating = random.pick(['G', 'PG', 'PG-13']);
  if (i % 9 === 4) params.rights_region = random.pick(['GB', 'US', 'EU']);
  return params;
}

/**
 * The radio site's video at this index also gets English captions and chapters: without it the geo-gated site (every
 * video of which sits at an odd index) would have neither, and the browser suites need a gated media with HLS,
 * captions, chapters and a storyboard.
 */
const GATED_FULL_TRACKS_INDEX = 21;

function seedTracks(store: Store, random: Random, site: string, media: Media, i: number, siteIndex: number): void {
  const tracks: TextTrack[] = [];
  const at = media.created;
  if (i % 2 === 0) {
    tracks.push(track(random.id(), media.id, at, { label: 'English', srclang: 'en', kind: 'captions', default: true }));
  }
  if (i % 3 === 0) {
    const [srclang, label] = SUBTITLE_LANGS[i % SUBTITLE_LANGS.length]!;
    tracks.push(track(random.id(), media.id, at, { label, srclang, kind: 'subtitles', default: false }));
  }
  if (i % 10 === 0) tracks.push(track(random.id(), media.id, at, { label: 'Chapters', srclang: 'en', kind: 'chapters', default: false }));
  if (siteIndex === 1 && i === GATED_FULL_TRACKS_INDEX) {
    // After the tracks the seed already gave it, with ids derived from the media's (no draw: every other id stays).
    tracks.push(track(derivedId(`${media.id}:captions`), media.id, at, { label: 'English', srclang: 'en', kind: 'captions', default: false }));
    tracks.push(track(derivedId(`${media.id}:chapters`), media.id, at, { label: 'Chapters', srclang: 'en', kind: 'chapters', default: false }));
  }
  tracks.forEach((t, position) => {
    t.metadata.position = position;
    store.put('text_track', site, media.id, t);
  });
}

/** A text track; its kind is also at the top level as `track_kind`, where the official clients read it. */
export function track(id: string, mediaId: string, at: string,
  metadata: Omit<TextTrack['metadata'], 'position'> & { position?: number }): TextTrack {
  return {
    id, type: 'text_track', created: at, last_modified: at, media_id: mediaId, status: 'ready', auto_publish: true, error_message: null,
    track_kind: metadata.kind, delivery_url: deliveryPath.track(id), metadata: { ...metadata, position: metadata.position ?? 0 },
  };
}

function seedPlaylists(store: Store, random: Random, site: SiteSeed, media: Media[], siteIndex: number): void {
  const at = (days: number): string => iso(BASE + days * DAY);
  const published = media.filter((m) => m.status === 'ready' && m.metadata.publish_start_date !== null &&
    m.metadata.publish_start_date < '2026' && m.metadata.publish_end_date === null);
  const notPublic = media.filter((m) => m.metadata.publish_start_date?.startsWith('2099') || m.metadata.publish_end_date?.startsWith('2020'));
  // The rules are given first (as arguments), then the id is drawn: the draws' order keeps every seeded id stable.
  const make = (type: PlaylistType, title: string, description: string, day: number, rules: Record<string, unknown>): Playlist => ({
    id: random.id(), type: 'playlist', created: at(day), last_modified: at(day + 2), playlist_type: type, default: false,
    metadata: {
      title, description, author: random.pick(AUTHORS), link: `https://www.example.com/playlists/${slug(title)}`, custom_params: { placement: 'homepage' },
      ...defaultRules(type), ...rules,
    },
  });
  const manual = (ids: string[]) => ({ media_filter: { include: { match: 'any', values: ids } } });
  const tagged = (tags: string[], match: 'any' | 'all' = 'any') => ({
    tag_filter: { include: { values: tags, match }, exclude: { values: [], match: 'any' } },
  });
  const playlists: Playlist[] = [];
  const tag = siteIndex === 0 ? 'food' : 'music';
  if (siteIndex === SEALED_SITE_INDEX) {
    // The signing site: one manual playlist of several of its published media.
    playlists.push(make('manual', 'Signed Screenings', 'Hand-picked media, delivered through signed URLs only.', 20,
      manual(random.sample(published, 6).map((m) => m.id))));
    for (const playlist of playlists) store.put('playlist', site.id, null, playlist);
    return;
  }
  playlists.push(make('manual', "Editors' Picks", 'Hand-picked by the editorial team.', 20,
    manual(random.sample(published, 8).map((m) => m.id))));
  playlists.push(make('dynamic', siteIndex === 0 ? 'Food & Recipes' : 'Live Music', `Everything tagged ${tag}.`, 22,
    { ...tagged([tag]), media_filter: { sort: 'publish_start_date:dsc', limit: 20 } }));
  if (siteIndex === 0) {
    playlists.push(make('manual', 'Coming Soon and Archive', 'Mixes published, scheduled and expired media (exercises publish windows).', 24,
      manual([...random.sample(published, 3), ...notPublic.slice(0, 4)].map((m) => m.id))));
    playlists.push(make('search', 'Travel Guides', 'Travel media matching the reader\'s search, newest first.', 26,
      { ...tagged(['travel']), media_filter: { limit: 25 } }));
    // The platform's trending playlists are dynamic ones ordered by trending.
    playlists.push(make('dynamic', 'Trending This Week', 'Most watched lately.', 28,
      { media_filter: { sort: 'trending:dsc', limit: 10 } }));
    playlists.push(make('recommendations', 'More Like This', 'Related by shared tags to the media being watched.', 30,
      { media_filter: { limit: 12 } }));
    const recommended = playlists[playlists.length - 1]!;
    recommended.default = true;
    playlists.push(make('article_matching', 'Related to This Article', 'Matches the tags of the article the widget sits on.', 32,
      { tag_filter: { include: { values: [], match: 'any' }, exclude: { values: ['fitness'], match: 'any' } }, media_filter: { limit: 6 } }));
  }
  for (const playlist of playlists) store.put('playlist', site.id, null, playlist);
}

function seedPlayers(store: Store, random: Random, site: SiteSeed, siteIndex: number): void {
  const at = iso(BASE + 10 * DAY);
  const players: Player[] = [{
    id: random.id(), type: 'player', created: at, last_modified: at, schema: PLAYER_SCHEMA, version: '8', relationships: {},
    metadata: {
      name: 'Article player', release_channel: 'latest', custom_params: { team: 'web' },
      setup_config: {
        aspectratio: '16:9', autostart: false, repeat: false, preload: 'metadata', stretching: 'uniform',
        playbackRateControls: true, displaytitle: true, displaydescription: true, mute: false, width: '100%',
        skin: { name: 'seven', controlbar: { background: '#101820' } }, cast: {}, floating: { dismissible: true },
      },
    },
  }];
  if (siteIndex === 0) {
    players.push({
      id: random.id(), type: 'player', created: at, last_modified: at, schema: PLAYER_SCHEMA, version: '8', relationships: {},
      metadata: {
        name: 'Homepage autoplay (muted)', release_channel: 'preview', custom_params: {},
        setup_config: {
          aspectratio: '1:1', autostart: 'viewable', mute: true, repeat: true, preload: 'auto', stretching: 'fill',
          playbackRateControls: [0.5, 1, 1.25, 1.5, 2], displaytitle: false, displaydescription: false,
          related: { oncomplete: 'autoplay', displayMode: 'shelf' }, advertising: { client: 'none' }, nextUpDisplay: true,
        },
      },
    });
  }
  for (const player of players) store.put('player', site.id, null, player);
}

const DESCRIPTIONS = [
  'Filmed on location with the people who know it best.',
  'Everything you need to get started, and a few things experts still argue about.',
  'A short, practical look with clear steps you can follow along.',
  'Recorded in one take, with notes and links in the description.',
  'We ask the questions viewers sent in most often.',
  'Part of an ongoing series; watch the earlier episodes first.',
] as const;

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** The most media `extra_media` adds to one site: a manual playlist's bound (10,000 ids), so one can list them all. */
export const MAX_EXTRA_MEDIA = 10_000;

/**
 * A real account's size on top of the seed (the reset option `extra_media`): `count` more ready, published videos in
 * `site`, from a stream of their own (keyed by the site, so the seeded ids never move), each with one MP4 rendition,
 * its original and thumbnails, and no text track. Every other one is tagged `music`, the rest `talk`. Answers their ids
 * in creation order.
 */
export function seedExtraMedia(store: Store, siteId: string, count: number): string[] {
  const random = createRandom(hashString(`extra-media:${siteId}`));
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = BASE + 400 * DAY + i * 60_000;
    const id = random.id();
    const doc: Media = {
      id, type: 'media', created: iso(created), last_modified: iso(created),
      status: 'ready', error_message: null, duration: 60 + (i % 600), media_type: 'video', mime_type: 'video/mp4',
      hosting_type: 'hosted',
      metadata: {
        title: `Archive clip ${i + 1}`, description: null, author: null, permalink: null, category: null, language: 'en',
        tags: ['archive', i % 2 === 0 ? 'music' : 'talk'], publish_start_date: iso(created), publish_end_date: null,
        custom_params: {}, external_id: null,
      },
      upload: { method: 'fetch', mime_type: 'video/mp4', source_url: `https://uploads.example.com/${id}.mp4`, download_url: null, trim_in_point: null, trim_out_point: null },
    };
    const conv = processMedia(doc, doc.created, () => random.id(), [640], false);
    doc.hls = conv.hls;
    store.put('original', siteId, id, conv.original);
    for (const rendition of conv.renditions) store.put('media_rendition', siteId, id, rendition);
    for (const thumbnail of conv.thumbnails) store.put('thumbnail', siteId, id, thumbnail);
    store.put('media', siteId, null, doc);
    ids.push(id);
  }
  return ids;
}
