// /_sandbox/scripted: a test states the platform's answer to a route. The answer stands in for the route's handler
// only: the credential, the rate window and the statistics still apply, and a reset clears it like any control state.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, callJson, control, errorShape, ORIGIN, reset, sites } from './helpers.ts';

beforeEach(() => reset({ rate_limit_per_minute: 10_000 }));

const MEDIA_ROUTE = 'GET /v2/sites/:site/media/:media/';
const stats = async () => (await control('GET', 'stats')).json<{ routes: Record<string, number>; total_calls: number }>();

describe('a scripted answer', () => {
  it('answers its route, with the rate headers, counted in the stats, until cleared', async () => {
    const { big } = await sites();
    const [first, second] = big.media.published;
    const real = await callJson('GET', `/v2/sites/${big.id}/media/${first}/`);
    const body = { ...real.body, metadata: { ...real.body.metadata, title: '' } };
    const set = await control('POST', 'scripted', { route: MEDIA_ROUTE, body });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ scripted: [{ route: MEDIA_ROUTE, params: {}, status: 200, times: null }] });

    // Every media of every site now answers the scripted body, the one asked for or not.
    for (const id of [first, second]) {
      const answer = await callJson('GET', `/v2/sites/${big.id}/media/${id}/`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(body);
      expect(answer.response.headers.get('svc-request-limit')).toBe('10000');
      expect(answer.response.headers.get('svc-request-remaining')).not.toBeNull();
    }
    expect((await stats()).routes[MEDIA_ROUTE]).toBe(3);

    expect(await (await control('DELETE', 'scripted', {})).json()).toEqual({ scripted: [] });
    expect((await callJson('GET', `/v2/sites/${big.id}/media/${first}/`)).body).toEqual(real.body);
  });

  it('can be for some parameters only, for a number of calls, with another status', async () => {
    const { big } = await sites();
    const [first, second] = big.media.published;
    await control('POST', 'scripted', {
      route: MEDIA_ROUTE, params: { media: first }, status: 404, times: 2,
      body: { errors: [{ code: 'not_found', description: 'Scripted.' }] },
    });
    expect((await call('GET', `/v2/sites/${big.id}/media/${second}/`)).status).toBe(200);
    expect((await callJson('GET', `/v2/sites/${big.id}/media/${first}/`)).body).toEqual(errorShape('not_found'));
    expect((await call('GET', `/v2/sites/${big.id}/media/${first}`)).status).toBe(404);
    // Spent: the sandbox answers again.
    expect((await call('GET', `/v2/sites/${big.id}/media/${first}/`)).status).toBe(200);
    expect(await (await control('GET', 'scripted')).json()).toEqual({ scripted: [] });
  });

  it('the newest script of a route and parameters replaces the one before', async () => {
    const { big } = await sites();
    const route = 'GET /v2/sites/:site/players/';
    await control('POST', 'scripted', { route, body: { players: [], page: 1, page_length: 10, total: 0 } });
    await control('POST', 'scripted', { route, body: { players: [], page: 1, page_length: 10, total: 7 } });
    expect(await (await control('GET', 'scripted')).json()).toEqual({ scripted: [{ route, params: {}, status: 200, times: null }] });
    expect((await callJson('GET', `/v2/sites/${big.id}/players/`)).body.total).toBe(7);
  });

  it('does not stand in for the credential, the query rules or the rate window', async () => {
    const { big } = await sites();
    await control('POST', 'scripted', { route: 'GET /v2/sites/:site/media/', body: { media: [], page: 1, page_length: 10, total: 0 } });
    expect((await call('GET', `/v2/sites/${big.id}/media/`, { anonymous: true })).status).toBe(401);
    expect((await call('GET', `/v2/sites/${big.id}/media/?page_length=0`)).status).toBe(400);
    await reset({ rate_limit_per_minute: 1 });
    await control('POST', 'scripted', { route: 'GET /v2/sites/:site/media/', body: { media: [], page: 1, page_length: 10, total: 0 } });
    expect((await call('GET', `/v2/sites/${big.id}/media/`)).status).toBe(200);
    expect((await call('GET', `/v2/sites/${big.id}/media/`)).status).toBe(429);
  });

  it('several are set in one call, all or none', async () => {
    const { big } = await sites();
    const [first, second] = big.media.published;
    const answer = (id: string) => ({ route: MEDIA_ROUTE, params: { media: id }, status: 404,
      body: { errors: [{ code: 'not_found', description: `Scripted ${id}.` }] } });
    const refused = await control('POST', 'scripted', { scripts: [answer(first!), { route: 'GET /nowhere/' }] });
    expect(refused.status).toBe(400);
    expect(await (await control('GET', 'scripted')).json()).toEqual({ scripted: [] });
    const set = await control('POST', 'scripted', { scripts: [answer(first!), answer(second!)] });
    expect(((await set.json()) as { scripted: unknown[] }).scripted).toHaveLength(2);
    for (const id of [first, second]) expect((await call('GET', `/v2/sites/${big.id}/media/${id}/`)).status).toBe(404);
  });

  it('is cleared by a reset', async () => {
    await control('POST', 'scripted', { route: MEDIA_ROUTE, body: {} });
    await reset();
    expect(await (await control('GET', 'scripted')).json()).toEqual({ scripted: [] });
  });
});

describe('the scripted control', () => {
  it.each([
    [{ route: 'GET /v2/sites/:site/nothing/', body: {} }],
    [{ route: MEDIA_ROUTE, params: { rendition: 'abc' }, body: {} }],
    [{ route: MEDIA_ROUTE, params: { media: 7 }, body: {} }],
    [{ route: MEDIA_ROUTE, status: 99, body: {} }],
    [{ route: MEDIA_ROUTE, times: 0, body: {} }],
    [{ route: MEDIA_ROUTE, body: {}, other: true }],
  ])('refuses %j with 400 invalid_parameter', async (script) => {
    const response = await control('POST', 'scripted', script);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(errorShape('invalid_parameter'));
    expect(await (await control('GET', 'scripted')).json()).toEqual({ scripted: [] });
  });

  it('takes writes only as JSON (415) and from no other origin (403); other methods are 405', async () => {
    const send = (method: string, headers: Record<string, string>) => env.SANDBOX.fetch(`${ORIGIN}/_sandbox/scripted`, {
      method, headers, body: JSON.stringify({ route: MEDIA_ROUTE, body: {} }),
    });
    expect((await send('POST', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await send('DELETE', {})).status).toBe(415);
    const foreign = await send('POST', { 'content-type': 'application/json', origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(await (await control('GET', 'scripted')).json()).toEqual({ scripted: [] });
    const put = await send('PUT', { 'content-type': 'application/json' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
  });
});
