// A publisher's server renders a page for a visitor (reelgate/server) and asks the public API on the
// visitor's behalf. The worker takes the visitor's address from `x-reelgate-visitor-ip` only from a caller holding the
// render token (`Authorization: Bearer <RENDER_TOKEN>`; worker/http/visitor.ts): then the geo policies, the playback
// URLs' network and the abuse limit are the visitor's, never the server's (its `cf-connecting-ip`, its `request.cf`).
// Anyone else naming a visitor is refused (401), so no anonymous caller chooses its own address. Production mode
// (DEV_MODE off): the worker is called directly, with exactly these headers and bindings.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import worker from '../../worker/index.ts';
import type { FeedResponse, GateResponse } from '../../worker/contract/public-api.ts';
import { EUROPE_SITE, expectError, resetWorld, stats } from './helpers.ts';
import { playlists } from './upstream-direct.ts';

type Env = import('../../worker/env.ts').Env;

const TOKEN = 'test-render-token-not-for-production-0001';
const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';

/** The worker called directly in production mode, with exactly these headers, `request.cf` and bindings. */
async function direct(path: string, headers: Record<string, string>, overrides: Partial<Env> = {},
  cf?: Record<string, string>): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, { headers, ...(cf ? { cf } : {}) } as RequestInit);
  const response = await worker.fetch(request, { ...env, DEV_MODE: 'false', RENDER_TOKEN: TOKEN, ...overrides } as Env, ctx);
  const body = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, response);
}

/** A render server's request for `visitor`, its own connection in Berlin (address and `request.cf`). */
function asServer(path: string, visitor: string, token: string | null = TOKEN, overrides: Partial<Env> = {}) {
  const headers: Record<string, string> = { 'cf-connecting-ip': BERLIN, 'x-reelgate-visitor-ip': visitor };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return direct(path, headers, overrides, { country: 'DE', continent: 'EU' });
}

async function gate(response: Response): Promise<GateResponse> {
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

beforeEach(async () => {
  await resetWorld();
});

describe('a render server names the visitor with the render token', () => {
  it('the gate decides for the visitor named, not for the server: New York refused, Berlin allowed', async () => {
    const refused = await gate(await asServer('/api/gate/europe', NEW_YORK));
    expect(refused).toMatchObject({ allowed: false, country: 'US' });
    const allowed = await gate(await asServer('/api/gate/europe', BERLIN));
    expect(allowed).toMatchObject({ allowed: true, country: 'DE' });
    // The same server, from New York, naming a Berlin visitor: Berlin's answer.
    const named = await gate(await direct('/api/gate/europe', {
      'cf-connecting-ip': NEW_YORK, 'x-reelgate-visitor-ip': BERLIN, authorization: `Bearer ${TOKEN}`,
    }, {}, { country: 'US', continent: 'NA' }));
    expect(named).toMatchObject({ allowed: true, country: 'DE' });
  });

  it('a gated feed is refused for a refused visitor (451), with nothing of it in the answer', async () => {
    const [gated] = (await playlists(EUROPE_SITE)).filter((p) => p.playlist_type === 'manual');
    const path = `/api/sites/${EUROPE_SITE}/playlists/${gated!.id}`;
    const allowed = await asServer(path, BERLIN);
    expect(allowed.status, await allowed.clone().text()).toBe(200);
    const feed = (await allowed.json()) as FeedResponse;
    expect(feed.items.length).toBeGreaterThan(0);
    const refused = await asServer(path, NEW_YORK);
    const text = await refused.clone().text();
    for (const item of feed.items) expect(text).not.toContain(item.title);
    await expectError(refused, 451, 'geo_blocked');
  });

  it('refuses a visitor named without the token, with a wrong one, or when the worker has none: 401', async () => {
    for (const [what, response] of [
      ['no Authorization', await asServer('/api/gate/europe', BERLIN, null)],
      ['a wrong token', await asServer('/api/gate/europe', BERLIN, `${TOKEN}x`)],
      ['a token of another length', await asServer('/api/gate/europe', BERLIN, 'short')],
      ['the worker has no RENDER_TOKEN', await asServer('/api/gate/europe', BERLIN, TOKEN, { RENDER_TOKEN: undefined })],
      ['the worker\'s RENDER_TOKEN is empty', await asServer('/api/gate/europe', BERLIN, '', { RENDER_TOKEN: '' })],
    ] as const) {
      expect(response.status, what).toBe(401);
      expect(response.headers.get('www-authenticate'), what).toBe('Bearer');
      await expectError(response, 401, 'unauthorized');
    }
    // Refused before anything is asked of the platform or the Geo API.
    const before = (await stats()).total;
    await asServer(`/api/sites/${EUROPE_SITE}/media/AAAAAAAA`, BERLIN, 'wrong');
    expect((await stats()).total).toBe(before);
  });

  it('an empty or malformed visitor is an unreadable address, never the server\'s own', async () => {
    for (const visitor of ['', 'not-an-ip', '999.1.1.1']) {
      // `europe` denies what it cannot place; the server itself (Berlin, request.cf DE) would have been allowed.
      const answer = await gate(await asServer('/api/gate/europe', visitor));
      expect(answer, visitor).toMatchObject({ allowed: false, country: null });
    }
  });

  it('without a visitor header, the token changes nothing: the connection is the caller', async () => {
    const answer = await gate(await direct('/api/gate/europe', { 'cf-connecting-ip': NEW_YORK, authorization: `Bearer ${TOKEN}` }));
    expect(answer).toMatchObject({ allowed: false, country: 'US' });
  });
});
