// The gateway's pure parts: the route table against the spec, the request checks, key scopes and shapes, the body
// fingerprint of idempotency, and the share figures callers see.
import { describe, expect, it } from 'vitest';
import { generateToken, looksLikeToken, parseNewKey, permits } from '../../worker/gateway/access-keys.ts';
import { tokensEqual } from '../../worker/gateway/admin/auth.ts';
import { TokenBucket } from '../../worker/budget/token-bucket.ts';
import { CallerShares } from '../../worker/budget/caller-shares.ts';
import { canonicalJson } from '../../worker/gateway/idempotency.ts';
import { purgeTargets } from '../../worker/gateway/purge.ts';
import { checkBody, checkQuery, MAX_BODY_BYTES } from '../../worker/gateway/request-checks.ts';
import { rawPath } from '../../worker/gateway/router.ts';
import { matchV2Route, V2_ROUTES, type RouteSpec } from '../../worker/gateway/v2-routes.ts';

const S = '/v2/sites/site0001';

/** The spec's endpoint table, as (method, path) with sample ids; "or" rows give both forms. */
const SPEC_TABLE: Array<[string, string]> = [
  ['POST', `${S}/media/`], ['GET', `${S}/media/`], ['GET', `${S}/media/m1/`], ['PATCH', `${S}/media/m1/`],
  ['DELETE', `${S}/media/m1/`], ['POST', `${S}/media/m1/media_renditions/`], ['GET', `${S}/media/m1/media_renditions/`],
  ['GET', `${S}/media/m1/media_renditions/r1/`], ['DELETE', `${S}/media/m1/media_renditions/r1/`],
  ['GET', `${S}/media/m1/originals/`], ['POST', `${S}/media/m1/text_tracks/`], ['GET', `${S}/media/m1/text_tracks/`],
  ['GET', `${S}/media/m1/text_tracks/t1/`], ['PATCH', `${S}/media/m1/text_tracks/t1/`],
  ['DELETE', `${S}/media/m1/text_tracks/t1/`], ['POST', `${S}/thumbnails/`], ['GET', `${S}/thumbnails/th1`],
  ['PATCH', `${S}/thumbnails/th1`], ['POST', `${S}/playlists/manual_playlist/`], ['GET', `${S}/playlists/`],
  ['GET', `${S}/playlists/p1/`], ['GET', `${S}/playlists/p1/dynamic_playlist/`], ['PATCH', `${S}/playlists/p1/dynamic_playlist/`],
  ['DELETE', `${S}/playlists/p1/`], ['DELETE', `${S}/playlists/p1/dynamic_playlist/`], ['POST', `${S}/players/`],
  ['GET', `${S}/players/`], ['GET', `${S}/players/pl1/`], ['PATCH', `${S}/players/pl1/`], ['DELETE', `${S}/players/pl1/`],
  ['PUT', `${S}/remove_tag/`], ['PUT', `${S}/rename_tag/`], ['PUT', `${S}/query_usage/`],
];

