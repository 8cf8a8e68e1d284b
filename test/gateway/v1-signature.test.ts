// Signed v1 calls (worker/docs/gateway.md, "v1 signature setup"): the key id as api_key and the key's v1 secret, a
// timestamp window, nonces accepted once, refusals with the v1 codes; the v1 filters (search, statuses_filter, any
// result_offset) mapped onto v2, and the rate_limit object of v1 answers. The signer below follows the v1 clients, not
// the worker's code.
import { createExecutionContext, env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { gatewayFetch } from '../../worker/gateway/router.ts';
import { pagePlan } from '../../worker/gateway/v1/v1-routes.ts';
import { MAX_PAGE_LENGTH, type Media } from '../../worker/contract/v2-types.ts';
import { ADMIN, createKey, direct, gateway, resetGateway, SITE, stats, type CreatedKey } from './helpers.ts';

beforeEach(() => resetGateway());

const V2 = `/v2/sites/${SITE}`;
let nonce = 10_000_000;

/** RFC 3986 encoding, as the v1 clients encode names and values. */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

async function sha1(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The query string a v1 client sends: its parameters and the api_* ones, sorted, encoded, then the signature. */
async function sign(params: Record<string, string>, keyId: string, secret: string, extra: Record<string, string> = {}): Promise<string> {
  const all: Record<string, string> = {
    api_format: 'json', api_key: keyId, api_nonce: String(nonce++), api_timestamp: String(Math.floor(Date.now() / 1000)),
    ...params, ...extra,
  };
  const base = Object.keys(all).sort().map((name) => `${encode(name)}=${encode(all[name]!)}`).join('&');
  return `${base}&api_signature=${await sha1(`${base}${secret}`)}`;
}

async function signed(route: string, key: CreatedKey, params: Record<string, string> = {}, extra: Record<string, string> = {}) {
  const response = await gateway(`/v1/${route}?${await sign(params, key.id, key.v1Secret, extra)}`);
  return { status: response.status, body: await response.json() as any };
}

function expectV1Error(result: { status: number; body: any }, status: number, code: string): void {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body).toEqual({ status: 'error', code, title: expect.any(String), message: expect.any(String) });
}

describe('v1 secrets', () => {
  it('come with a new key, shown once, never stored: only a salt is in D1', async () => {
    const key = await createKey(['read'], [SITE]);
    expect(key.v1Secret).toMatch(/^rgv1_[A-Za-z0-9_-]{43}$/);
    const listed = await (await gateway('/admin/keys', { headers: ADMIN })).text();
    expect(listed).not.toContain(key.v1Secret);
    const rows = await env.GATEWAY_DB.prepare('SELECT * FROM access_keys').all<Record<string, unknown>>();
    expect(JSON.stringify(rows.results)).not.toContain(key.v1Secret.slice(5));
    expect(rows.results[0]!.v1_secret_salt).toEqual(expect.any(String));
  });

  it('a new v1 secret retires the old one; a revoked key signs nothing', async () => {
    const key = await createKey(['read'], [SITE]);
    expect((await signed('players/list', key)).status).toBe(200);
    const issued = await gateway(`/admin/keys/${key.id}/v1_secret`, { method: 'POST', headers: ADMIN });
    expect(issued.status).toBe(201);
    const { v1_secret: fresh } = await issued.json() as { v1_secret: string };
    expect(fresh).not.toBe(key.v1Secret);
    expectV1Error(await signed('players/list', key), 401, 'SignatureInvalid');
    expect((await signed('players/list', { ...key, v1Secret: fresh })).status).toBe(200);

    await gateway(`/admin/keys/${key.id}`, { method: 'DELETE', headers: ADMIN });
    expectV1Error(await signed('players/list', { ...key, v1Secret: fresh }), 401, 'ApiKeyInvalid');
    expect((await gateway(`/admin/keys/${key.id}/v1_secret`, { method: 'POST', headers: ADMIN })).status).toBe(404);
  });

  it('without V1_SIGNING_SECRET signed calls are refused and no v1 secret is issued', async () => {
    const key = await createKey(['read'], [SITE]);
    const off = { ...env, V1_SIGNING_SECRET: undefined } as never;
    const call = await gatewayFetch(new Request(`http://localhost/v1/players/list?${await sign({}, key.id, key.v1Secret)}`), off, createExecutionContext());
    expect(call.status).toBe(401);
    expect(await call.json()).toMatchObject({ code: 'ApiKeyInvalid' });
    const issue = await gatewayFetch(new Request(`http://localhost/admin/keys/${key.id}/v1_secret`, { method: 'POST', headers: ADMIN }), off, createExecutionContext());
    expect(issue.status).toBe(409);
  });
});

describe('signed calls', () => {
  let key: CreatedKey;
  beforeEach(async () => {
    key = await createKey(['read', 'write'], [SITE]);
  });

  it('a signed list answers in v1 shape with the rate_limit object', async () => {
    const { status, body } = await signed('videos/list', key, { result_limit: '3' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', limit: 3, offset: 0, total: expect.any(Number) });
    expect(body.videos).toHaveLength(3);
    expect(body.rate_limit).toEqual({ reset: expect.any(Number), limit: expect.any(Number), remaining: expect.any(Number) });
    expect(body.rate_limit.reset).toBeGreaterThan(Math.floor(Date.now() / 1000) - 1);
  });

  it('values with spaces and reserved characters are signed in their RFC 3986 form; POST form bodies are signed too', async () => {
    expect((await signed('videos/list', key, { search: "it's (a) test*!" })).status).toBe(200);
    const body = await sign({ tag: 'old news', tag_new: 'archive' }, key.id, key.v1Secret);
    const response = await gateway('/v1/accounts/tags/update', {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body,
    });
    // Signed right, so carried out: the tag action is accepted (202), v1's answer says ok.
    expect(response.status, await response.clone().text()).toBe(202);
    expect(await response.json()).toMatchObject({ status: 'ok' });
    // The same parameters in the query and the body (as the Node client sends some POSTs) are one set.
    const twice = await sign({ tag: 'nothing-here' }, key.id, key.v1Secret);
    const both = await gateway(`/v1/accounts/tags/delete?${twice}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: twice,
    });
    expect(both.status, await both.clone().text()).toBe(202);
  });

  it('a replayed call is refused and reaches nothing', async () => {
    const query = await sign({}, key.id, key.v1Secret);
    expect((await gateway(`/v1/players/list?${query}`)).status).toBe(200);
    const before = (await stats()).total;
    const replay = await gateway(`/v1/players/list?${query}`);
    expectV1Error({ status: replay.status, body: await replay.json() }, 401, 'NonceInvalid');
    expect((await stats()).total).toBe(before);
    // Another key may use the same nonce and timestamp: nonces are per key.
    const other = await createKey(['read'], [SITE]);
    const params = Object.fromEntries(new URLSearchParams(query));
    const same = await sign({}, other.id, other.v1Secret, { api_nonce: params.api_nonce!, api_timestamp: params.api_timestamp! });
    expect((await gateway(`/v1/players/list?${same}`)).status).toBe(200);
  });

  it('refusals name what is wrong, with the v1 codes, and reach nothing', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectV1Error(await signed('players/list', key, {}, { api_timestamp: String(now - 3600) }), 401, 'TimestampExpired');
    expectV1Error(await signed('players/list', key, {}, { api_timestamp: String(now + 3600) }), 401, 'TimestampExpired');
    expectV1Error(await signed('players/list', key, {}, { api_timestamp: 'yesterday' }), 401, 'TimestampInvalid');
    expectV1Error(await signed('players/list', key, {}, { api_nonce: '12' }), 401, 'NonceInvalid');
    expectV1Error(await signed('players/list', { ...key, v1Secret: 'rgv1_wrong' }), 401, 'SignatureInvalid');
    expectV1Error(await signed('players/list', { ...key, id: 'key_unknown' }), 401, 'ApiKeyInvalid');

    const good = await sign({ result_limit: '2' }, key.id, key.v1Secret);
    const tampered = good.replace('result_limit=2', 'result_limit=3');
    const result = await gateway(`/v1/players/list?${tampered}`);
    expectV1Error({ status: result.status, body: await result.json() }, 401, 'SignatureInvalid');

    const without = (name: string) => good.split('&').filter((pair) => !pair.startsWith(`${name}=`)).join('&');
    for (const [name, code] of [['api_signature', 'SignatureMissing'], ['api_timestamp', 'TimestampMissing'],
      ['api_nonce', 'NonceMissing'], ['api_key', 'ApiKeyMissing']] as const) {
      const response = await gateway(`/v1/players/list?${without(name)}`);
      expectV1Error({ status: response.status, body: await response.json() }, 401, code);
    }
    expect((await stats()).total).toBe(0);
  });

  it('a Bearer key still works, and the signature parameters beside it are ignored', async () => {
    const response = await gateway(`/v1/players/list?api_key=${key.id}&api_signature=nothing`, { headers: key.auth });
    expect(response.status).toBe(200);
  });
});

describe('v1 filters', () => {
  let key: CreatedKey;
  beforeEach(async () => {
    key = await createKey(['read'], [SITE]);
  });

  it('result_offset need not fall on a page boundary', async () => {
    const all = (await direct<{ media: Media[] }>(`${V2}/media/?page=1&page_length=60`)).body.media.map((m) => m.id);
    for (const [limit, offset] of [[5, 7], [3, 0], [10, 25], [4, 38]] as const) {
      const { status, body } = await signed('videos/list', key, { result_limit: String(limit), result_offset: String(offset) });
      expect(status).toBe(200);
      expect(body).toMatchObject({ limit, offset });
      expect(body.videos.map((v: { key: string }) => v.key)).toEqual(all.slice(offset, offset + limit));
    }
  });

  it('pages are planned so one upstream call holds the window when one can', () => {
    expect(pagePlan(5, 10)).toEqual({ pageLength: 5, pages: [3], skip: 0 });
    expect(pagePlan(5, 7)).toEqual({ pageLength: 6, pages: [2], skip: 1 });
    // A window as long as the longest page, one past its start: two pages.
    expect(pagePlan(MAX_PAGE_LENGTH, 1)).toEqual({ pageLength: MAX_PAGE_LENGTH, pages: [1, 2], skip: 1 });
    for (let offset = 0; offset < 300; offset += 7) {
      const plan = pagePlan(20, offset);
      const start = (plan.pages[0]! - 1) * plan.pageLength + plan.skip;
      expect(start).toBe(offset);
      expect(plan.pages.length * plan.pageLength - plan.skip).toBeGreaterThanOrEqual(20);
    }
  });

  it('search looks in title, description, author, tags and key, as v2 q', async () => {
    const sample = (await direct<{ media: Media[] }>(`${V2}/media/?page=1&page_length=1`)).body.media[0]!;
    const word = sample.metadata.title.split(' ')[0]!;
    const fields = ['title', 'description', 'author', 'tags', 'id'];
    const q = fields.map((field) => `${field}:"${word}"`).join(' OR ');
    const v2 = (await direct<{ media: Media[]; total: number }>(`${V2}/media/?page_length=50&q=${encodeURIComponent(q)}`)).body;
    const { status, body } = await signed('videos/list', key, { search: word });
    expect(status).toBe(200);
    expect(v2.total).toBeGreaterThan(0);
    expect(body.total).toBe(v2.total);
    expect(body.videos.map((v: { key: string }) => v.key)).toEqual(v2.media.map((m) => m.id));
    expect((await signed('channels/list', key, { search: 'zzzz-no-such-channel' })).body).toMatchObject({ total: 0, channels: [] });
  });

  it('statuses_filter keeps the media in those statuses, with search too', async () => {
    const { body } = await signed('videos/list', key, { statuses_filter: 'failed,processing', result_limit: '100' });
    const v2 = (await direct<{ total: number }>(`${V2}/media/?q=${encodeURIComponent('status:failed OR status:processing')}`)).body;
    expect(body.total).toBe(v2.total);
    expect(body.total).toBeGreaterThan(0);
    expect(new Set(body.videos.map((v: { status: string }) => v.status))).toEqual(new Set(['failed', 'processing']));

    const both = await signed('videos/list', key, { statuses_filter: 'ready', search: 'a', result_limit: '100' });
    expect(both.status).toBe(200);
    expect(both.body.videos.every((v: { status: string }) => v.status === 'ready')).toBe(true);

    expectV1Error(await signed('videos/list', key, { statuses_filter: 'ready,gone' }), 400, 'ParamInvalid');
    expectV1Error(await signed('videos/list', key, { search: 'say "hi"' }), 400, 'ParamInvalid');
    expectV1Error(await signed('players/list', key, { search: 'x' }), 400, 'ParamInvalid');
  });
});
