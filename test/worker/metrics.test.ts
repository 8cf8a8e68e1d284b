// What the worker records about itself. The figures `/admin/metrics` shows must be the traffic the test sent
// (counted here, and for upstream calls by the sandbox itself), they must outlive the isolate that counted them once
// flushed, the store must stay bounded after a day of traffic, and the OpenMetrics text must parse with a real parser.
import { applyD1Migrations, createExecutionContext, env, runInDurableObject, SELF, waitOnExecutionContext } from 'cloudflare:test';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { beforeEach, describe, expect, it } from 'vitest';
import worker from '../../worker/index.ts';
import {
  discardPending, flushNow, MAX_POINTS_PER_MINUTE, MAX_SERIES_PER_METRIC, METRIC_NAMES, METRICS, metricsStub, MetricsObject,
  RETENTION_HOURS, type MetricsView,
} from '../../worker/metrics/index.ts';
import type { Count } from '../../worker/metrics/tally.ts';
import type { FeedResponse, MediaResponse } from '../../worker/contract/public-api.ts';
import { api, EUROPE_SITE, expectError, resetWorld, sandbox, SITE, stats } from './helpers.ts';
import { playlistOfType } from './upstream-direct.ts';

const ADMIN = { authorization: `Bearer ${env.ADMIN_TOKEN}` };
const IP = { berlin: '192.0.2.30', newYork: '192.0.2.21', unknown: '203.0.113.250' };

async function metrics(minutes = 10): Promise<MetricsView> {
  const response = await SELF.fetch(`http://localhost/admin/metrics?minutes=${minutes}`, { headers: ADMIN });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return JSON.parse(text) as MetricsView;
}

/** A metric's sum over the window, for the series whose labels include `where`. */
function total(view: MetricsView, metric: string, where: Record<string, string> = {}): number {
  return view.series.filter((s) => s.metric === metric && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.total, 0);
}

/** What changed between two views of the same window, per metric and labels. */
function delta(before: MetricsView, after: MetricsView) {
  return (metric: string, where: Record<string, string> = {}) => total(after, metric, where) - total(before, metric, where);
}

async function createKey(): Promise<{ id: string; auth: { authorization: string } }> {
  const response = await SELF.fetch('http://localhost/admin/keys', {
    method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'metrics test', scopes: ['read', 'write'], sites: ['*'] }),
  });
  const body = await response.json<{ id: string; key: string }>();
  expect(response.status).toBe(201);
  return { id: body.id, auth: { authorization: `Bearer ${body.key}` } };
}

beforeEach(async () => {
  await applyD1Migrations(env.GATEWAY_DB, env.GATEWAY_MIGRATIONS);
  await resetWorld(10_000);
});

