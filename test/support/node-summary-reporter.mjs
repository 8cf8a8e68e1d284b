// node:test reporter that writes {suite, passed, failed} to .build/summaries/ for .ci/summarize.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';

export default async function* summaryReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for await (const event of source) {
    // Count tests, not the files that hold them (top-level file events have nesting 0 and no parent test).
    if (event.type === 'test:pass' && event.data.details?.type !== 'suite' && event.data.file && event.data.nesting >= 0) {
      if (event.data.skip || event.data.todo) counts.skipped += 1;
      else counts.passed += 1;
    } else if (event.type === 'test:fail' && event.data.details?.type !== 'suite') {
      counts.failed += 1;
    }
  }
  const suite = process.env.REELGATE_SUITE ?? 'node';
  const dir = new URL('../../.build/summaries/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL(`${suite}.json`, dir), JSON.stringify({ suite, ...counts }));
  yield '';
}
