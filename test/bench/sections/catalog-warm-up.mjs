// Section 2, at full size: a cold catalog of 1,000 media (the sandbox's `extra_media` reset option: ready, published
// videos beside the seed's), each asked for once through reelgate by a few visitors side by side, as a crawler or a
// page of shelves would, until every one is answered. What it cost: Management calls (the platform's 60 a minute,
// through the budget) and Delivery API calls (the CDN, through the worker's own meter), and the minutes it took.
//
// Before media answers came from the Delivery API, each cost three Management calls (media, renditions, text tracks):
// 1,000 media were 3,000 calls, an hour at the budget's 50 a minute. That figure is computed, not measured (the code
// that spent them is gone); the report states it beside the measured one.
import { managementCalls, sandboxControls } from '../lib/sandbox.mjs';
import { rotatingVisitor, visitorAddresses } from '../lib/visitors.mjs';

const MEDIA = 1000;
const CLIENTS = 8;
/** The shipped budget's rate (wrangler.toml `budget.rate_per_minute`). */
const BUDGET_PER_MINUTE = 50;
const CALLS_PER_MEDIA_BEFORE = 3;
const CAP_MS = 20 * 60_000;

export async function catalogWarmUp(servers, log) {
  const sandbox = sandboxControls(servers.sandbox);
  const site = (await sandbox.catalog()).sites[0].id;
  const reset = await sandbox.reset({ extra_media: { [site]: MEDIA } });
  const ids = reset.extra_media[site];
  // Few visitors: each is located once (the geo budget), and none meets its own abuse limit at this pace.
  const visitors = rotatingVisitor(visitorAddresses(CLIENTS * 2));
  const statuses = {};
  let next = 0;
  let retries = 0;
  const started = Date.now();
  const client = async () => {
    while (next < ids.length && Date.now() - started < CAP_MS) {
      const id = ids[next++];
      for (;;) {
        const response = await fetch(`${servers.worker}/api/sites/${site}/media/${id}`, { headers: visitors() });
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status !== 429 && response.status !== 503) break;
        retries += 1;
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, (Number(response.headers.get('retry-after')) || 1) * 1000)));
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const minutes = Math.round(((Date.now() - started) / 60_000) * 100) / 100;
  const stats = await sandbox.stats();
  const result = {
    media: ids.length,
    answered: Math.min(next, ids.length),
    clients: CLIENTS,
    minutes,
    management_calls: managementCalls(stats),
    delivery_calls: stats.delivery_calls,
    retries_after_429_or_503: retries,
    statuses,
    before: {
      management_calls: ids.length * CALLS_PER_MEDIA_BEFORE,
      minutes_at_budget: Math.round(((ids.length * CALLS_PER_MEDIA_BEFORE) / BUDGET_PER_MINUTE) * 10) / 10,
      how: `computed: ${CALLS_PER_MEDIA_BEFORE} Management calls a media at the budget's ${BUDGET_PER_MINUTE} a minute`,
    },
  };
  log(`cold catalog: ${result.answered} of ${result.media} media in ${minutes} min, ${result.management_calls} Management calls, ` +
    `${result.delivery_calls} Delivery API calls (before: ${result.before.management_calls} Management calls, ${result.before.minutes_at_budget} min)`);
  await sandbox.reset();
  return result;
}