describe('/admin/metrics counts what was sent', () => {
  it('requests per door, cache states, upstream calls (as the sandbox saw them), geo decisions, playback and gateway calls', async () => {
    const key = await createKey();
    // Feed: a playlist of a site under a site-wide policy (no membership reads), asked three times from Berlin.
    const manual = await playlistOfType(EUROPE_SITE, 'manual');
    const before = await metrics();
    const upstreamBefore = (await stats()).total;
    for (let i = 0; i < 3; i += 1) {
      const feed = await api(`/api/sites/${EUROPE_SITE}/playlists/${manual.id}`, { ip: IP.berlin });
      expect(feed.status).toBe(200);
      await feed.body?.cancel();
    }
    // Geo: the europe policy's gate, allowed by its rules, refused by them (US), refused by its unknown rule.
    for (const ip of [IP.berlin, IP.newYork, IP.unknown]) {
      const gate = await api('/api/gate/europe', { ip });
      expect(gate.status).toBe(200);
      await gate.body?.cancel();
    }
    // Playback: a bound media's poster, served to Berlin, refused to New York.
    const feed = await (await api(`/api/sites/${EUROPE_SITE}/playlists/${manual.id}`, { ip: IP.berlin })).json<FeedResponse>();
    const media = await (await api(`/api/sites/${EUROPE_SITE}/media/${feed.items[0]!.id}`, { ip: IP.berlin })).json<MediaResponse>();
    const poster = await api(media.poster!, { ip: IP.berlin });
    expect(poster.status).toBe(200);
    const posterBytes = (await poster.arrayBuffer()).byteLength;
    await expectError(await api(media.poster!, { ip: IP.newYork }), 451, 'playback_denied');
    // Gateway: two reads, a read of nothing (404), and a write retried under one Idempotency-Key (one replay).
    const v2 = (path: string, init: RequestInit = {}) => SELF.fetch(`http://localhost/v2/sites/${SITE}${path}`, {
      ...init, headers: { ...key.auth, ...(init.headers as Record<string, string> | undefined) },
    });
    for (const path of ['/media/?page_length=1', '/players/?page_length=1', '/media/ZZZZZZZZ/']) await (await v2(path)).body?.cancel();
    const write = () => v2('/players/', {
      method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'metrics-1' },
      body: JSON.stringify({ metadata: { name: 'Metrics player', release_channel: 'latest' } }),
    });
    expect((await write()).status).toBe(201);
    const replay = await write();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const upstreamCalls = (await stats()).total - upstreamBefore;
    const after = await metrics();
    const d = delta(before, after);
    // Requests by door and class: 4 feeds + 3 gates + 1 media = 8 api 2xx; playback 1 2xx and 1 4xx; v2 4 2xx, 1 4xx.
    expect(d('requests', { door: 'api', class: '2xx' })).toBe(8);
    expect(d('requests', { door: 'playback', class: '2xx' })).toBe(1);
    expect(d('requests', { door: 'playback', class: '4xx' })).toBe(1);
    expect(d('requests', { door: 'v2', class: '2xx' })).toBe(4);
    expect(d('requests', { door: 'v2', class: '4xx' })).toBe(1);
    // The feed: loaded once, then fresh.
    expect(d('cache', { kind: 'feed', state: 'MISS' })).toBe(1);
    expect(d('cache', { kind: 'feed', state: 'HIT' })).toBe(3);
    // Every request the platform (the sandbox) received is one upstream call counted, on its side.
    expect(d('upstream_calls')).toBe(upstreamCalls);
    expect(d('upstream_calls', { side: 'gateway' })).toBe(4);
    expect(d('budget_refusals')).toBe(0);
    // Geo: each gate decided once; a refused visitor counted by country.
    // Allowed: four feeds, a gate, a media and its poster, all Berlin's; refused by rule: New York's gate and poster.
    expect(d('geo_decisions', { policy: 'europe', decision: 'allowed', by: 'rule' })).toBe(7);
    expect(d('geo_decisions', { policy: 'europe', decision: 'refused', by: 'rule' })).toBe(2);
    expect(d('geo_decisions', { policy: 'europe', decision: 'refused', by: 'unknown' })).toBe(1);
    expect(d('geo_refusals_by_country', { country: 'US' })).toBe(2);
    expect(d('geo_refusals_by_country', { country: 'unknown' })).toBe(1);
    // Playback.
    expect(d('playback_requests')).toBe(1);
    expect(d('playback_bytes')).toBe(posterBytes);
    expect(d('playback_refusals', { code: 'playback_denied' })).toBe(1);
    // Gateway, under the key.
    expect(d('gateway_calls', { key: key.id })).toBe(5);
    expect(d('gateway_errors', { key: key.id })).toBe(1);
    expect(d('gateway_replays', { key: key.id })).toBe(1);
    // The budget the charts draw against.
    expect(after.budget.rate_per_minute).toBe(50);
    expect(after.step_seconds).toBe(60);
    expect(after.retention_hours).toBeGreaterThanOrEqual(24);
  });

  it('refuses a bad window or format in the v2 error format, and answers nobody without the admin token', async () => {
    for (const query of ['minutes=0', 'minutes=1441', 'minutes=abc', 'format=xml', 'window=5']) {
      const response = await SELF.fetch(`http://localhost/admin/metrics?${query}`, { headers: ADMIN });
      await expectError(response, 400, 'invalid_request');
    }
    await expectError(await SELF.fetch('http://localhost/admin/metrics'), 401, 'unauthorized');
  });
});

describe('the configuration view\'s live warnings', () => {
  it('warns that the Geo API is failing once its lookups fail, and says nothing of it before', async () => {
    const warnings = async () => {
      const response = await SELF.fetch('http://localhost/admin/config', { headers: ADMIN });
      expect(response.status).toBe(200);
      return (await response.json<{ warnings: Array<{ code: string }> }>()).warnings.map((w) => w.code);
    };
    await (await api('/api/gate/europe', { ip: IP.berlin })).body?.cancel();
    expect(await warnings()).not.toContain('geo_api_failing');
    const outage = await sandbox('/_sandbox/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"outage":true}' });
    expect(outage.ok).toBe(true);
    await outage.body?.cancel();
    // Addresses not located yet: each asks the Geo API, which fails; the policy's unknown rule decides.
    for (const ip of ['192.0.2.31', '192.0.2.32']) await (await api('/api/gate/europe', { ip })).body?.cancel();
    expect(await warnings()).toContain('geo_api_failing');
  });
});

