// The parts of the v2 client that need no upstream: header parsing, error-body reading, argument checks, and the
// paginator's guards against an upstream that never ends (which the sandbox, being well-behaved, cannot play).
import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError, listQuery, paginate, parseRateLimit, parseRetryAfter, UpstreamRequestError, V2Client,
  type ListParams, type MediaList,
} from '../../worker/upstream/index.ts';
import { errorItemsFromBody } from '../../worker/upstream/error-body.ts';

describe('parseRateLimit', () => {
  it('reads both headers, and null for missing or unreadable ones', () => {
    expect(parseRateLimit(new Headers({ 'svc-request-limit': '60', 'svc-request-remaining': '0' }))).toEqual({ limit: 60, remaining: 0 });
    expect(parseRateLimit(new Headers({ 'svc-request-limit': ' 60 ' }))).toEqual({ limit: 60, remaining: null });
    expect(parseRateLimit(new Headers({ 'svc-request-limit': '-1', 'svc-request-remaining': 'many' }))).toEqual({ limit: null, remaining: null });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T08:00:00Z');
  it.each([
    ['30', 30], ['0', 0], [' 7 ', 7], ['Sun, 22 Nov 2026 08:00:45 GMT', 45], ['Sun, 22 Nov 2026 07:59:00 GMT', 0],
    ['soon', null], ['-5', null], ['1.5', null], ['99999999', 86400],
  ])('%j → %j', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
  it('null when absent', () => expect(parseRetryAfter(null, now)).toBeNull());
});

describe('error bodies', () => {
  it('keeps v2 errors, several at once', () => {
    expect(errorItemsFromBody('{"errors":[{"code":"not_found","description":"No."},{"code":"invalid_param","description":"Bad."}]}', 404))
      .toEqual([{ code: 'not_found', description: 'No.' }, { code: 'invalid_param', description: 'Bad.' }]);
  });
  it('synthesizes server_error or http_<status> for a body that is not a v2 error body', () => {
    expect(errorItemsFromBody('<html>Bad gateway</html>', 502)).toEqual([{ code: 'server_error', description: expect.any(String) }]);
    expect(errorItemsFromBody('', 418)).toEqual([{ code: 'http_418', description: expect.any(String) }]);
    expect(errorItemsFromBody('{"errors":"nope"}', 400)[0]!.code).toBe('http_400');
    expect(errorItemsFromBody('{"errors":[{"code":"<b>x</b>","description":"y"}]}', 500)[0]!.code).toBe('server_error');
  });
  it('reads a v1-shaped body into v2 form', () => {
    expect(errorItemsFromBody('{"status":"error","code":"NotFound","message":"No video."}', 404))
      .toEqual([{ code: 'not_found', description: 'No video.' }]);
  });
  it('never relays long upstream text', () => {
    const [item] = errorItemsFromBody(JSON.stringify({ errors: [{ code: 'x', description: 'a'.repeat(5000) }] }), 400);
    expect(item!.description.length).toBeLessThanOrEqual(300);
  });
});

describe('arguments are checked before any request', () => {
  let calls = 0;
  const client = new V2Client({
    baseUrl: 'http://sandbox.test', secret: 'sandbox-api-secret-not-for-production',
    fetch: async () => { calls += 1; return new Response('{}'); },
  });

  it.each([
    ['', 'site'], ['a/b', 'site'], ['..', 'site'], ['a..b', 'site'], ['x?y', 'site'], ['x#y', 'site'], ['a\\b', 'site'],
  ])('site %j is refused', async (site, argument) => {
    await expect(client.getMedia(site, 'm1')).rejects.toMatchObject({ name: 'InvalidArgumentError', argument });
  });

  it('ids of every kind are checked, and playlist types must be the spec\'s', async () => {
    await expect(client.getMedia('s', '../players')).rejects.toMatchObject({ argument: 'mediaId' });
    await expect(client.getMediaRendition('s', 'm', 'r/1')).rejects.toMatchObject({ argument: 'renditionId' });
    await expect(client.getTextTrack('s', 'm', '')).rejects.toMatchObject({ argument: 'trackId' });
    await expect(client.getThumbnail('s', 't?x=1')).rejects.toMatchObject({ argument: 'thumbnailId' });
    await expect(client.getPlayer('s', '#')).rejects.toMatchObject({ argument: 'playerId' });
    await expect(client.getTypedPlaylist('s', 'p', 'weekly' as 'manual')).rejects.toMatchObject({ argument: 'type' });
    await expect(client.raw('GET', '/v2/sites/../x/')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(client.raw('GET', '/v1/videos/list')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(client.raw('TRACE', '/v2/sites/s/media/')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(client.raw('GET', '/v2/sites/s/media/', { body: { metadata: {} } })).rejects.toMatchObject({ argument: 'body' });
    await expect(client.updateMedia('s', 'm', [] as never)).rejects.toMatchObject({ argument: 'body' });
    expect(calls).toBe(0);
  });

  it('list parameters are checked and encoded', () => {
    expect(listQuery({ q: 'tags:news AND status:ready', page: 2, page_length: 50, sort: 'title:asc' }).toString())
      .toBe('q=tags%3Anews+AND+status%3Aready&page=2&page_length=50&sort=title%3Aasc');
    for (const bad of [{ page: 0 }, { page: 1.5 }, { page_length: 1001 }, { page_length: 0 }, { sort: 'title; drop' }, { sort: 'title' }] as ListParams[]) {
      expect(() => listQuery(bad)).toThrow(InvalidArgumentError);
    }
    // The forms of the official clients' documentation.
    expect(listQuery({ q: 'external_id: abcdefgh', page_length: 1000, sort: 'created:dsc' }).toString())
      .toBe('q=external_id%3A+abcdefgh&page_length=1000&sort=created%3Adsc');
  });

  it('refuses unusable options at construction', () => {
    expect(() => new V2Client({ baseUrl: 'not a url', secret: 's' })).toThrow(TypeError);
    expect(() => new V2Client({ baseUrl: 'ftp://x', secret: 's' })).toThrow(TypeError);
    expect(() => new V2Client({ baseUrl: 'http://x', secret: 'two words' })).toThrow(TypeError);
    expect(() => new V2Client({ baseUrl: 'http://x', secret: 's', timeoutMs: 0 })).toThrow(RangeError);
  });
});

describe('paginate guards', () => {
  const media = (id: string) => ({ id }) as MediaList['media'][number];

  it('stops with an error when the upstream answers the same page again', async () => {
    const pages = paginate(async () => ({ page: 1, page_length: 2, total: 10, media: [media('a'), media('b')] }), 'media');
    const seen: string[] = [];
    await expect((async () => { for await (const item of pages) seen.push(item.id); })()).rejects.toBeInstanceOf(UpstreamRequestError);
    expect(seen).toEqual(['a', 'b']);
  });

  it('stops with an error after maxPages when an upstream never ends', async () => {
    let n = 0;
    const endless = paginate(async (params) => ({
      page: params.page!, page_length: 1, total: Number.MAX_SAFE_INTEGER, media: [media(`m${n++}`)],
    }), 'media', {}, { maxPages: 5 });
    let count = 0;
    await expect((async () => { for await (const _ of endless) count += 1; })()).rejects.toMatchObject({ kind: 'invalid_response' });
    expect(count).toBe(5);
  });

  it('stops on an empty page even when total says more', async () => {
    const asked: number[] = [];
    const items: string[] = [];
    for await (const item of paginate(async (params) => {
      asked.push(params.page!);
      return { page: params.page!, page_length: 2, total: 99, media: params.page === 1 ? [media('a'), media('b')] : [] };
    }, 'media', { page_length: 2 })) items.push(item.id);
    expect(items).toEqual(['a', 'b']);
    expect(asked).toEqual([1, 2]);
  });
});