describe('the v2 route table', () => {
  it('covers the 31 routes of the spec, the re-upload the official clients call, a track\'s publish actions, nothing else', () => {
    expect(new Set(V2_ROUTES.map((r) => r.name)).size).toBe(34);
    // The definition's text track publish and unpublish (a draft delivered, or taken back): the official clients call both.
    for (const action of ['publish', 'unpublish']) {
      expect(matchV2Route('PUT', `${S}/media/m1/text_tracks/t1/${action}/`).kind, action).toBe('match');
    }
    expect(V2_ROUTES.filter((r) => r.name === 'media.reupload').map((r) => r.method)).toEqual(['PUT', 'POST']);
    for (const [method, path] of SPEC_TABLE) {
      const found = matchV2Route(method, path);
      expect(found.kind, `${method} ${path}`).toBe('match');
      if (found.kind === 'match') expect(found.route.upstreamPath).toBe(path);
    }
  });

  it('answers 405 with the methods a path does allow', () => {
    expect(matchV2Route('PUT', `${S}/media/`)).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'POST'] });
    expect(matchV2Route('POST', `${S}/media/m1/`)).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'PATCH', 'DELETE'] });
    expect(matchV2Route('GET', `${S}/remove_tag/`)).toEqual({ kind: 'method_not_allowed', allow: ['PUT'] });
    expect(matchV2Route('DELETE', `${S}/thumbnails/th1`)).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'PATCH'] });
    expect(matchV2Route('HEAD', `${S}/players/`)).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'POST'] });
  });

  it('a playlist-type segment (the platform spelling) may also be an id: both meanings are offered', () => {
    expect(matchV2Route('OPTIONS', `${S}/playlists/dynamic_playlist/`)).toEqual({
      kind: 'method_not_allowed', allow: ['GET', 'POST', 'DELETE'],
    });
    // The short spelling is no type: a POST to create one is refused as the platform refuses it, naming the spelling.
    expect(matchV2Route('POST', `${S}/playlists/dynamic/`)).toEqual({
      kind: 'invalid_playlist_type', reason: expect.stringContaining("spells it 'dynamic_playlist'"),
    });
    expect(matchV2Route('GET', `${S}/playlists/dynamic/`).kind).toBe('match');
    // The platform has no trending type (a trending playlist is a dynamic one sorted trending:dsc): its segment is
    // only an id, and a create under it is refused, listing the six types.
    expect(matchV2Route('OPTIONS', `${S}/playlists/trending_playlist/`)).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'DELETE'] });
    const trending = matchV2Route('POST', `${S}/playlists/trending_playlist/`);
    expect(trending).toEqual({ kind: 'invalid_playlist_type', reason: expect.stringContaining('article_matching_playlist, dynamic_playlist') });
    expect(trending.kind === 'invalid_playlist_type' && trending.reason).not.toContain('spells it');
    expect(matchV2Route('GET', `${S}/playlists/p1/trending_playlist/`).kind).toBe('invalid_playlist_type');
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      expect(matchV2Route(method, `${S}/playlists/p1/manual/`).kind).toBe('invalid_playlist_type');
    }
  });

  it('forwards the spec form whether or not the caller wrote the trailing slash', () => {
    const a = matchV2Route('GET', `${S}/media/m1`);
    const b = matchV2Route('GET', `${S}/thumbnails/th1/`);
    expect(a.kind === 'match' && a.route.upstreamPath).toBe(`${S}/media/m1/`);
    expect(b.kind === 'match' && b.route.upstreamPath).toBe(`${S}/thumbnails/th1`);
  });

  it('refuses paths that are not plain', () => {
    for (const path of [`${S}/media/%2e%2e/`, `${S}/media%2fm1/`, `${S}//media/`, `${S}/media/../players/`,
      `/v2/sites/${'a'.repeat(600)}/media/`]) {
      expect(matchV2Route('GET', path).kind, path).toBe('invalid');
    }
    expect(matchV2Route('GET', '/v2/sites/bad$site/media/').kind).toBe('invalid');
    expect(matchV2Route('GET', `${S}/media/bad.id/`).kind).toBe('not_found');
    expect(matchV2Route('GET', `${S}/playlists/p1/unknown_type/`).kind).toBe('invalid_playlist_type');
    expect(matchV2Route('GET', '/v2/accounts/').kind).toBe('not_found');
    expect(matchV2Route('GET', `${S}/tags/`).kind).toBe('not_found');
  });

  it('reads the path as sent, before URL parsing resolves dot segments', () => {
    expect(rawPath('http://h/v2/sites/a/../b/?q=x')).toBe('/v2/sites/a/../b/');
    expect(rawPath('http://h/v2/x#frag')).toBe('/v2/x');
  });

  it('classifies access: GETs and query_usage read, everything else writes', () => {
    for (const route of V2_ROUTES) {
      const read = route.method === 'GET' || route.name === 'usage.query';
      expect(route.access, route.name).toBe(read ? 'read' : 'write');
    }
  });
});

const spec = (name: string): RouteSpec => V2_ROUTES.find((r) => r.name === name)!;

