// The embed script and the demo page, served from static assets with the cache lifetimes and headers publishers rely on.
// (`npm test` runs `npm run build` first; run it before calling vitest directly.)
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { expectError } from './helpers.ts';

const dist = JSON.parse(env.TEST_DIST_FILES) as string[];

describe('embed script', () => {
  it('serves /embed/reelgate.js with a short cache, to any page', async () => {
    expect(dist, 'dist/ is empty: run npm run build').toContain('reelgate.js');
    const response = await SELF.fetch('http://localhost/embed/reelgate.js', { headers: { origin: 'https://any.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect((await response.text()).length).toBeGreaterThan(1000);
  });

  it('serves /embed/reelgate.css (the geometry before the bundle) with a short cache, to any page', async () => {
    expect(dist, 'dist/ has no reelgate.css: run npm run build').toContain('reelgate.css');
    const response = await SELF.fetch('http://localhost/embed/reelgate.css');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/css/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=86400');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await response.text()).toContain('reel-player:not(:defined)');
  });

  it('serves the versioned copy as immutable for a year, and 404s an unknown version', async () => {
    const versioned = dist.find((f) => /^reelgate\.[\w-]+\.js$/.test(f));
    expect(versioned, 'no versioned embed in dist/').toBeDefined();
    const response = await SELF.fetch(`http://localhost/embed/${versioned}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const [plain, copy] = await Promise.all([
      SELF.fetch('http://localhost/embed/reelgate.js').then((r) => r.text()),
      response.text(),
    ]);
    expect(copy).toBe(plain);
    await expectError(await SELF.fetch('http://localhost/embed/reelgate.000000000000.js'), 404, 'not_found');
    await expectError(await SELF.fetch('http://localhost/embed/index.html'), 404, 'not_found');
  });

  it('serves the player\'s chunks, the ones the bundle imports, immutable for a year to any page; 404s others', async () => {
    // Each file names the next by its content hash, relative to its own URL (components/build.mjs): the bundle the
    // playback kit, the kit hls.js.
    let text = await (await SELF.fetch('http://localhost/embed/reelgate.js')).text();
    for (const part of ['kit', 'hls']) {
      const file = new RegExp(`\\./(reelgate-${part}\\.[\\w-]+\\.js)`).exec(text)?.[1];
      expect(file, `the ${part} chunk is imported`).toBeDefined();
      expect(dist).toContain(file);
      const response = await SELF.fetch(`http://localhost/embed/${file}`, { headers: { origin: 'https://any.example' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/javascript/);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      text = await response.text();
      expect(text.length).toBeGreaterThan(1000);
    }
    await expectError(await SELF.fetch('http://localhost/embed/reelgate-kit.000000000000.js'), 404, 'not_found');
    await expectError(await SELF.fetch('http://localhost/embed/reelgate-other.0123456789ab.js'), 404, 'not_found');
  });

  it('serves the parts and language packs the bundle imports, immutable for a year; 404s a language it has none for', async () => {
    const bundle = await (await SELF.fetch('http://localhost/embed/reelgate.js')).text();
    // The packs are named by language and one hash for the set (components/build-options.mjs, packsModule).
    const packHash = /\.\/reelgate-lang-\$\{\w+\}\.([\w-]+)\.js/.exec(bundle)?.[1];
    expect(packHash, 'the bundle names its language packs').toBeDefined();
    const files = [
      ...['panel', 'refusal'].map((part) => new RegExp(`\\./(reelgate-${part}\\.[\\w-]+\\.js)`).exec(bundle)?.[1]),
      ...['de', 'ar', 'pt-BR', 'zh-CN'].map((language) => `reelgate-lang-${language}.${packHash}.js`),
    ];
    for (const file of files) {
      expect(dist, `${file} is built`).toContain(file);
      const response = await SELF.fetch(`http://localhost/embed/${file}`, { headers: { origin: 'https://any.example' } });
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/javascript/);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
    await expectError(await SELF.fetch(`http://localhost/embed/reelgate-lang-fi.${packHash}.js`), 404, 'not_found');
    await expectError(await SELF.fetch(`http://localhost/embed/reelgate-lang-../x.${packHash}.js`), 404, 'not_found');
  });
});
