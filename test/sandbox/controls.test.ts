// /_sandbox/ controls: catalog, stats (with the Authorization hash), faults and reset.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, callJson, catalog, control, errorShape, GEO_KEY, ORIGIN, reset, SECRET, sites } from './helpers.ts';

beforeEach(() => reset({ rate_limit_per_minute: 10_000 }));

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
const stats = async () => (await control('GET', 'stats')).json<Record<string, any>>();

describe('catalog', () => {
  it('names at least two sites, the big one first, with ids to pick from', async () => {
    const { sites: list } = await catalog();
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list[0]!.media_total).toBeGreaterThanOrEqual(120);
    for (const site of list) {
      expect(site.players.length).toBeGreaterThan(0);
      expect((await callJson('GET', `/v2/sites/${site.id}/players/${site.players[0]}/`)).status).toBe(200);
    }
  });

  it('is the same after a reset: ids are deterministic', async () => {
    const first = await catalog();
    await reset();
    expect(await catalog()).toEqual(first);
  });
});

describe('stats', () => {
  it('counts calls per route pattern, auth failures and 429s, and hashes the last Authorization value', async () => {
    const { big } = await sites();
    await call('GET', `/v2/sites/${big.id}/media/`);
    await call('GET', `/v2/sites/${big.id}/media/${big.media.published[0]}/`);
    await call('GET', `/v2/sites/${big.id}/media/${big.media.published[1]}`);
    await call('GET', `/v2/sites/${big.id}/media/`, { anonymous: true, headers: { authorization: 'Bearer wrong' } });
    const answer = await stats();
    expect(answer.routes).toEqual({ 'GET /v2/sites/:site/media/': 2, 'GET /v2/sites/:site/media/:media/': 2 });
    expect(answer.total_calls).toBe(4);
    expect(answer.auth_failures).toBe(1);
    expect(answer.rate_limited).toBe(0);
    expect(answer.last_authorization_sha256).toBe(await sha256('Bearer wrong'));
    await call('GET', `/v2/sites/${big.id}/media/`);
    expect((await stats()).last_authorization_sha256).toBe(await sha256(`Bearer ${SECRET}`));
  });

  it('counts geo calls under their own pattern and hashes the geo key apart', async () => {
    await env.SANDBOX.fetch(`${ORIGIN}/ip_lookup/reelgate/192.0.2.10`, { headers: { 'x-auth-key': GEO_KEY } });
    const answer = await stats();
    expect(answer.routes).toEqual({ 'GET /ip_lookup/:client/:ip': 1 });
    expect(answer.last_geo_key_sha256).toBe(await sha256(GEO_KEY));
    expect(answer.last_authorization_sha256).toBeNull();
  });

  it('controls themselves are not counted and need no credential', async () => {
    await catalog();
    await stats();
    expect((await stats()).total_calls).toBe(0);
  });
});

describe('faults', () => {
  it('outage: every v2 and geo call fails with 503 server_error, then clears', async () => {
    const { big } = await sites();
    const set = await control('POST', 'faults', { outage: true });
    expect(await set.json()).toEqual({ faults: { outage: true } });
    const v2 = await callJson('GET', `/v2/sites/${big.id}/media/`);
    expect(v2.status).toBe(503);
    expect(v2.body).toEqual(errorShape('server_error'));
    const geo = await env.SANDBOX.fetch(`${ORIGIN}/ip_lookup/reelgate/192.0.2.10`, { headers: { 'x-auth-key': GEO_KEY } });
    expect(geo.status).toBe(503);
    expect(v2.response.headers.get('svc-request-limit')).toBe('10000');
    expect(await (await control('POST', 'faults', {})).json()).toEqual({ faults: {} });
    const after = await call('GET', `/v2/sites/${big.id}/media/`);
    expect(after.status).toBe(200);
    // Calls refused by the outage never reached the platform, so they took no slot of the window.
    expect(after.headers.get('svc-request-remaining')).toBe('9999');
  });

  it('error_rate 1: every authorised call fails with 500 or 503 server_error', async () => {
    const { big } = await sites();
    await control('POST', 'faults', { error_rate: 1 });
    for (let i = 0; i < 4; i++) {
      const answer = await callJson('GET', `/v2/sites/${big.id}/media/`);
      expect([500, 503]).toContain(answer.status);
      expect(answer.body).toEqual(errorShape('server_error'));
    }
    expect((await stats()).faults_injected).toBe(4);
  });

  it('force_429: every call is refused as over the limit, with Retry-After', async () => {
    const { big } = await sites();
    await control('POST', 'faults', { force_429: true, retry_after_seconds: 7 });
    const answer = await callJson('GET', `/v2/sites/${big.id}/media/`);
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual(errorShape('rate_limit_exceeded'));
    expect(answer.response.headers.get('retry-after')).toBe('7');
    expect((await stats()).rate_limited).toBe(1);
  });

  it('latency_ms is stored and answered (its effect belongs to the bench, not to a timed assertion)', async () => {
    const answer = await (await control('POST', 'faults', { latency_ms: 5 })).json();
    expect(answer).toEqual({ faults: { latency_ms: 5 } });
    expect(await (await control('GET', 'faults')).json()).toEqual({ faults: { latency_ms: 5 } });
  });

  it.each([[{ error_rate: 2 }], [{ latency_ms: -1 }], [{ outage: 'yes' }], [{ meteor: true }]])('refuses %j with 400', async (body) => {
    const response = await control('POST', 'faults', body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(errorShape('invalid_parameter'));
  });
});

describe('reset', () => {
  it('reseeds state and clears stats, faults and rate windows', async () => {
    const { big } = await sites();
    await callJson('PATCH', `/v2/sites/${big.id}/media/${big.media.published[0]}/`, { body: { metadata: { title: 'Changed' } } });
    await control('POST', 'faults', { outage: true });
    await reset();
    expect(await stats()).toMatchObject({ total_calls: 0, routes: {}, rate_limited: 0, auth_failures: 0, last_authorization_sha256: null });
    expect(await (await control('GET', 'faults')).json()).toEqual({ faults: {} });
    const media = await callJson('GET', `/v2/sites/${big.id}/media/${big.media.published[0]}/`);
    expect(media.body.metadata.title).not.toBe('Changed');
    expect(media.response.headers.get('svc-request-remaining')).toBe('59');
  });

  it('refuses a bad rate_limit_per_minute', async () => {
    const response = await control('POST', 'reset', { rate_limit_per_minute: 0 });
    expect(response.status).toBe(400);
  });

  it('unknown controls are 404 and wrong methods 405', async () => {
    expect((await control('GET', 'nothing')).status).toBe(404);
    const wrong = await control('GET', 'reset');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });
});
