// The demo page at `/`, from static assets, under its own CSP. (`npm test` runs `npm run build` first.)
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

const dist = JSON.parse(env.TEST_DIST_FILES) as string[];

describe('demo page', () => {
  it('serves / as HTML under a CSP that allows only its own scripts and same-origin framing', async () => {
    expect(dist, 'dist/ has no index.html: run npm run build').toContain('index.html');
    const response = await SELF.fetch('http://localhost/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toMatch(/<script[^>]+src="[^"]*reelgate[^"]*\.js"/);
  });
});
