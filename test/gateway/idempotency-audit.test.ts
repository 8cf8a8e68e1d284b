// Writes are never doubled and always on record: a retry under the same Idempotency-Key gets the first outcome with no
// second upstream call, another body under it is refused (422), concurrent duplicates reach the upstream once; every
// write leaves an audit row that GET /admin/audit pages through.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Player } from '../../worker/upstream/v2-types.ts';
import { budgetStub } from '../../worker/budget/upstream.ts';
import {
  ADMIN, callsTo, catalog, createKey, direct, expectError, gateway, resetGateway, send, SITE, stats, type CreatedKey,
} from './helpers.ts';

beforeEach(() => resetGateway());

const V2 = `/v2/sites/${SITE}`;
const NEW_PLAYER = { metadata: { name: 'Import job player', release_channel: 'latest' } };

async function playersNamed(name: string): Promise<number> {
  const list = (await direct<{ players: Player[] }>(`${V2}/players/?page_length=500`)).body.players;
  return list.filter((p) => p.metadata.name === name).length;
}

describe('idempotent writes', () => {
  let key: CreatedKey;
  beforeEach(async () => {
    key = await createKey(['read', 'write']);
  });

  it('a retry returns the first outcome without a second upstream call', async () => {
    const first = await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'import-42' });
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    const calls = callsTo(await stats(), 'POST', '/players/');
    expect(calls).toBe(1);

    // Same body, keys in another order: the same request.
    const retry = await send(`${V2}/players/`, 'POST', key,
      { metadata: { release_channel: 'latest', name: 'Import job player' } }, { 'idempotency-key': 'import-42' });
    expect(retry.status).toBe(201);
    expect(await retry.text()).toBe(firstBody);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('svc-request-remaining')).toMatch(/^\d+$/);
    expect(callsTo(await stats(), 'POST', '/players/')).toBe(1);
    expect(await playersNamed('Import job player')).toBe(1);
  });

  it('another body under a used key is refused with 422 and nothing is written', async () => {
    expect((await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'k1' })).status).toBe(201);
    const other = await send(`${V2}/players/`, 'POST', key, { metadata: { name: 'Something else' } }, { 'idempotency-key': 'k1' });
    await expectError(other, 422, 'idempotency_key_reused');
    expect(callsTo(await stats(), 'POST', '/players/')).toBe(1);
    expect(await playersNamed('Something else')).toBe(0);
  });

  it('outcomes are per key: another access key with the same Idempotency-Key is a new request', async () => {
    const other = await createKey(['write']);
    expect((await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'shared' })).status).toBe(201);
    expect((await send(`${V2}/players/`, 'POST', other, NEW_PLAYER, { 'idempotency-key': 'shared' })).status).toBe(201);
    expect(callsTo(await stats(), 'POST', '/players/')).toBe(2);
  });

  it('an error outcome is stored too: a retried DELETE does not run twice', async () => {
    const player = (await catalog()).sites.find((s: { id: string }) => s.id === SITE).players[0];
    const first = await send(`${V2}/players/${player}/`, 'DELETE', key, undefined, { 'idempotency-key': 'del-1' });
    expect(first.status).toBe(204);
    const again = await send(`${V2}/players/${player}/`, 'DELETE', key, undefined, { 'idempotency-key': 'del-1' });
    expect(again.status).toBe(204);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(callsTo(await stats(), 'DELETE', '/players/')).toBe(1);
  });

  it('concurrent duplicates reach the upstream once; the others wait (409) or replay', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () =>
      send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'burst-1' })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    for (const r of responses) {
      expect([201, 409]).toContain(r.status);
      if (r.status === 409) {
        expect(r.headers.get('retry-after')).toBe('1');
        await expectError(r, 409, 'idempotency_in_progress');
      }
    }
    expect(callsTo(await stats(), 'POST', '/players/')).toBe(1);
    expect(await playersNamed('Import job player')).toBe(1);
  });

  it('a write refused for want of budget keeps its key free, so the retry goes through', async () => {
    // Spend all the gateway may of the burst on its reads so the write finds no slot within the bounded wait.
    const stub = budgetStub(env);
    await Promise.all(Array.from({ length: 10 }, (_, i) => stub.call({
      lane: 'gateway-read', caller: 'filler', call: { api: 'v2', op: 'listMedia', site: SITE, params: { page: i + 1, page_length: 1 } },
    })));
    const refused = await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'later' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await expectError(refused, 429, 'rate_limited');
    expect(callsTo(await stats(), 'POST', '/players/')).toBe(0);
    await stub.reset();
    const retried = await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'later' });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe(null);
    expect(callsTo(await stats(), 'POST', '/players/')).toBe(1);
  });

  it('a malformed Idempotency-Key is refused', async () => {
    await expectError(await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'x'.repeat(300) }),
      400, 'invalid_request');
    expect((await stats()).total).toBe(0);
  });
});

