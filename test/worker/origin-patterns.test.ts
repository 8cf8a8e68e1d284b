// allowed_origins entries: exact origins, `*`, and the patterns a team uses for staging (worker/http/origin-patterns.ts).
import { describe, expect, it } from 'vitest';
import { originMatcher } from '../../worker/http/origin-patterns.ts';

describe('allowed_origins patterns', () => {
  it('exact origins match only themselves', () => {
    const allowed = originMatcher(['https://news.example', 'http://localhost:8787']);
    expect(allowed('https://news.example')).toBe(true);
    expect(allowed('http://localhost:8787')).toBe(true);
    for (const other of ['http://news.example', 'https://news.example:8443', 'https://www.news.example', 'http://localhost:8788', null, '']) {
      expect(allowed(other), String(other)).toBe(false);
    }
  });

  it('a subdomain pattern admits every subdomain, never the domain itself, another scheme or a look-alike', () => {
    const allowed = originMatcher(['https://*.staging.example']);
    expect(allowed('https://pr-42.staging.example')).toBe(true);
    expect(allowed('https://a.b.staging.example')).toBe(true);
    for (const other of ['https://staging.example', 'http://pr-42.staging.example', 'https://evilstaging.example',
      'https://pr-42.staging.example.evil.test', 'https://pr-42.staging.example:8443', 'https://pr-42.staging.example/path']) {
      expect(allowed(other), other).toBe(false);
    }
  });

  it('a port pattern admits any port of that host and scheme only', () => {
    const allowed = originMatcher(['http://localhost:*']);
    expect(allowed('http://localhost:5173')).toBe(true);
    expect(allowed('http://localhost')).toBe(true);
    expect(allowed('https://localhost:5173')).toBe(false);
    expect(allowed('http://127.0.0.1:5173')).toBe(false);
    expect(originMatcher(['https://*.preview.example:*'])('https://x.preview.example:4000')).toBe(true);
  });

  it('`*` admits any origin', () => {
    expect(originMatcher(['*'])('https://anything.example')).toBe(true);
  });

  it('refuses entries that are not origins or patterns, naming them', () => {
    for (const bad of ['news.example', 'https://news.example/', 'https://*.example', 'https://news.*.example',
      'ftp://news.example', 'https://News.example', 'https://*', 'https://news.example:443']) {
      expect(() => originMatcher([bad]), bad).toThrow(bad);
    }
  });
});
