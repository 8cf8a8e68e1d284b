// Anonymous visitors asking for ever new feed variants (random `seed` / `tags` values) once took
// every upstream slot, and the gateway's writes failed with 429. Now a variant is taken only by the playlist type
// that uses it, each playlist loads a bounded number of new variants per window, and the gateway keeps a floor of the
// budget that visitors' misses can never spend.
import { env } from 'cloudflare:test';
import { beforeEach, expect, it } from 'vitest';
import { getConfig } from '../../worker/config.ts';
import type { Media } from '../../worker/contract/v2-types.ts';
import { budgetStub } from '../../worker/budget/client.ts';
import { api, boundPlaylists } from '../worker/helpers.ts';
import { catalog, createKey, direct, expectError, resetGateway, send, SITE, stats } from './helpers.ts';

beforeEach(() => resetGateway());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const pad = (n: number) => String(n).padStart(6, '0');

it('gateway writes keep succeeding while anonymous visitors flood feed variants', { timeout: 60_000 }, async () => {
  const { ratePerMinute, burst, gatewayFloor } = getConfig(env).budget;
  const { maxVariants, variantWindowSeconds } = getConfig(env).feed;
  const site = (await catalog()).sites.find((s: { id: string }) => s.id === SITE);
  const [recommendations] = site.playlists.recommendations as string[];
  const [articles] = site.playlists.article_matching as string[];
  const target = site.media.published[0] as string;
  const writer = await createKey(['write']);
  // The site's policy-bound playlists, whose members every feed request reads, are held as a live site's would be.
  await boundPlaylists(SITE);
  await budgetStub(env).reset();
  const warmCalls = (await stats()).total;

  // Calls the gateway is owed whatever visitors do: its reserve now, and one more each time its share refills one.
  const reserve = Math.floor(burst * gatewayFloor);
  const refillMs = Math.ceil(60_000 / (ratePerMinute * gatewayFloor));
  const WAVES = reserve + 2;
  const VISITORS_PER_WAVE = 40;
  expect(reserve).toBeGreaterThanOrEqual(1);

  const started = Date.now();
  const visitors: Response[] = [];
  const writes: Array<{ status: number; text: string }> = [];
  let n = 0;
  for (let wave = 0; wave < WAVES; wave++) {
    // Past the reserve, wait (at least) until the gateway's share has refilled one call; visitors keep flooding.
    if (wave >= reserve) await sleep(refillMs);
    // Each visitor anonymous (no key), from its own address, asking for a variant nobody asked for before.
    const flood = Array.from({ length: VISITORS_PER_WAVE }, () => {
      n += 1;
      const query = n % 2 ? `${recommendations}?seed=fl${pad(n)}` : `${articles}?tags=flood-${n}`;
      return api(`/api/sites/${SITE}/playlists/${query}`, { ip: `198.18.${n >> 8}.${n & 255}` });
    });
    const write = send(`/v2/sites/${SITE}/media/${target}/`, 'PATCH', writer, { metadata: { title: `Edited in wave ${wave}` } })
      .then(async (r) => ({ status: r.status, text: await r.text() }));
    visitors.push(...await Promise.all(flood));
    writes.push(await write);
  }
  const elapsedMinutes = (Date.now() - started) / 60_000;

  // Every write went through.
  for (const w of writes) expect(w.status, w.text).toBe(200);

  // Visitors got a feed (their variant, or the playlist's own standing in) or an honest 429; never a 5xx.
  let variantsServed = 0;
  for (const r of visitors) {
    if (r.status === 429) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await expectError(r, 429, 'rate_limited');
      continue;
    }
    expect(r.status, await r.clone().text()).toBe(200);
    if (r.headers.get('x-reelgate-variant') === null) variantsServed += 1;
    await r.body?.cancel();
  }
  // At most max_variants new variants per playlist per window were loaded from the upstream.
  const windows = 1 + Math.floor((elapsedMinutes * 60) / variantWindowSeconds);
  expect(variantsServed).toBeLessThanOrEqual(2 * maxVariants * windows);

  // And the global budget held: the burst plus the rate, nothing beyond.
  const s = await stats();
  expect(s.rate_limited).toBe(0);
  expect(s.total - warmCalls).toBeLessThanOrEqual(burst + Math.ceil(elapsedMinutes * ratePerMinute));
  // The last write is what the platform holds (read straight from the sandbox, after its counters were taken).
  expect((await direct<Media>(`/v2/sites/${SITE}/media/${target}/`)).body.metadata.title).toBe(`Edited in wave ${WAVES - 1}`);
});
