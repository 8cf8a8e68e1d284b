// Conformance with the platform's official clients: the requests jwplatform-py (v2 `jwplatform/client.py`,
// `jwplatform/upload.py`), jwplatform-java (`client/*Client.java`, `rest/HttpCalls.java`) and jwplatform-go
// (`media.go`, `text_tracks.go`, `uploads.go`) send, with their exact paths, headers, bodies, query forms and upload
// flows, sent once to the sandbox (as to the platform, with the API secret) and once to the gateway (with an access
// key in the secret's place). Both must answer them the same way. A last part checks that the worker's own feed loads
// work against a sandbox that knows only the platform's spelling of the playlist types.
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Media, MediaCreateResult, PlaylistType, TextTrack, TypedPlaylist, UploadPartList } from '../../worker/contract/v2-types.ts';
import { MIN_UPLOAD_PART_BYTES, PLAYLIST_TYPES } from '../../worker/contract/v2-types.ts';
import { api } from '../worker/helpers.ts';
import { ADMIN, catalog, createKey, gateway, resetGateway, SITE } from './helpers.ts';

interface Target {
  name: 'sandbox' | 'gateway';
  /** What the official client's base URL points at. */
  fetch(path: string, init: RequestInit): Promise<Response>;
  /** What the client is configured with as its API secret. */
  secret: string;
}

const SANDBOX: Omit<Target, 'secret'> = {
  name: 'sandbox',
  fetch: (path, init) => env.SANDBOX.fetch(`http://sandbox.test${path}`, init),
};
const GATEWAY: Omit<Target, 'secret'> = {
  name: 'gateway',
  fetch: (path, init) => SELF.fetch(`http://localhost${path}`, init),
};

type Query = Record<string, string | number>;
interface Sent { status: number; body: any; response: Response }

async function read(response: Response): Promise<Sent> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, body, response };
}

/**
 * jwplatform-py `JWPlatformClient.request`: User-Agent, `Authorization: Bearer <secret>` and
 * `Content-Type: application/json` on every request (GET and DELETE included), the body as JSON, the query through
 * `urllib.parse.urlencode` (spaces as `+`, `:` as `%3A`, the dict's order).
 */
function python(target: Target, method: string, path: string, options: { body?: unknown; query?: Query; token?: string } = {}) {
  const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)]))}` : '';
  return target.fetch(`${path}${query}`, {
    method,
    headers: {
      'User-Agent': 'jwplatform_client-python/2.2.2',
      Authorization: `Bearer ${options.token ?? target.secret}`,
      'Content-Type': 'application/json',
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  }).then(read);
}

/** jwplatform-java `HttpCalls.request`: its three headers; a GET carries no query at all (its params are dropped). */
function java(target: Target, method: string, path: string, body?: Record<string, unknown>) {
  return target.fetch(path, {
    method,
    headers: { Authorization: `Bearer ${target.secret}`, accept: 'application/json', 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then(read);
}

/** jwplatform-go `V2Client.Request`: paths without the trailing slash. */
function go(target: Target, method: string, path: string, body?: unknown) {
  return target.fetch(path, {
    method,
    headers: { Authorization: `Bearer ${target.secret}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then(read);
}

/**
 * `upload._upload_to_s3`: `PUT <upload_link>` with the bytes as the body and no other header (no credential), then
 * the answer's ETag must be the quoted MD5 of the bytes, or the client raises DataIntegrityError.
 */
async function putToUploadLink(link: string, bytes: Uint8Array): Promise<void> {
  const response = await fetch(link, { method: 'PUT', body: bytes });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get('etag')).toBe(`"${await md5Hex(bytes)}"`);
}

async function md5Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('MD5', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Bytes a probe takes for an MP4 (an `ftyp` box first), of any length. */
function mp4Bytes(length: number, fill = 7): Uint8Array {
  const bytes = new Uint8Array(length).fill(fill);
  bytes.set([0, 0, 0, 0x20, ...new TextEncoder().encode('ftypisom')], 0);
  return bytes;
}

async function finishProcessing(): Promise<void> {
  const response = await env.SANDBOX.fetch('http://sandbox.test/_sandbox/processing', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ finish: true }),
  });
  expect(response.status).toBe(200);
  await response.body?.cancel();
}

async function holdProcessing(): Promise<void> {
  const response = await env.SANDBOX.fetch('http://sandbox.test/_sandbox/processing', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: 3600 }),
  });
  expect(response.status).toBe(200);
  await response.body?.cancel();
}

