// Adds up the `faults-tally {...}` lines the fault suites print (test/faults/world.ts) into one closing table:
// how many requests, injected faults and fuzz cases were tried, and how many of them failed.
export default class FaultsTallyReporter {
  constructor() {
    this.tallies = [];
  }

  onUserConsoleLog(log) {
    for (const line of String(log.content).split('\n')) {
      if (line.startsWith('faults-tally ')) this.tallies.push(JSON.parse(line.slice('faults-tally '.length)));
    }
  }

  onTestRunEnd() {
    if (this.tallies.length === 0) return;
    const total = { suite: 'total', requests: 0, faults: 0, fuzzCases: 0, failed: 0 };
    const rows = [...this.tallies].sort((a, b) => a.suite.localeCompare(b.suite));
    for (const row of rows) for (const key of ['requests', 'faults', 'fuzzCases', 'failed']) total[key] += row[key];
    const width = Math.max(...rows.map((row) => row.suite.length), 5);
    const line = (row) => `${row.suite.padEnd(width)}  ${String(row.requests).padStart(8)}  ${String(row.faults).padStart(6)}  ` +
      `${String(row.fuzzCases).padStart(10)}  ${String(row.failed).padStart(6)}`;
    console.log(`\n${'fault suite'.padEnd(width)}  ${'requests'.padStart(8)}  ${'faults'.padStart(6)}  ` +
      `${'fuzz cases'.padStart(10)}  ${'failed'.padStart(6)}`);
    for (const row of rows) console.log(line(row));
    console.log(line(total));
  }
}
