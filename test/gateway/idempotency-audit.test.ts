// Writes are never doubled and always on record: a retry under the same Idempotency-Key gets the first outcome with no
// second upstream call, another body under it is refused (422), concurrent duplicates reach the upstream once; only a
// completed upstream answer is kept, so a retry after a 5xx or a refusal performs the write; every write leaves an
// audit row that GET /admin/audit pages through.
import { env, runInDurableObject } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Media, Player } from '../../worker/contract/v2-types.ts';
import { budgetStub } from '../../worker/budget/client.ts';
import { IdempotencyStore, isCompletedAnswer, PENDING_LEASE_MS, type IdempotencySlot } from '../../worker/gateway/idempotency.ts';
import {
  ADMIN, callsTo, catalog, createKey, direct, expectError, gateway, resetGateway, sandbox, send, SITE, stats,
  type CreatedKey,
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
    // No slot within the bounded wait: the bucket held as an upstream Retry-After holds it (white-box, so the outcome
    // does not depend on how fast this machine spends a burst while the bucket refills).
    const stub = budgetStub(env);
    await runInDurableObject(stub, (object) => {
      (object as unknown as { bucket(api: string): { pause(ms: number, now: number): void } }).bucket('v2').pause(60_000, Date.now());
    });
    const refused = await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'later' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await expectError(refused, 429, 'rate_limit_exceeded');
    expect(callsTo(await stats(), 'POST', '/players/')).toBe(0);
    await stub.reset();
    const retried = await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'later' });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe(null);
    expect(callsTo(await stats(), 'POST', '/players/')).toBe(1);
  });

  it('a 4xx the platform decided is a completed answer: the retry replays it', async () => {
    const first = await send(`${V2}/players/zzzzzzzz/`, 'PATCH', key, { metadata: { name: 'x' } }, { 'idempotency-key': 'gone-1' });
    expect(first.status).toBe(404);
    const again = await send(`${V2}/players/zzzzzzzz/`, 'PATCH', key, { metadata: { name: 'x' } }, { 'idempotency-key': 'gone-1' });
    expect(again.status).toBe(404);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(callsTo(await stats(), 'PATCH', '/players/')).toBe(1);
  });

  it('a malformed Idempotency-Key is refused', async () => {
    await expectError(await send(`${V2}/players/`, 'POST', key, NEW_PLAYER, { 'idempotency-key': 'x'.repeat(300) }),
      400, 'invalid_request');
    expect((await stats()).total).toBe(0);
  });
});