describe('request checks', () => {
  it('list routes take only q, page, page_length and sort, once each and well-formed', () => {
    expect(checkQuery(spec('media.list'), '?q=tags:news&page=2&page_length=50&sort=title:asc'))
      .toEqual({ ok: true, value: [['q', 'tags:news'], ['page', '2'], ['page_length', '50'], ['sort', 'title:asc']] });
    for (const bad of ['?limit=5', '?page=0', '?page=x', '?page=1&page=2', '?sort=title', `?q=${'x'.repeat(1100)}`,
      '?api_key=abc']) {
      expect(checkQuery(spec('media.list'), bad).ok, bad).toBe(false);
    }
    expect(checkQuery(spec('media.show'), '?page=1')).toMatchObject({ ok: false, status: 400 });
    expect(checkQuery(spec('media.show'), '')).toEqual({ ok: true, value: [] });
  });

  it('a write body is one JSON object of metadata, upload and relationships, bounded in size', () => {
    const json = 'application/json';
    expect(checkBody(spec('media.update'), '{"metadata":{"title":"x"}}', json))
      .toEqual({ ok: true, value: { metadata: { title: 'x' } } });
    expect(checkBody(spec('media.update'), '{"metadata":{}}', 'text/plain')).toMatchObject({ status: 415 });
    for (const bad of ['', 'null', '[]', '{}', '{"metadata":1}', '{"secret":{}}', '{"metadata":{}', '"x"']) {
      expect(checkBody(spec('media.update'), bad, json), bad).toMatchObject({ ok: false, status: 400 });
    }
    const big = JSON.stringify({ metadata: { description: 'x'.repeat(MAX_BODY_BYTES) } });
    expect(checkBody(spec('media.create'), big, json)).toMatchObject({ ok: false, status: 413 });
    expect(checkBody(spec('media.delete'), '{"metadata":{}}', json)).toMatchObject({ ok: false, status: 400 });
    expect(checkBody(spec('media.delete'), '', null)).toEqual({ ok: true, value: undefined });
  });

  it('a tag action\'s body is its own members at the top level, each a non-empty string (not the envelope)', () => {
    const json = 'application/json';
    expect(checkBody(spec('tags.remove'), '{"tag":"news"}', json)).toEqual({ ok: true, value: { tag: 'news' } });
    expect(checkBody(spec('tags.rename'), '{"original_tag":"news","new_tag":"updates"}', json))
      .toEqual({ ok: true, value: { original_tag: 'news', new_tag: 'updates' } });
    for (const [name, bad] of [
      ['tags.remove', '{"metadata":{"tag":"news"}}'], ['tags.remove', '{}'], ['tags.remove', '{"tag":""}'], ['tags.remove', '{"tag":1}'],
      ['tags.remove', '{"tag":"news","extra":"x"}'], ['tags.remove', ''], ['tags.rename', '{"original_tag":"news"}'],
      ['tags.rename', '{"metadata":{"tag":"news","new_tag":"updates"}}'],
    ] as const) {
      expect(checkBody(spec(name), bad, json), `${name} ${bad}`).toMatchObject({ ok: false, status: 400, code: 'invalid_request' });
    }
  });
});

describe('access keys', () => {
  it('tokens are rg_ plus 32 random bytes, never repeated', () => {
    const a = generateToken();
    const b = generateToken();
    expect(looksLikeToken(a.token)).toBe(true);
    expect(a.token).toMatch(/^rg_[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.id).not.toBe(b.id);
    expect(looksLikeToken('rg_short')).toBe(false);
  });

  it('new keys need a name, read/write scopes and sites (or "*")', () => {
    expect(parseNewKey({ name: ' CMS ', scopes: ['write', 'read', 'write'], sites: ['abc12345'] }))
      .toEqual({ ok: true, value: { name: 'CMS', scopes: ['read', 'write'], sites: ['abc12345'] } });
    for (const bad of [null, [], {}, { name: '', scopes: ['read'], sites: ['*'] },
      { name: 'x', scopes: ['admin'], sites: ['*'] }, { name: 'x', scopes: [], sites: ['*'] },
      { name: 'x', scopes: ['read'], sites: [] }, { name: 'x', scopes: ['read'], sites: ['*', 'abc12345'] },
      { name: 'x', scopes: ['read'], sites: ['../x'] }, { name: 'x', scopes: ['read'], sites: ['*'], extra: 1 }]) {
      expect(parseNewKey(bad).ok, JSON.stringify(bad)).toBe(false);
    }
  });

  it('scopes are independent and sites are enforced', () => {
    expect(permits({ scopes: ['read'], sites: ['*'] }, 'read', 's1').ok).toBe(true);
    expect(permits({ scopes: ['read'], sites: ['*'] }, 'write', 's1').ok).toBe(false);
    expect(permits({ scopes: ['write'], sites: ['*'] }, 'read', 's1').ok).toBe(false);
    expect(permits({ scopes: ['read', 'write'], sites: ['s1'] }, 'write', 's1').ok).toBe(true);
    expect(permits({ scopes: ['read', 'write'], sites: ['s1'] }, 'read', 's2').ok).toBe(false);
  });

  it('the admin token comparison is exact', async () => {
    expect(await tokensEqual('token-a', 'token-a')).toBe(true);
    expect(await tokensEqual('token-a', 'token-b')).toBe(false);
    expect(await tokensEqual('token-a', 'token-a ')).toBe(false);
    expect(await tokensEqual('', 'token-a')).toBe(false);
  });
});

describe('idempotency fingerprints', () => {
  it('key order and whitespace do not change a body; values do', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } }))
      .toBe(canonicalJson(JSON.parse('{ "a": {"c": null, "d": [1, {"x": 1, "y": 2}]}, "b": 1 }')));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
  });
});