const V2 = `/v2/sites/${SITE}`;

/** The delivery side's poster of a media (the sandbox's, public), 720 wide. */
async function posterImage(mediaId: string): Promise<{ status: number; text: string }> {
  const response = await env.SANDBOX.fetch(`http://sandbox.test/v2/media/${mediaId}/poster.jpg?width=720`);
  return { status: response.status, text: await response.text() };
}

const PLAYLIST_SCHEMA = 'https://schema.jwplayer.com/types/playlist.json';

/** A filtered playlist's rules as the platform fills them in (the media_filter differs by type). */
const FILTER_DEFAULTS = {
  tag_filter: { include: { values: [], match: 'any' }, exclude: { values: [], match: 'any' } },
  custom_param_filter: { include: { values: {}, match: 'any' }, exclude: { values: {}, match: 'any' } },
  pinning: { slot1: null, slot2: null },
  recency: null,
};

/**
 * For one type: the rules a create body gives (under metadata), the rules its answer then holds (defaults filled in),
 * an update's rules, and the rules after it (given members merged over the current ones, each filter side replaced).
 */
function playlistCase(type: PlaylistType, media: string[]): Record<'create' | 'created' | 'update' | 'updated', Record<string, unknown>> {
  const [first, second, third] = media as [string, string, string];
  switch (type) {
    case 'manual':
      return {
        create: { media_filter: { include: { match: 'any', values: [first, second] } } },
        created: { media_filter: { include: { match: 'any', values: [first, second] } } },
        update: { media_filter: { include: { values: [third, first] } } },
        updated: { media_filter: { include: { match: 'any', values: [third, first] } } },
      };
    case 'dynamic': {
      const tags = { include: { values: ['food', 'travel'], match: 'all' }, exclude: { values: [], match: 'any' } };
      return {
        create: { tag_filter: { include: { values: ['food', 'travel'], match: 'all' } }, media_filter: { sort: 'trending:dsc' } },
        created: { ...FILTER_DEFAULTS, tag_filter: tags, media_filter: { sort: 'trending:dsc', limit: 25 } },
        update: { media_filter: { limit: 10 }, recency: '30D' },
        updated: { ...FILTER_DEFAULTS, tag_filter: tags, media_filter: { sort: 'trending:dsc', limit: 10 }, recency: '30D' },
      };
    }
    case 'search':
    case 'recommendations':
    case 'article_matching': {
      const params = { include: { values: {}, match: 'any' }, exclude: { values: { placement: 'homepage' }, match: 'any' } };
      return {
        create: { custom_param_filter: { exclude: { values: { placement: 'homepage' } } }, media_filter: { limit: 12 } },
        created: { ...FILTER_DEFAULTS, custom_param_filter: params, media_filter: { limit: 12 } },
        update: { pinning: { slot1: first }, tag_filter: { exclude: { values: ['fitness'], match: 'all' } } },
        updated: {
          ...FILTER_DEFAULTS, custom_param_filter: params, media_filter: { limit: 12 }, pinning: { slot1: first, slot2: null },
          tag_filter: { include: { values: [], match: 'any' }, exclude: { values: ['fitness'], match: 'all' } },
        },
      };
    }
    case 'watchlist':
      // Each viewer's own list: no rules at all.
      return { create: {}, created: {}, update: {}, updated: {} };
  }
}