async function faults(body: Record<string, unknown>): Promise<void> {
  const response = await sandbox('/_sandbox/faults', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
  await response.body?.cancel();
}

describe('an idempotent retry after an upstream 5xx succeeds', () => {
  let key: CreatedKey;
  let mediaPath: string;
  let mediaId: string;
  beforeEach(async () => {
    key = await createKey(['read', 'write'], [SITE]);
    mediaId = (await catalog()).sites.find((s: { id: string }) => s.id === SITE).media.published[0];
    mediaPath = `${V2}/media/${mediaId}/`;
  });
  const title = async () => (await direct<Media>(mediaPath)).body.metadata.title;
  const PATCH = { metadata: { title: 'Written after the platform recovered' } };

  it('an idempotent retry after an upstream 5xx succeeds, and the PATCH lands in the sandbox', async () => {
    const before = await title();
    await faults({ error_rate: 1 });
    const failed = await send(mediaPath, 'PATCH', key, PATCH, { 'idempotency-key': 'recover-1' });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.headers.get('idempotent-replayed')).toBe(null);
    await failed.body?.cancel();
    await faults({});
    expect(await title()).toBe(before);

    const retried = await send(mediaPath, 'PATCH', key, PATCH, { 'idempotency-key': 'recover-1' });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe(null);
    expect(((await retried.json()) as Media).metadata.title).toBe(PATCH.metadata.title);
    expect(await title()).toBe(PATCH.metadata.title);
    expect(callsTo(await stats(), 'PATCH', '/media/')).toBe(2);

    // Now the answer is a completed one: it is what the key replays, with no third upstream call.
    const replayed = await send(mediaPath, 'PATCH', key, PATCH, { 'idempotency-key': 'recover-1' });
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    await replayed.body?.cancel();
    expect(callsTo(await stats(), 'PATCH', '/media/')).toBe(2);
  });

  it('the released key is claimed again atomically: of concurrent retries one reaches the upstream, the rest 409 or replay', async () => {
    await faults({ error_rate: 1 });
    const failed = await send(mediaPath, 'PATCH', key, PATCH, { 'idempotency-key': 'recover-2' });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await failed.body?.cancel();
    await faults({});

    const retries = await Promise.all(Array.from({ length: 6 }, () =>
      send(mediaPath, 'PATCH', key, PATCH, { 'idempotency-key': 'recover-2' })));
    for (const r of retries) {
      expect([200, 409]).toContain(r.status);
      if (r.status === 409) await expectError(r, 409, 'idempotency_in_progress');
      else await r.body?.cancel();
    }
    expect(retries.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(callsTo(await stats(), 'PATCH', '/media/')).toBe(2);
    expect(await title()).toBe(PATCH.metadata.title);
  });
});

describe('the idempotency store', () => {
  const slot: IdempotencySlot = { keyId: 'key_x', idempotencyKey: 'k', method: 'PATCH', path: '/v2/x/', bodySha256: 'b' };
  const outcome = { status: 200, contentType: 'application/json', body: '{}' };

  it('keeps only completed answers: 2xx and the 4xx the platform decided', () => {
    expect([200, 201, 204, 400, 403, 404, 409, 422].every(isCompletedAnswer)).toBe(true);
    expect([500, 502, 503, 504, 408, 425, 429, 301, 100].some(isCompletedAnswer)).toBe(false);
  });

  it('a duplicate during the attempt waits; a released key is reserved afresh', async () => {
    const store = new IdempotencyStore(env.GATEWAY_DB);
    const first = await store.reserve(slot, 1_000);
    expect(first).toEqual({ kind: 'reserved', lease: 1_000 });
    expect(await store.reserve(slot, 1_500)).toEqual({ kind: 'in_progress' });
    await store.release(slot, 1_000);
    expect(await store.reserve(slot, 2_000)).toEqual({ kind: 'reserved', lease: 2_000 });
    await store.complete(slot, 2_000, outcome);
    expect(await store.reserve(slot, 3_000)).toEqual({ kind: 'replay', outcome });
  });

  it('an attempt whose lease was taken over can neither complete nor release the new holder\'s reservation', async () => {
    const store = new IdempotencyStore(env.GATEWAY_DB);
    expect(await store.reserve(slot, 1_000)).toEqual({ kind: 'reserved', lease: 1_000 });
    const later = 1_000 + PENDING_LEASE_MS + 1;
    expect(await store.reserve(slot, later)).toEqual({ kind: 'reserved', lease: later });
    await store.release(slot, 1_000);
    await store.complete(slot, 1_000, { ...outcome, body: '{"stale":true}' });
    expect(await store.reserve(slot, later + 1)).toEqual({ kind: 'in_progress' });
    await store.complete(slot, later, outcome);
    expect(await store.reserve(slot, later + 2)).toEqual({ kind: 'replay', outcome });
  });

  it('a 5xx stored before this rule is no outcome: the key is free again', async () => {
    const now = Date.now();
    await env.GATEWAY_DB.prepare(`INSERT INTO idempotent_outcomes
      (key_id, idempotency_key, method, path, body_sha256, state, status, content_type, body, created_at)
      VALUES (?, ?, ?, ?, ?, 'done', 500, 'application/json', '{}', ?)`)
      .bind(slot.keyId, slot.idempotencyKey, slot.method, slot.path, slot.bodySha256, now - 1_000).run();
    expect(await new IdempotencyStore(env.GATEWAY_DB).reserve(slot, now)).toEqual({ kind: 'reserved', lease: now });
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
    await send(`${V2}/players/${player}/`, 'PATCH', key, { metadata: { release_channel: 'preview' } });
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