describe('caller shares', () => {
  // Rate 50, burst 10, floors 0.3: the gateway's reserve holds 3 and refills one call every 4 s (15 a minute).
  const terms = { guaranteedPerMinute: 15, reserve: 3, pausedUntil: 0 };
  const bucket = () => new TokenBucket(50, 10, 0, { public: 0.3, gateway: 0.3 });
  /** What visitors spend: everything they may, now. */
  const flood = (b: TokenBucket, now: number) => {
    while (b.take(now, 'public', 1)) { /* drained */ }
  };

  it('holds tokens for each key, hands them out in turn, and states what it holds and when the next comes', () => {
    const b = bucket();
    const shares = new CallerShares();
    flood(b, 0);
    shares.join('a', 0, b);
    shares.join('b', 0, b);
    shares.fill(b, 0, terms);
    // The gateway's reserve (3) goes round the welcome seat and the two keys; each may hold 1 (3 / 3, at least 1).
    expect(shares.figures('a', 0, terms)).toEqual({ limit: 7, remaining: 1, reset: 0 });
    expect(shares.figures('b', 0, terms)).toEqual({ limit: 7, remaining: 1, reset: 0 });
    expect(shares.spend('a')).toBe(true);
    expect(shares.spend('a')).toBe(false);
    // a's next token comes after at most one for the seat ahead of it (full, but a new key may take it meanwhile).
    expect(shares.figures('a', 0, terms)).toEqual({ limit: 7, remaining: 0, reset: 8 });
    expect(shares.retryAfterSeconds('a', 0, terms)).toBe(8);
    expect(shares.spend('b')).toBe(true);
    expect(shares.figures('b', 0, terms)).toEqual({ limit: 7, remaining: 0, reset: 12 });
    // A third key arriving now takes the welcome seat's call, and goes behind both.
    shares.join('c', 0, b);
    expect(shares.figures('c', 0, terms)).toEqual({ limit: 5, remaining: 1, reset: 0 });
    expect(shares.spend('c')).toBe(true);
    expect(shares.figures('c', 0, terms)).toEqual({ limit: 5, remaining: 0, reset: 16 });
    // Visitors cannot take the gateway's reserve: four seconds on, its next token goes to the first in turn.
    flood(b, 4000);
    shares.fill(b, 4000, terms);
    expect(shares.held()).toBe(1);
  });

  it('keeps the promise under a flood of visitors: a key pacing on the figures always finds its token', () => {
    const b = bucket();
    const shares = new CallerShares();
    let spent = 0;
    for (let now = 0, next = 0; now <= 600_000; now += 250) {
      flood(b, now);
      for (const key of ['other-1', 'other-2']) {
        shares.join(key, now, b);
        shares.fill(b, now, terms);
        shares.spend(key); // keys that spend whenever they can
      }
      if (now < next) continue;
      shares.join('pacer', now, b);
      shares.fill(b, now, terms);
      const before = shares.figures('pacer', now, terms);
      if (before.remaining > 0) {
        expect(shares.spend('pacer'), `at ${now}`).toBe(true);
        spent += 1;
      }
      const after = shares.figures('pacer', now, terms);
      next = after.remaining > 0 ? now : now + after.reset * 1000;
    }
    // A third of the gateway's 15 a minute, over ten minutes.
    expect(spent).toBeGreaterThanOrEqual(45);
  });

  it('an idle key gives back what it holds, never above the pools\' caps', () => {
    const b = bucket();
    const shares = new CallerShares();
    shares.join('a', 0, b);
    shares.fill(b, 0, terms);
    // The welcome seat holds one, the key its part (3 / 2 → 1), both from the shared pool first.
    expect(shares.held()).toBe(2);
    expect(b.available(0, 'gateway')).toBe(5);
    shares.fill(b, 60_000, terms);
    expect(shares.held()).toBe(1);
    expect(shares.figures('a', 60_000, terms)).toMatchObject({ limit: 15, remaining: 0 });
    expect(b.available(60_000, 'gateway')).toBe(7);
  });
});

describe('purge targets', () => {
  const targets = (method: string, path: string) => {
    const found = matchV2Route(method, path);
    if (found.kind !== 'match') throw new Error(path);
    return purgeTargets(found.route);
  };
  it('names the cache keys of the public answers a write makes stale', () => {
    expect(targets('PATCH', `${S}/media/m1/`)).toEqual({ keys: ['media:site0001:m1'], prefixes: ['feed:site0001:'] });
    expect(targets('PATCH', `${S}/playlists/p1/manual_playlist/`))
      .toEqual({ keys: ['feed:site0001:p1'], prefixes: ['feed:site0001:p1:'] });
    expect(targets('DELETE', `${S}/players/pl1/`)).toEqual({ keys: ['player:site0001:pl1'], prefixes: [] });
    expect(targets('PUT', `${S}/rename_tag/`)).toEqual({ keys: [], prefixes: ['feed:site0001:', 'media:site0001:'] });
    expect(targets('PUT', `${S}/query_usage/`)).toEqual({ keys: [], prefixes: [] });
    expect(targets('GET', `${S}/media/m1/`)).toEqual({ keys: [], prefixes: [] });
  });
});
