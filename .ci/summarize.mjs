// Totals the per-suite summaries that `npm test` leaves in .build/summaries/*.json ({suite, passed, failed}) into the
// one line CI reads. A failed run whose suites recorded no failure (typecheck, build, a runner that never started)
// still counts one failure, so a red run never prints "0 failed". A suite that did not run says so in its summary
// ({status: 'skipped', reason}: the Firefox suite on a machine without Firefox, test/firefox/run.mjs) and is printed as
// skipped with its reason, so a skip is never mistaken for a suite with nothing to test.
import { readdirSync, readFileSync } from 'node:fs';

const dir = new URL('../.build/summaries/', import.meta.url);
const exitStatus = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
let files = [];
try {
  files = readdirSync(dir).filter((name) => name.endsWith('.json'));
} catch {
  // no suite ran
}
for (const name of files.sort()) {
  const summary = JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
  if (summary.status === 'skipped') console.log(`ci: ${summary.suite}: skipped (${summary.reason ?? 'no reason given'})`);
  else console.log(`ci: ${summary.suite}: ${summary.passed} passed, ${summary.failed} failed` +
    (summary.reason ? ` (${summary.reason})` : ''));
  passed += summary.passed;
  failed += summary.failed;
}
if (exitStatus !== 0 && failed === 0) {
  console.log('ci: npm test failed outside any counted test (typecheck, build or a runner that did not start)');
  failed = 1;
}
console.log(`${passed} passed, ${failed} failed`);