interface AuditPage {
  entries: Array<{ id: number; at: string; key_id: string; method: string; route: string; path: string; site: string;
    status: number; idempotency_key: string | null; replayed: boolean }>;
  next_cursor: string | null;
}

describe('the audit trail', () => {
  it('has a row for each write (forwarded, replayed or refused) and none for reads', async () => {
    const key = await createKey(['read', 'write'], [SITE]);
    const player = (await catalog()).sites.find((s: { id: string }) => s.id === SITE).players[0];
    await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'a-1' });
    await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'a-1' });
    await send(`${V2}/players/${player}/`, 'PATCH', key, { metadata: { release_channel: 'beta' } });
    await send(`/v2/sites/zzzzzzzz/players/`, 'POST', key, NEW_PLAYER);
    await gateway(`${V2}/players/`, { headers: key.auth });
    await send(`${V2}/query_usage/`, 'PUT', key, { metadata: { start_date: '2026-01-01', end_date: '2026-01-01' } });

    const response = await gateway('/admin/audit', { headers: ADMIN });
    expect(response.status).toBe(200);
    const page = (await response.json()) as AuditPage;
    expect(page.entries.map(({ method, route, status, idempotency_key, replayed, key_id }) =>
      ({ method, route, status, idempotency_key, replayed, key_id }))).toEqual([
      { method: 'POST', route: 'players.create', status: 403, idempotency_key: null, replayed: false, key_id: key.id },
      { method: 'PATCH', route: 'players.update', status: 200, idempotency_key: null, replayed: false, key_id: key.id },
      { method: 'POST', route: 'players.create', status: 201, idempotency_key: 'a-1', replayed: true, key_id: key.id },
      { method: 'POST', route: 'players.create', status: 201, idempotency_key: 'a-1', replayed: false, key_id: key.id },
    ]);
    expect(page.entries[1]).toMatchObject({ path: `${V2}/players/${player}/`, site: SITE });
    expect(Date.parse(page.entries[0]!.at)).not.toBeNaN();
    expect(page.next_cursor).toBe(null);
  });

  it('pages newest first with a cursor, and filters by key', async () => {
    const a = await createKey(['write']);
    const b = await createKey(['write']);
    for (let i = 0; i < 3; i++) await send(`${V2}/players/`, 'POST', a, { metadata: { name: `a${i}` } });
    await send(`${V2}/players/`, 'POST', b, { metadata: { name: 'b0' } });

    const first = (await (await gateway('/admin/audit?limit=2', { headers: ADMIN })).json()) as AuditPage;
    expect(first.entries).toHaveLength(2);
    expect(first.entries[0]!.key_id).toBe(b.id);
    expect(first.next_cursor).not.toBe(null);
    const second = (await (await gateway(`/admin/audit?limit=2&cursor=${first.next_cursor}`, { headers: ADMIN })).json()) as AuditPage;
    expect(second.entries).toHaveLength(2);
    expect(second.next_cursor).toBe(null);
    const ids = [...first.entries, ...second.entries].map((e) => e.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));

    const onlyA = (await (await gateway(`/admin/audit?key_id=${a.id}`, { headers: ADMIN })).json()) as AuditPage;
    expect(onlyA.entries).toHaveLength(3);
    expect(onlyA.entries.every((e) => e.key_id === a.id)).toBe(true);
  });

  it('is for the admin only, and bad paging parameters are refused', async () => {
    const key = await createKey(['read', 'write']);
    await expectError(await gateway('/admin/audit', { headers: key.auth }), 401, 'unauthorized');
    await expectError(await gateway('/admin/audit?limit=0', { headers: ADMIN }), 400, 'invalid_request');
    await expectError(await gateway('/admin/audit?cursor=abc', { headers: ADMIN }), 400, 'invalid_request');
    await expectError(await gateway('/admin/audit?order=asc', { headers: ADMIN }), 400, 'invalid_request');
  });
});