describe.each([SANDBOX, GATEWAY])('the official clients against the $name', (base) => {
  let target: Target;
  let site: { playlists: Record<string, string[]>; media: { published: string[] } };

  beforeEach(async () => {
    await resetGateway();
    // Processing is held until a test finishes it, so no answer depends on the clock.
    await holdProcessing();
    const secret = base.name === 'sandbox' ? env.API_SECRET : (await createKey(['read', 'write'])).token;
    target = { ...base, secret };
    site = (await catalog()).sites.find((s: { id: string }) => s.id === SITE);
  });

  it('lists media with the query forms of the Python client\'s README (q with a space, sort :dsc, page_length 1000)', async () => {
    const all = await python(target, 'GET', `${V2}/media/`, { query: { page: 1, page_length: 1000, sort: 'created:dsc' } });
    expect(all.status).toBe(200);
    expect(all.body.media.length).toBe(all.body.total);
    const created = all.body.media.map((m: Media) => m.created);
    expect(created).toEqual([...created].sort().reverse());
    // The external id is answered at the top level (it is sent under metadata); q names it without a prefix.
    const withExternalId = all.body.media.find((m: Media) => m.external_id !== null) as Media;
    expect(withExternalId.metadata).not.toHaveProperty('external_id');

    const one = await python(target, 'GET', `${V2}/media/`, {
      query: { page: 1, page_length: 10, sort: 'title:asc', q: `external_id: ${withExternalId.external_id}` },
    });
    expect(one.status).toBe(200);
    expect(one.body.media.map((m: Media) => m.id)).toEqual([withExternalId.id]);
  });

  it('refuses what it refuses alike, saying what is accepted', async () => {
    const tooLong = await python(target, 'GET', `${V2}/media/`, { query: { page_length: 1001 } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0]).toEqual({ code: 'invalid_page_length', description: expect.stringContaining('from 1 to 1000') });
    const badSort = await python(target, 'GET', `${V2}/media/`, { query: { sort: 'created:down' } });
    expect(badSort.status).toBe(400);
    expect(badSort.body.errors[0]).toEqual({ code: 'invalid_sort', description: expect.stringContaining(':dsc') });
    const unknown = await python(target, 'GET', `${V2}/media/`, { query: { api_format: 'json' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toEqual({ code: 'invalid_parameter', description: expect.stringContaining('q, page, page_length, sort') });
  });

  it('creates, shows, updates and deletes a media in the three clients\' path forms', async () => {
    const created = await python(target, 'POST', `${V2}/media/`, { body: { metadata: { title: 'Conformance', tags: ['cf'] } } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await go(target, 'GET', `${V2}/media/${id}`)).body).toMatchObject({ id, status: 'created' });
    const updated = await java(target, 'PATCH', `${V2}/media/${id}/`, { metadata: { title: 'Renamed' } });
    expect(updated).toMatchObject({ status: 200, body: { metadata: { title: 'Renamed', tags: ['cf'] } } });
    expect((await python(target, 'DELETE', `${V2}/media/${id}/`)).status).toBe(204);
  });

  it.each(PLAYLIST_TYPES)('a %s playlist: created, shown, updated and deleted under <type>_playlist/', async (type) => {
    // _PlaylistClient.<Type>Playlist: POST playlists/<type>_playlist/, then playlists/<id>/<type>_playlist/, with the
    // body the definition documents: the playlist's own fields and its type's rules, all under metadata.
    const rules = playlistCase(type, site.media.published);
    const own = { title: `A ${type}`, description: null, author: 'Conformance', link: null, custom_params: { shelf: 'home' } };
    const created = await python(target, 'POST', `${V2}/playlists/${type}_playlist/`, {
      body: { metadata: { title: own.title, author: own.author, custom_params: own.custom_params, ...rules.create } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The typed answer: no playlist_type, no default flag; the rules given merged over the type's defaults.
    expect(created.body).toEqual({
      schema: PLAYLIST_SCHEMA, id: expect.any(String), type: 'playlist', created: expect.any(String), last_modified: expect.any(String),
      relationships: {}, metadata: { ...own, ...rules.created },
    });
    const id = created.body.id as string;
    expect((await java(target, 'GET', `${V2}/playlists/${id}/${type}_playlist/`)).body).toEqual(created.body);
    // The untyped answer: the own fields only, the type by its short name, the default flag.
    const { metadata: _rules, ...resource } = created.body;
    expect((await python(target, 'GET', `${V2}/playlists/${id}/`)).body).toEqual({ ...resource, metadata: own, playlist_type: type, default: false });

    const patched = await python(target, 'PATCH', `${V2}/playlists/${id}/${type}_playlist/`, { body: { metadata: { description: 'Edited', ...rules.update } } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ id, type: 'playlist', metadata: { ...own, description: 'Edited', ...rules.updated } });
    expect(Object.keys(patched.body.metadata).sort()).toEqual(Object.keys({ ...own, ...rules.updated }).sort());
    expect(patched.body).not.toHaveProperty('playlist_type');
    expect((await java(target, 'GET', `${V2}/playlists/${id}/${type}_playlist/`)).body).toEqual(patched.body);

    // The rules are members of metadata, not a subresource named after the type: that form is refused alike.
    const subresource = await python(target, 'PATCH', `${V2}/playlists/${id}/${type}_playlist/`, { body: { metadata: { [type]: {} } } });
    expect(subresource.status).toBe(400);
    expect(subresource.body.errors[0]).toEqual({ code: 'invalid_parameter', description: expect.stringContaining(`metadata.${type}`) });

    expect((await python(target, 'DELETE', `${V2}/playlists/${id}/${type}_playlist/`)).status).toBe(204);
    expect((await python(target, 'GET', `${V2}/playlists/${id}/`)).status).toBe(404);
  });

  it('the short type spelling is no alias: 400 invalid_playlist_type naming the platform spelling', async () => {
    const create = await python(target, 'POST', `${V2}/playlists/manual/`, { body: { metadata: { title: 'x' } } });
    const show = await java(target, 'GET', `${V2}/playlists/${site.playlists.dynamic![0]}/dynamic/`);
    for (const [answer, spelling] of [[create, 'manual_playlist'], [show, 'dynamic_playlist']] as const) {
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0]).toEqual({ code: 'invalid_playlist_type', description: expect.stringContaining(`'${spelling}'`) });
    }
  });

  it('Media.upload, direct: an upload link to PUT the file to, then processing, then ready', async () => {
    // create_media_and_get_upload_context: CREATE_MEDIA_PAYLOAD with upload.method set, metadata empty.
    const created = await python(target, 'POST', `${V2}/media/`, { body: { upload: { method: 'direct' }, metadata: {} } });
    expect(created.status).toBe(201);
    const media = created.body as MediaCreateResult;
    expect(media).toMatchObject({ status: 'created', upload_link: expect.stringMatching(/^http/) });
    // The answer is the media as the definition has it, plus the link: not the upload it was asked with.
    expect(media).not.toHaveProperty('upload');
    expect(media.upload_token).toBeUndefined();

    await putToUploadLink(media.upload_link!, mp4Bytes(4096));
    expect((await python(target, 'GET', `${V2}/media/${media.id}/`)).body).toMatchObject({ status: 'processing', duration: null });
    await finishProcessing();
    const ready = (await python(target, 'GET', `${V2}/media/${media.id}/`)).body as Media;
    expect(ready).toMatchObject({ status: 'ready', media_type: 'video', mime_type: 'video/mp4', error_message: null });
    expect(ready.duration).toBeGreaterThan(0);
    expect(ready.relationships).toEqual({});
    // Processing made frames: the delivery side has a poster for it now.
    expect((await posterImage(media.id)).status).toBe(200);
  });

  it('Media.upload, multipart: parts listed with the upload token, each PUT to its link, then complete', async () => {
    const created = await python(target, 'POST', `${V2}/media/`, { body: { upload: { method: 'multipart' }, metadata: {} } });
    expect(created.status).toBe(201);
    const { id, upload_id: uploadId, upload_token: uploadToken } = created.body as MediaCreateResult;
    expect(typeof uploadId).toBe('string');
    expect(typeof uploadToken).toBe('string');

    // _UploadClient.list: GET /v2/uploads/<id>/parts with {'page_length': MAX_PAGE_SIZE, 'page': n}, Bearer token.
    const listed = await python(target, 'GET', `/v2/uploads/${uploadId}/parts`, { query: { page_length: 1000, page: 1 }, token: uploadToken! });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const parts = (listed.body as UploadPartList).parts;
    expect(parts).toHaveLength(1000);
    expect(parts[0]).toMatchObject({ id: 1, part_number: 1, upload_link: expect.stringMatching(/^http/), etag: null });

    // A 5 MiB part and a short last one, as _upload_parts reads them with target_part_size = MIN_PART_SIZE.
    await putToUploadLink(parts[0]!.upload_link, mp4Bytes(MIN_UPLOAD_PART_BYTES));
    await putToUploadLink(parts[1]!.upload_link, mp4Bytes(1000, 9));
    // On resume the client skips a part whose listed etag is the MD5 of what it would send.
    const again = await python(target, 'GET', `/v2/uploads/${uploadId}/parts/`, { query: { page_length: 2, page: 1 }, token: uploadToken! });
    expect(again.body.parts.map((p: { etag: string }) => p.etag)).toEqual([await md5Hex(mp4Bytes(MIN_UPLOAD_PART_BYTES)), await md5Hex(mp4Bytes(1000, 9))]);

    // _UploadClient.complete: PUT /v2/uploads/<id>/complete, no body (Content-Type still application/json).
    const completed = await python(target, 'PUT', `/v2/uploads/${uploadId}/complete`, { token: uploadToken! });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect((await python(target, 'GET', `${V2}/media/${id}/`)).body).toMatchObject({ status: 'processing' });
    await finishProcessing();
    expect((await python(target, 'GET', `${V2}/media/${id}/`)).body).toMatchObject({ status: 'ready' });
  });

  it('multipart refusals: another token is 401, a short part before the last is 400 invalid_upload', async () => {
    const created = (await python(target, 'POST', `${V2}/media/`, { body: { upload: { method: 'multipart' }, metadata: {} } })).body as MediaCreateResult;
    const wrong = await python(target, 'GET', `/v2/uploads/${created.upload_id}/parts`, { query: { page: 1 }, token: 'not-the-upload-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].code).toBe('unauthorized');
    const parts = (await python(target, 'GET', `/v2/uploads/${created.upload_id}/parts`, { query: { page_length: 2, page: 1 }, token: created.upload_token! })).body as UploadPartList;
    await putToUploadLink(parts.parts[0]!.upload_link, mp4Bytes(100));
    await putToUploadLink(parts.parts[1]!.upload_link, mp4Bytes(100));
    const refused = await python(target, 'PUT', `/v2/uploads/${created.upload_id}/complete`, { token: created.upload_token! });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toEqual({ code: 'invalid_upload', description: expect.stringContaining('at least 5242880 bytes') });
  });

  it('a file that is not audio or video fails processing with an error message', async () => {
    const media = (await python(target, 'POST', `${V2}/media/`, { body: { upload: { method: 'direct', mime_type: 'video/mp4' }, metadata: { title: 'Oops' } } })).body as MediaCreateResult;
    await putToUploadLink(media.upload_link!, new TextEncoder().encode('%PDF-1.7 not a video'));
    await finishProcessing();
    expect((await go(target, 'GET', `${V2}/media/${media.id}`)).body).toMatchObject({ status: 'failed', error_message: expect.stringContaining('decode') });
  });

  it('Media.reupload: a new source for a ready media, which stays served (updating) until it is processed', async () => {
    const id = site.media.published[0]!;
    const before = (await python(target, 'GET', `${V2}/media/${id}/`)).body as Media;
    // A frame of the old source, made the poster.
    const frame = await python(target, 'POST', `${V2}/thumbnails/`, {
      body: { relationships: { media: [{ id }] }, upload: { source_type: 'thumbstrip_image', source_media_id: id, thumbstrip_index: 1 } },
    });
    expect(frame.status, JSON.stringify(frame.body)).toBe(201);
    expect((await python(target, 'PATCH', `${V2}/thumbnails/${frame.body.id}`, { body: { relationships: { media: [{ is_poster: true }] } } })).status).toBe(200);
    expect((await posterImage(id)).text).toBe(await (await env.SANDBOX.fetch(`${frame.body.delivery_url}?width=720`)).text());
    const answer = await python(target, 'PUT', `${V2}/media/${id}/reupload/`, { body: { upload: { method: 'direct', mime_type: 'video/mp4' } } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ id, status: 'updating', upload_link: expect.stringMatching(/^http/), metadata: { title: before.metadata.title } });
    await putToUploadLink(answer.body.upload_link, mp4Bytes(2048, 3));
    await finishProcessing();
    const after = (await python(target, 'GET', `${V2}/media/${id}/`)).body as Media;
    expect(after).toMatchObject({ status: 'ready', metadata: { title: before.metadata.title } });
    // The new source brings its own frames: the old ones, the chosen poster among them, are gone, and a new one shows.
    expect((await python(target, 'GET', `${V2}/thumbnails/${frame.body.id}`)).status).toBe(404);
    expect((await posterImage(id)).status).toBe(200);
  });

  it('text tracks with the fields the Go client sends and reads (track_kind, position, download_url)', async () => {
    const media = site.media.published[0]!;
    const created = await go(target, 'POST', `${V2}/media/${media}/text_tracks`, {
      metadata: { label: 'Deutsch', srclang: 'de', position: 3, track_kind: 'subtitles' },
      upload: { method: 'fetch', download_url: 'https://example.com/de.vtt', file_format: 'vtt' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const track = created.body as TextTrack;
    expect(track).toMatchObject({
      type: 'text_track', track_kind: 'subtitles', error_message: null, delivery_url: expect.stringMatching(/^http/),
      metadata: { label: 'Deutsch', srclang: 'de', position: 3 },
    });
    // Published at once (no auto_publish: false): `ready`, as jwplatform-go's TextTrackResource reads it.
    expect(track.status).toBe('ready');
    const listed = await python(target, 'GET', `${V2}/media/${media}/text_tracks/`);
    expect(listed.body.text_tracks.map((t: TextTrack) => t.id)).toContain(track.id);
    const updated = await go(target, 'PATCH', `${V2}/media/${media}/text_tracks/${track.id}`, { metadata: { label: 'German', position: 0 } });
    expect(updated.body).toMatchObject({ track_kind: 'subtitles', metadata: { label: 'German', position: 0 } });
  });

  it('a direct text track waits for its file, then is ready', async () => {
    const media = site.media.published[1]!;
    const created = await go(target, 'POST', `${V2}/media/${media}/text_tracks`, {
      metadata: { label: 'English', srclang: 'en', track_kind: 'captions' }, upload: { method: 'direct', file_format: 'vtt' },
    });
    // No file yet, so no delivery URL; the upload link says where to send it.
    expect(created.body).toMatchObject({ delivery_url: null, upload_link: expect.stringMatching(/^http/) });
    await putToUploadLink(created.body.upload_link, new TextEncoder().encode('WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n'));
    const ready = (await go(target, 'GET', `${V2}/media/${media}/text_tracks/${created.body.id}`)).body;
    expect(ready).toMatchObject({ delivery_url: expect.stringMatching(/^http/), error_message: null });
    expect(ready).not.toHaveProperty('upload_link');
  });
});

describe('uploads through the gateway are scoped like any write', () => {
  beforeEach(() => resetGateway());

  it('a read-only key cannot start one; the upload routes take the upload token, never an access key', async () => {
    const reader = await createKey(['read']);
    const refused = await gateway(`${V2}/media/`, {
      method: 'POST', headers: { ...reader.auth, 'content-type': 'application/json' }, body: JSON.stringify({ upload: { method: 'multipart' } }),
    });
    expect(refused.status).toBe(403);
    const writer = await createKey(['read', 'write']);
    const created = await (await gateway(`${V2}/media/`, {
      method: 'POST', headers: { ...writer.auth, 'content-type': 'application/json' }, body: JSON.stringify({ upload: { method: 'multipart' } }),
    })).json() as MediaCreateResult;
    const withKey = await gateway(`/v2/uploads/${created.upload_id}/parts`, { headers: writer.auth });
    expect(withKey.status).toBe(401);
    const unknown = await gateway('/v2/uploads/nosuchupload/parts', { headers: { authorization: `Bearer ${created.upload_token}` } });
    expect(unknown.status).toBe(401);
  });

  it('revoking the key that started an upload stops it (403), and every upload call is audited', async () => {
    const writer = await createKey(['read', 'write']);
    const created = await (await gateway(`${V2}/media/`, {
      method: 'POST', headers: { ...writer.auth, 'content-type': 'application/json' }, body: JSON.stringify({ upload: { method: 'multipart' } }),
    })).json() as MediaCreateResult;
    const token = { authorization: `Bearer ${created.upload_token}` };
    expect((await gateway(`/v2/uploads/${created.upload_id}/parts/?page_length=1`, { headers: token })).status).toBe(200);
    const audit = await (await gateway(`/admin/audit?key_id=${writer.id}`, { headers: ADMIN })).json() as { entries: Array<{ route: string }> };
    expect(audit.entries.map((e) => e.route)).toEqual(['uploads.parts', 'media.create']);
    expect((await gateway(`/admin/keys/${writer.id}`, { method: 'DELETE', headers: ADMIN })).status).toBe(200);
    const after = await gateway(`/v2/uploads/${created.upload_id}/complete`, { method: 'PUT', headers: token });
    expect(after.status).toBe(403);
  });
});

describe('the worker\'s feeds from a sandbox that knows only the platform\'s spelling', () => {
  beforeEach(() => resetGateway());

  it.each(PLAYLIST_TYPES.filter((type) => type !== 'watchlist'))('a seeded %s playlist loads', async (type) => {
    const site = (await catalog()).sites.find((s: { id: string }) => s.id === SITE);
    // From Manchester: inside every policy the test configuration binds to the seeded playlists.
    const response = await api(`/api/sites/${SITE}/playlists/${site.playlists[type][0]}`, { ip: '192.0.2.11' });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text).playlist.type).toBe(type);
  });

  it('a watchlist playlist (each viewer\'s own) loads with no items', async () => {
    const created = await env.SANDBOX.fetch(`http://sandbox.test${V2}/playlists/watchlist_playlist/`, {
      method: 'POST', headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { title: 'Saved' } }),
    });
    const playlist = await created.json() as TypedPlaylist<'watchlist'>;
    const response = await api(`/api/sites/${SITE}/playlists/${playlist.id}`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ playlist: { id: playlist.id, type: 'watchlist' }, items: [] });
  });
});
