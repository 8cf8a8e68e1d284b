// Section 5: how many geo decisions a crowd of new visitors gets on complete information. The visitors are every
// address the sandbox's Geo API can place (its fixtures: the only ones it answers with a country), each a network the
// worker has never located, asking the shipped `europe` gate once, ten at a time. A policy with proxy rules needs a
// lookup per new network; once the lookup window is spent, the policy's `unknown` rule decides (`complete: false`)
// instead of letting a proxy through. The share of complete decisions is the figure; the lookups made and any upstream
// geo 429 show what it cost.
import { geoCalls, sandboxControls } from '../lib/sandbox.mjs';

const AT_ONCE = 10;

export async function geoDecisions({ sandbox, worker }, log) {
  const controls = sandboxControls(sandbox);
  await controls.reset();
  const crowd = (await controls.catalog()).geo.fixtures.filter((f) => f.expected_country !== null).map((f) => f.ip);
  const CROWD = crowd.length;
  const before = await controls.stats();
  const started = Date.now();
  const decisions = { complete: 0, incomplete: 0, other: {} };
  for (let i = 0; i < CROWD; i += AT_ONCE) {
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, CROWD - i) }, async (_, j) => {
      const ip = crowd[i + j];
      const response = await fetch(`${worker}/api/gate/europe`, { headers: { 'x-reelgate-dev-ip': ip } });
      const text = await response.text();
      if (response.status !== 200) {
        decisions.other[response.status] = (decisions.other[response.status] ?? 0) + 1;
        return;
      }
      if (JSON.parse(text).complete) decisions.complete += 1;
      else decisions.incomplete += 1;
    }));
  }
  const after = await controls.stats();
  const result = {
    visitors: CROWD,
    policy: 'europe (continents and proxy rules)',
    complete_decisions: decisions.complete,
    incomplete_decisions: decisions.incomplete,
    other_answers: decisions.other,
    complete_share: Math.round((decisions.complete / CROWD) * 1000) / 10,
    geo_lookups: geoCalls(after) - geoCalls(before),
    upstream_429s: after.rate_limited - before.rate_limited,
    duration_s: Math.round((Date.now() - started) / 100) / 10,
  };
  log(`geo decisions: ${result.complete_share} % complete of ${CROWD}, ${result.geo_lookups} lookups, ${result.upstream_429s} upstream 429s`);
  return result;
}
