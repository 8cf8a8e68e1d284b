// How the v2 client talks to the upstream: headers built from scratch, rate-limit headers on every answer, 429 and its
// wait, error bodies as the client surfaces them, redirects refused, timeouts and cancellation.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamRequestError, V2ApiError, V2Client, type V2ResponseInfo } from '../../worker/upstream/index.ts';
import {
  BASE_URL, clearFaults, recordingFetch, resetSandbox, sandboxCatalog, sandboxStats, setFaults, v2Client, type CatalogSite,
} from './sandbox-support.ts';

let site: CatalogSite;
beforeAll(async () => {
  await resetSandbox();
  site = (await sandboxCatalog()).sites[0]!;
});
beforeEach(async () => {
  await resetSandbox();
});
afterEach(async () => {
  await clearFaults();
});

const failure = (call: Promise<unknown>): Promise<unknown> => call.then(() => { throw new Error('expected a failure'); }, (reason: unknown) => reason);

describe('request construction', () => {
  it('GET carries exactly the Bearer secret and Accept, no Content-Type, and redirect manual', async () => {
    const recorder = recordingFetch();
    await v2Client({ fetch: recorder.fetch }).listMedia(site.id, { q: 'tags:food', page: 2, page_length: 3, sort: 'title:desc' });
    const [call] = recorder.calls;
    expect(call!.headers).toEqual({ authorization: 'Bearer sandbox-api-secret-not-for-production', accept: 'application/json' });
    expect(call!.redirect).toBe('manual');
    expect(call!.body).toBeNull();
    const url = new URL(call!.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE_URL}/v2/sites/${site.id}/media/`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'tags:food', page: '2', page_length: '3', sort: 'title:desc' });
  });

  it('a body goes as JSON with Content-Type application/json; DELETE has none', async () => {
    const recorder = recordingFetch();
    const client = v2Client({ fetch: recorder.fetch });
    const media = site.media.published[0]!;
    await client.updateMedia(site.id, media, { metadata: { title: 'Header check' } });
    await client.renameTag(site.id, { original_tag: 'food', new_tag: 'cuisine' });
    const created = await client.createPlayer(site.id, { metadata: { name: 'Temp' } });
    await client.deletePlayer(site.id, created.id);
    const [patch, put, post, del] = recorder.calls;
    expect(patch).toMatchObject({ method: 'PATCH', body: '{"metadata":{"title":"Header check"}}' });
    expect(patch!.headers).toEqual({
      authorization: 'Bearer sandbox-api-secret-not-for-production', accept: 'application/json', 'content-type': 'application/json',
    });
    expect(put).toMatchObject({ method: 'PUT', headers: { 'content-type': 'application/json' } });
    expect(new URL(put!.url).pathname).toBe(`/v2/sites/${site.id}/rename_tag/`);
    expect(post).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(del!.method).toBe('DELETE');
    expect(del!.headers['content-type']).toBeUndefined();
    expect(del!.body).toBeNull();
  });

  it('ids are percent-encoded into the path', async () => {
    const recorder = recordingFetch();
    const error = await failure(v2Client({ fetch: recorder.fetch }).getMedia(site.id, 'a b%c'));
    expect(new URL(recorder.calls[0]!.url).pathname).toBe(`/v2/sites/${site.id}/media/a%20b%25c/`);
    expect(error).toMatchObject({ status: 404 });
  });

  it('a wrong secret is a 401 surfaced as V2ApiError', async () => {
    const error = await failure(v2Client({ secret: 'not-the-secret' }).listMedia(site.id));
    expect(error).toBeInstanceOf(V2ApiError);
    expect(error).toMatchObject({ status: 401, errors: [{ code: 'unauthorized' }] });
  });
});

describe('rate limits', () => {
  it('parses svc-request-limit/remaining on every answer, success and error, and calls onResponse', async () => {
    await resetSandbox(3);
    const seen: V2ResponseInfo[] = [];
    const client = v2Client({ onResponse: (info) => seen.push(info) });
    expect(client.rateLimit).toEqual({ limit: null, remaining: null });
    await client.listMedia(site.id);
    expect(client.rateLimit).toEqual({ limit: 3, remaining: 2 });
    await failure(client.getMedia(site.id, 'missing'));
    expect(client.rateLimit).toEqual({ limit: 3, remaining: 1 });
    await client.listPlayers(site.id);
    expect(client.rateLimit).toEqual({ limit: 3, remaining: 0 });

    const limited = await failure(client.listPlaylists(site.id));
    expect(limited).toBeInstanceOf(V2ApiError);
    const error = limited as V2ApiError;
    expect(error.status).toBe(429);
    expect(error.errors[0]!.code).toBe('rate_limit_exceeded');
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(error.rateLimit).toEqual({ limit: 3, remaining: 0 });

    expect(seen.map(({ method, status, rateLimit }) => [method, status, rateLimit.remaining])).toEqual([
      ['GET', 200, 2], ['GET', 404, 1], ['GET', 200, 0], ['GET', 429, 0],
    ]);
    expect(seen[1]!.path).toBe(`/v2/sites/${site.id}/media/missing/`);
  });

  it('a 429 was not executed, and its Retry-After reaches the caller', async () => {
    await setFaults({ force_429: true, retry_after_seconds: 7 });
    const client = v2Client();
    const error = await failure(client.removeTag(site.id, { tag: 'food' })) as V2ApiError;
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    await clearFaults();
    expect((await client.listMedia(site.id, { q: 'tags:food', page_length: 1 })).total).toBeGreaterThan(0);
  });

  it('a throwing onResponse does not change the outcome of the call', async () => {
    const client = v2Client({ onResponse: () => { throw new Error('observer bug'); } });
    await expect(client.listPlayers(site.id)).resolves.toMatchObject({ page: 1 });
  });
});

describe('error answers', () => {
  it('an outage is a 503 server_error with its wait', async () => {
    await setFaults({ outage: true });
    const error = await failure(v2Client().listMedia(site.id)) as V2ApiError;
    expect(error).toMatchObject({ status: 503, errors: [{ code: 'server_error' }], retryAfterSeconds: 30 });
  });

  it('injected failures are server_error in the v2 body', async () => {
    await setFaults({ error_rate: 1 });
    const error = await failure(v2Client().listMedia(site.id)) as V2ApiError;
    expect([500, 503]).toContain(error.status);
    expect(error.errors).toEqual([{ code: 'server_error', description: expect.any(String) }]);
  });

  it('a body that is not a v2 error body becomes one synthesized error, without the upstream text', async () => {
    const html = '<html><body>' + 'Bad gateway '.repeat(200) + '</body></html>';
    const proxyInFront = async (request: Request) => {
      await fetch(request); // the call still reaches the sandbox; a proxy in front answers instead
      return new Response(html, { status: 502, headers: { 'content-type': 'text/html' } });
    };
    const error = await failure(v2Client({ fetch: proxyInFront }).listMedia(site.id)) as V2ApiError;
    expect(error.status).toBe(502);
    expect(error.errors).toEqual([{ code: 'server_error', description: expect.not.stringContaining('Bad gateway') }]);
    expect(error.rateLimit).toEqual({ limit: null, remaining: null });
    const teapot = async () => new Response('no', { status: 418 });
    expect(await failure(v2Client({ fetch: teapot }).listMedia(site.id))).toMatchObject({ status: 418, errors: [{ code: 'http_418' }] });
  });

  it('2xx with a body that is not JSON is invalid_response', async () => {
    const garbling = async (request: Request) => {
      const response = await fetch(request);
      return new Response('{"media": [', { status: response.status, headers: response.headers });
    };
    const error = await failure(v2Client({ fetch: garbling }).listMedia(site.id));
    expect(error).toBeInstanceOf(UpstreamRequestError);
    expect(error).toMatchObject({ kind: 'invalid_response', status: 200 });
  });

  it('204 is void', async () => {
    const client = v2Client();
    const player = await client.createPlayer(site.id, { metadata: { name: 'Gone soon' } });
    await expect(client.deletePlayer(site.id, player.id)).resolves.toBeUndefined();
  });
});

describe('redirects are refused, never followed with the secret', () => {
  it('a 302 is UpstreamRequestError kind redirect, and nothing is fetched from its Location', async () => {
    const requests: string[] = [];
    const redirecting = async (request: Request) => {
      requests.push(request.url);
      return new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/steal' } });
    };
    const client = new V2Client({ baseUrl: BASE_URL, secret: 'sandbox-api-secret-not-for-production', fetch: redirecting });
    const error = await failure(client.getMedia(site.id, site.media.published[0]!));
    expect(error).toBeInstanceOf(UpstreamRequestError);
    expect(error).toMatchObject({ kind: 'redirect', status: 302 });
    expect(requests).toHaveLength(1);
    await expect(client.raw('GET', `/v2/sites/${site.id}/media/`)).rejects.toMatchObject({ kind: 'redirect' });
  });
});

describe('timeouts and cancellation', () => {
  it('no answer within timeoutMs is UpstreamRequestError kind timeout', async () => {
    await setFaults({ latency_ms: 3000 });
    const error = await failure(v2Client({ timeoutMs: 100 }).listMedia(site.id));
    expect(error).toBeInstanceOf(UpstreamRequestError);
    expect(error).toMatchObject({ kind: 'timeout' });
  });

  it('a per-call timeoutMs overrides the client\'s', async () => {
    await setFaults({ latency_ms: 3000 });
    await expect(v2Client().listMedia(site.id, {}, { timeoutMs: 100 })).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('the timeout holds even when a custom transport ignores the signal', async () => {
    const deaf = () => new Promise<Response>(() => {});
    await expect(v2Client({ fetch: deaf, timeoutMs: 50 }).listMedia(site.id)).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('the caller\'s own signal cancels with the caller\'s reason', async () => {
    await setFaults({ latency_ms: 3000 });
    const controller = new AbortController();
    const reason = new Error('visitor left');
    const call = v2Client().listMedia(site.id, {}, { signal: controller.signal });
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
  });

  it('a transport failure is kind network', async () => {
    const broken = async () => { throw new TypeError('connection refused'); };
    await expect(v2Client({ fetch: broken }).listMedia(site.id)).rejects.toMatchObject({ kind: 'network' });
  });

  it('a call refused before sending reaches no upstream', async () => {
    const before = (await sandboxStats()).total_calls;
    await expect(v2Client().getMedia(site.id, '../../players')).rejects.toMatchObject({ name: 'InvalidArgumentError' });
    expect((await sandboxStats()).total_calls).toBe(before);
  });
});
