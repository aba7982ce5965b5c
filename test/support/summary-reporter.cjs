// Mocha's spec reporter, plus the plain closing line CI reads: "N passed, N failed, N skipped", and before it
// the slowest test files with their time (hooks included), so the CI budget (30 minutes) can be watched.
const Mocha = require('mocha');
const path = require('node:path');
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;

/** How many of the slowest files the closing lines name. */
const SLOWEST = 12;

class SummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    // Per file: when its first suite began and its last ended (a file's top-level suites run one after another).
    const files = new Map();
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (!suite.file || files.get(suite.file)?.start !== undefined) return;
      files.set(suite.file, { start: Date.now(), end: Date.now() });
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      const f = suite.file && files.get(suite.file);
      if (f) f.end = Date.now();
    });
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats;
      const slowest = [...files]
        .map(([file, t]) => [path.relative(process.cwd(), file), t.end - t.start])
        .sort((a, b) => b[1] - a[1])
        .slice(0, SLOWEST);
      if (slowest.length > 1) process.stdout.write(`\nslowest files:\n${slowest.map(([file, ms]) => `  ${(ms / 1000).toFixed(0).padStart(5)} s  ${file}`).join('\n')}\n`);
      process.stdout.write(`\n${s.passes} passed, ${s.failures} failed, ${s.pending} skipped\n`);
    });
  }
}
module.exports = SummaryReporter;
