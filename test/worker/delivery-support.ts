/** What the Delivery API suites share: the signing site, the sandbox's delivery counts, and the signing checks. */
import { expect } from 'vitest';
import { api, config, expectError, resetWorld, sandbox, withConfig } from './helpers.ts';

type SigningConfig = { url_signing?: { secret: string }; media?: Record<string, string> };
/** The test configuration's one site that signs its URLs. */
export const SEALED = Object.entries(config.sites as Record<string, SigningConfig>).find(([, s]) => s.url_signing)![0];
/** London: allowed by every test policy. */
export const LONDON = '192.0.2.10';

export interface DeliveryStats { delivery_calls: number; delivery_signed_calls: number; total_calls: number }
export const deliveryStats = async () => (await (await sandbox('/_sandbox/stats')).json()) as DeliveryStats;

/** Asks `path` of the signing site: answered 200, with every delivery call it made signed. */
export async function expectDeliverySigned(path: string): Promise<Response> {
  const before = await deliveryStats();
  const response = await api(path, { ip: LONDON });
  expect(response.status, await response.clone().text()).toBe(200);
  const after = await deliveryStats();
  expect(after.delivery_calls - before.delivery_calls).toBeGreaterThan(0);
  expect(after.delivery_signed_calls - before.delivery_signed_calls).toBe(after.delivery_calls - before.delivery_calls);
  return response;
}

/** Asks `path` afresh under a wrong signing secret: the platform refuses, and the worker says so as 502. */
export async function expectWrongSecretRefused(path: string): Promise<void> {
  await resetWorld();
  const wrong = await withConfig((c) => {
    const site = c.sites[SEALED] as SigningConfig;
    // The configuration names a binding that holds another secret: what a rotated or mistyped secret looks like.
    site.url_signing = { ...site.url_signing!, secret: 'ADDRESS_SALT' };
  }, path, LONDON);
  await expectError(wrong, 502, 'delivery_refused');
}
