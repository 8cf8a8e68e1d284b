// A web-test-runner reporter that counts passed and failed tests over every browser session and writes
// .build/wtr-summary.json ({passed, failed}) and .build/summaries/components.json ({suite, passed, failed}) for CI;
// the pass against the shipped bundle (REELGATE_TEST_BUNDLE=1) is its own suite, components-bundle, so CI's total
// counts both passes.
// A file-level error (a file that fails to load, an error thrown between tests) counts as one failure.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const build = fileURLToPath(new URL('../../../.build/', import.meta.url));

function count(suite, totals) {
  if (!suite) return;
  for (const test of suite.tests) {
    if (test.skipped) continue;
    if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const child of suite.suites) count(child, totals);
}

export function summaryReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const suite = process.env.REELGATE_TEST_BUNDLE === '1' ? 'components-bundle' : 'components';
      const totals = { passed: 0, failed: 0 };
      for (const session of sessions) {
        count(session.testResults, totals);
        // Errors outside any test: the file did not load, or something threw between tests.
        if (session.errors.length > 0) totals.failed++;
      }
      mkdirSync(`${build}summaries`, { recursive: true });
      writeFileSync(`${build}wtr-summary.json`, `${JSON.stringify(totals)}\n`);
      writeFileSync(`${build}summaries/${suite}.json`, `${JSON.stringify({ suite, ...totals })}\n`);
      console.log(`${suite}: ${totals.passed} passed, ${totals.failed} failed`);
    },
  };
}
