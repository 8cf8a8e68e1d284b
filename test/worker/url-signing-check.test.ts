// The operator's URL-signing check (`GET /admin/sites/<site>/url-signing`, worker/gateway/admin/signing-check.ts): a secret
// is reported accepted only when the platform served every signed probe, refused when it answered one 403, and
// unknown otherwise: a signed 404 (a media with no storyboard or poster) proves nothing about the secret.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import worker from '../../worker/index.ts';
import { catalog, config, resetWorld, sandbox } from './helpers.ts';

type SigningConfig = { url_signing?: { secret: string } };
const SEALED = Object.entries(config.sites as Record<string, SigningConfig>).find(([, s]) => s.url_signing)![0];

interface Report {
  media: string;
  secret_accepted: boolean | null;
  enforced: boolean | null;
  summary: string;
  probes: Array<{ scheme: string; signed: number | 'unreachable'; unsigned: number | 'unreachable' }>;
}

async function check(query = '', e: typeof env = env): Promise<Report> {
  const response = await worker.fetch(new Request(`http://localhost/admin/sites/${SEALED}/url-signing${query}`,
    { headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` } }), e,
  { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as Report;
}

/** A media of the signing site that is not ready: it has no storyboard and no poster yet. */
async function notReady(): Promise<string> {
  const site = (await catalog()).sites.find((s: { id: string }) => s.id === SEALED);
  const id = site.media.not_ready[0] as string | undefined;
  expect(id, 'the signing site\'s seed holds a media that is not ready').toBeTypeOf('string');
  return id!;
}

beforeEach(() => resetWorld());

describe('the URL-signing check reports the secret accepted only on answers that prove it', () => {
  it('a media with no storyboard or poster: the signed 404s prove nothing, so secret_accepted is null and the summary asks for a ready video', async () => {
    const media = await notReady();
    const report = await check(`?media=${media}`);
    expect(report.media).toBe(media);
    expect(report.probes.map((p) => p.signed)).toEqual([404, 404]);
    expect(report.secret_accepted).toBeNull();
    expect(report.summary).toMatch(/\?media=/);
    expect(report.summary).toMatch(/ready video/);
  });

  it('a wrong secret is still refused on such a media: a signed 403 is false, whether or not the file exists', async () => {
    const report = await check(`?media=${await notReady()}`, { ...env, SIGNED_SITE_SECRET: `${env.SIGNED_SITE_SECRET}-not-it` });
    expect(report.probes.map((p) => p.signed)).toEqual([403, 403]);
    expect(report.secret_accepted).toBe(false);
  });

  it('a ready video: every signed probe is served, and the secret is accepted', async () => {
    const report = await check();
    for (const probe of report.probes) expect([200, 206, 304], probe.scheme).toContain(probe.signed);
    expect(report.secret_accepted).toBe(true);
    expect(report.enforced).toBe(true);
  });

  it('with no media named, it checks a ready video of the first listed page, not the newest media that has no files yet', async () => {
    const created = await sandbox(`/v2/sites/${SEALED}/media/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.API_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ upload: { method: 'direct' }, metadata: { title: 'Not uploaded yet' } }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // The listing's default order is newest first: the new media heads the page.
    const listed = await sandbox(`/v2/sites/${SEALED}/media/?page_length=1`, { headers: { authorization: `Bearer ${env.API_SECRET}` } });
    expect(((await listed.json()) as { media: Array<{ id: string }> }).media[0]!.id).toBe(id);

    const report = await check();
    expect(report.media).not.toBe(id);
    const media = await sandbox(`/v2/sites/${SEALED}/media/${report.media}/`, { headers: { authorization: `Bearer ${env.API_SECRET}` } });
    expect(await media.json()).toMatchObject({ status: 'ready', media_type: 'video' });
    expect(report.secret_accepted).toBe(true);
  });
});
