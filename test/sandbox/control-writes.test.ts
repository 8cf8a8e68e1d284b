// /_sandbox/ control writes: only from the sandbox's own origin (or from no browser) and only as JSON, so a web page a
// developer visits cannot reset their sandbox, inject faults or make media in it. No control answers CORS headers.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, catalog, control, errorShape, ORIGIN, reset, sites } from './helpers.ts';

beforeEach(() => reset({ rate_limit_per_minute: 10_000 }));

const EVIL = 'https://evil.example';

/** Each control write: its method, path and a body that would change something, and how to read that back. */
interface Write {
  name: string;
  method: 'POST' | 'PUT';
  path: () => Promise<string>;
  body: () => Promise<unknown>;
  /** What the write would change, read back: the same before and after a refused write. */
  state: () => Promise<unknown>;
}

const small = async () => (await sites()).small;
const WRITES: Write[] = [
  {
    name: 'faults', method: 'POST', path: async () => 'faults', body: async () => ({ outage: true }),
    state: async () => (await control('GET', 'faults')).json(),
  },
  {
    name: 'processing', method: 'POST', path: async () => 'processing', body: async () => ({ seconds: 3600 }),
    state: async () => ((await (await control('GET', 'processing')).json()) as { seconds: number }).seconds,
  },
  {
    // A reset would zero the statistics: one call is counted before it.
    name: 'reset', method: 'POST', path: async () => 'reset', body: async () => ({ rate_limit_per_minute: 1 }),
    state: async () => ((await (await control('GET', 'stats')).json()) as { total_calls: number; rate_limit_per_minute: number }),
  },
  {
    name: 'hostile-media', method: 'POST', path: async () => 'hostile-media',
    body: async () => ({ site: (await small()).id, file: 'page.html' }),
    state: async () => (await catalog()).sites.map((site) => [site.id, site.media_total]),
  },
  {
    name: 'url-signing', method: 'PUT', path: async () => `sites/${(await small()).id}/url-signing`,
    body: async () => ({ enforce: true }),
    state: async () => (await control('GET', `sites/${(await small()).id}/url-signing`)).json(),
  },
];

async function send(write: Write, headers: Record<string, string>): Promise<Response> {
  return env.SANDBOX.fetch(`${ORIGIN}/_sandbox/${await write.path()}`, {
    method: write.method, headers, body: JSON.stringify(await write.body()),
  });
}

describe('a control write from a web page of another origin changes nothing', () => {
  beforeEach(async () => {
    const { big } = await sites();
    expect((await call('GET', `/v2/sites/${big.id}/players/`)).status).toBe(200);
  });

  it.each(WRITES.map((write) => [write.name, write] as const))(
    '%s: a cross-origin text/plain write (a simple request, no preflight) is refused with 403 and no CORS header',
    async (_name, write) => {
      const before = await write.state();
      const response = await send(write, { origin: EVIL, 'content-type': 'text/plain;charset=UTF-8', 'sec-fetch-site': 'cross-site' });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual(errorShape('forbidden'));
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(await write.state()).toEqual(before);
    });

  it.each(WRITES.map((write) => [write.name, write] as const))(
    '%s: a cross-origin write is refused even as JSON, and with only an Origin or only Sec-Fetch-Site to tell',
    async (_name, write) => {
      const before = await write.state();
      const refused: Record<string, string>[] = [
        { origin: EVIL, 'content-type': 'application/json' },
        { origin: 'null', 'content-type': 'application/json' },
        // Another port of the same host is the same site, but another origin.
        { origin: 'http://sandbox.test:8080', 'content-type': 'application/json' },
        { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
        { 'sec-fetch-site': 'same-site', 'content-type': 'application/json' },
      ];
      for (const headers of refused) {
        const response = await send(write, headers);
        expect(response.status, JSON.stringify(headers)).toBe(403);
        expect(response.headers.get('access-control-allow-origin')).toBeNull();
      }
      expect(await write.state()).toEqual(before);
    });

  it.each(WRITES.map((write) => [write.name, write] as const))(
    '%s: a write that is not JSON (a form, text/plain, no type) is refused with 415 in the error body',
    async (_name, write) => {
      const before = await write.state();
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', null]) {
        const response = await send(write, type === null ? {} : { 'content-type': type });
        expect(response.status, String(type)).toBe(415);
        expect(await response.json()).toEqual(errorShape('unsupported_media_type'));
      }
      expect(await write.state()).toEqual(before);
    });

  it('a preflight for a control is not granted', async () => {
    for (const path of ['faults', 'reset', 'processing', 'hostile-media']) {
      const response = await env.SANDBOX.fetch(`${ORIGIN}/_sandbox/${path}`, {
        method: 'OPTIONS',
        headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(response.status, path).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
      expect(response.headers.get('access-control-allow-headers')).toBeNull();
    }
  });
});

describe('a control write from the sandbox\'s own origin, or from no browser, still works', () => {
  it.each([
    ['no Origin (curl, Node, the test helpers)', {}],
    ['the sandbox\'s own origin', { origin: ORIGIN, 'sec-fetch-site': 'same-origin' }],
    ['typed by the user (Sec-Fetch-Site: none)', { 'sec-fetch-site': 'none' }],
  ])('from %s', async (_name, extra: Record<string, string>) => {
    const headers = { 'content-type': 'application/json; charset=utf-8', ...extra };
    const faults = await env.SANDBOX.fetch(`${ORIGIN}/_sandbox/faults`, { method: 'POST', headers, body: '{"latency_ms":5}' });
    expect(faults.status).toBe(200);
    expect(faults.headers.get('access-control-allow-origin')).toBeNull();
    expect(await (await control('GET', 'faults')).json()).toEqual({ faults: { latency_ms: 5 } });

    const site = (await small()).id;
    const total = async () => (await catalog()).sites.find((s) => s.id === site)!.media_total;
    const before = await total();
    const created = await env.SANDBOX.fetch(`${ORIGIN}/_sandbox/hostile-media`, {
      method: 'POST', headers, body: JSON.stringify({ site, file: 'master.m3u8' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('access-control-allow-origin')).toBeNull();
    expect(await total()).toBe(before + 1);

    const signing = await env.SANDBOX.fetch(`${ORIGIN}/_sandbox/sites/${site}/url-signing`, {
      method: 'PUT', headers, body: '{"enforce":true}',
    });
    expect(await signing.json()).toMatchObject({ site, enforce: true });

    const reseeded = await env.SANDBOX.fetch(`${ORIGIN}/_sandbox/reset`, { method: 'POST', headers, body: '{}' });
    expect(reseeded.status).toBe(200);
    expect(await (await control('GET', 'faults')).json()).toEqual({ faults: {} });
  });

  it('reads need no JSON and stay open to a navigation from anywhere (they carry no CORS header to read them by)', async () => {
    const stats = await env.SANDBOX.fetch(`${ORIGIN}/_sandbox/stats`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(stats.status).toBe(200);
    expect(stats.headers.get('access-control-allow-origin')).toBeNull();
  });
});
