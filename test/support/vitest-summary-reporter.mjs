// Writes {suite, passed, failed, skipped} for the worker suites to .build/summaries/, where .ci/summarize.mjs totals
// every suite into CI's closing line.
import { mkdirSync, writeFileSync } from 'node:fs';

export default class SummaryReporter {
  constructor() {
    this.suite = process.env.REELGATE_SUITE ?? 'worker';
  }

  onTestRunEnd(testModules, unhandledErrors = []) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      let tests = 0;
      for (const test of testModule.children.allTests()) {
        tests += 1;
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
      // A file that failed to load has no tests but must still count as a failure.
      if (tests === 0 && testModule.state() === 'failed') counts.failed += 1;
    }
    counts.failed += unhandledErrors.length;
    const dir = new URL('../../.build/summaries/', import.meta.url);
    mkdirSync(dir, { recursive: true });
    writeFileSync(new URL(`${this.suite}.json`, dir), JSON.stringify({ suite: this.suite, ...counts }));
  }
}