describe('recording', () => {
  it('survives the isolate being recycled once flushed, and the metrics object being evicted', async () => {
    const before = await metrics();
    await (await api('/api/gate/europe', { ip: IP.berlin })).body?.cancel();
    await flushNow(env);
    // Counted after the flush and never sent: what a recycled isolate loses (at most `metrics.flush_seconds` of counts).
    await (await api('/api/gate/europe', { ip: IP.berlin })).body?.cancel();
    discardPending();
    // A new instance of the object over the same storage reads what the first one stored.
    const stored = await runInDurableObject(metricsStub(env), (_instance, state) =>
      new MetricsObject(state, env as never).totals());
    expect(stored.some((t) => t.metric === 'geo_decisions')).toBe(true);
    const after = await metrics();
    // The first request's counts are there; the second's were lost with the isolate (the /admin/metrics call itself
    // is counted by the next flush, not this one).
    expect(delta(before, after)('requests', { door: 'api', class: '2xx' })).toBe(1);
  });

  it('counts nothing when metrics.record is false', async () => {
    // Berlin located first: here the budget object shares the test's isolate, and its own (recording) configuration
    // would count a lookup made during the request below.
    await (await api('/api/gate/europe', { ip: IP.berlin })).body?.cancel();
    await flushNow(env);
    const before = await metrics();
    const config = JSON.stringify({ ...JSON.parse(env.REELGATE_CONFIG as string), metrics: { record: false } });
    const ctx = createExecutionContext();
    const response = await worker.fetch(new Request('http://localhost/api/gate/europe', { headers: { 'x-reelgate-dev-ip': IP.berlin } }),
      { ...env, REELGATE_CONFIG: config }, ctx);
    expect(response.status).toBe(200);
    await response.body?.cancel();
    await waitOnExecutionContext(ctx);
    // The next request (with the test configuration) turns recording on again.
    const after = await metrics();
    expect(delta(before, after)('geo_decisions')).toBe(0);
  });
});

describe('the store', () => {
  it('stays bounded after a simulated day of traffic with unbounded label values', async () => {
    const stub = metricsStub(env);
    const start = Date.now();
    const minutes = (RETENTION_HOURS + 2) * 60;
    await runInDurableObject(stub, (instance) => {
      const object = instance as unknown as { clock: () => number; record: (batch: Count[]) => unknown };
      for (let i = 0; i < minutes; i += 1) {
        const now = start + i * 60_000;
        object.clock = () => now;
        const minute = Math.floor(now / 60_000) * 60;
        const batch: Count[] = [];
        // Each minute: every metric once, plus new keys and countries nobody has seen (a flood of label values).
        for (const metric of METRIC_NAMES) batch.push({ minute, metric, labels: JSON.stringify(METRICS[metric].labels.map(() => 'x')), value: 1 });
        for (let k = 0; k < 40; k += 1) batch.push({ minute, metric: 'gateway_calls', labels: JSON.stringify([`key_${i}_${k}`]), value: 1 });
        batch.push({ minute, metric: 'geo_refusals_by_country', labels: JSON.stringify([`C${i}`]), value: 2 });
        object.record(batch);
      }
      object.clock = () => Date.now();
    });
    const usage = await stub.usage();
    const end = start + (minutes - 1) * 60_000;
    expect(usage.oldestMinute).toBeGreaterThanOrEqual(Math.floor(end / 60_000) * 60 - RETENTION_HOURS * 3600);
    expect(usage.series).toBeLessThanOrEqual(METRIC_NAMES.length * MAX_SERIES_PER_METRIC);
    expect(usage.points).toBeLessThanOrEqual((RETENTION_HOURS * 60 + 1) * (MAX_POINTS_PER_MINUTE + METRIC_NAMES.length));
    // The flood folded into each metric's `other` series instead of growing the store.
    const totals = await stub.totals();
    const calls = totals.filter((t) => t.metric === 'gateway_calls');
    expect(calls.length).toBeLessThanOrEqual(MAX_SERIES_PER_METRIC);
    expect(calls.find((t) => t.labels === '["other"]')!.total).toBeGreaterThan(0);
    // Nothing counted was lost from the totals: every gateway_calls count of the day is in some series.
    expect(calls.reduce((sum, t) => sum + t.total, 0)).toBeGreaterThanOrEqual(minutes * 41);
    expect(usage.bytes).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('OpenMetrics', () => {
  it('parses with a Prometheus text parser and carries the same totals as the store', async () => {
    await (await api('/api/gate/europe', { ip: IP.newYork })).body?.cancel();
    const response = await SELF.fetch('http://localhost/admin/metrics', { headers: { ...ADMIN, accept: 'application/openmetrics-text' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
    const text = await response.text();
    expect(text.endsWith('# EOF\n')).toBe(true);
    const families = parsePrometheusTextFormat(text);
    const byName = new Map(families.map((f) => [f.name, f]));
    const refusals = byName.get('reelgate_geo_refusals_by_country_total') ?? byName.get('reelgate_geo_refusals_by_country');
    expect(refusals, families.map((f) => f.name).join(', ')).toBeDefined();
    const us = refusals!.metrics.find((m) => m.labels?.country === 'US');
    const stored = (await metricsStub(env).totals()).find((t) => t.metric === 'geo_refusals_by_country' && t.labels === '["US"]');
    expect(Number(us!.value)).toBe(stored!.total);
    expect(byName.get('reelgate_budget_rate_per_minute')!.metrics[0]!.value).toBe('50');
    // ?format=openmetrics is the same, for scrapers that cannot set Accept.
    const again = await SELF.fetch('http://localhost/admin/metrics?format=openmetrics', { headers: ADMIN });
    expect(again.headers.get('content-type')).toMatch(/^application\/openmetrics-text/);
    await again.body?.cancel();
  });
});
