// Mocha's spec reporter, plus the plain closing line CI reads: "N passed, N failed, N skipped", and before it
// the slowest test files with their time (hooks included), so the CI budget (25 minutes) can be watched.
// A file's time is the sum of its tests' and hooks' durations, which mocha measures where they run: the
// whole suite runs files side by side in worker processes (.mocharc.cjs), whose events reach this reporter
// in one burst when a file is done, so clock readings taken here would not say how long a file took.
// With SHOTFARM_SUITE_TIMES=<path> it also writes every file's time there, slowest first, one file a line
// ("<seconds>\t<file>"), so a whole run can be compared file by file with the next (the CI budget's work).
// The failed tests are named again, one line each, right above the closing line: CI keeps only the output's
// last lines, and the spec reporter's failure details come far above them. A string chai shortened follows whole.
const Mocha = require('mocha');
const fs = require('node:fs');
const path = require('node:path');
const { Spec } = Mocha.reporters;
const { EVENT_HOOK_END, EVENT_TEST_FAIL, EVENT_TEST_PASS } = Mocha.Runner.constants;

/** How many of the slowest files the closing lines name. */
const SLOWEST = 12;

class SummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    this.runner = runner;
    /** milliseconds per file: its tests and hooks (the suite-wide root hooks belong to no file) */
    this.fileMs = new Map();
    const add = (runnable) => {
      if (runnable.file && typeof runnable.duration === 'number') this.fileMs.set(runnable.file, (this.fileMs.get(runnable.file) ?? 0) + runnable.duration);
    };
    runner.on(EVENT_HOOK_END, add);
    runner.on(EVENT_TEST_PASS, add);
    runner.on(EVENT_TEST_FAIL, add);
    /** one line per failed test or hook: its file, its full title and the first line of its error */
    this.failedLines = [];
    runner.on(EVENT_TEST_FAIL, (runnable, err) => {
      const where = runnable.file ? `${path.relative(process.cwd(), runnable.file)}: ` : '';
      const why = String(err?.message ?? err)
        .split('\n')[0]
        .slice(0, 200);
      // chai shortens a long actual value to 40 characters in its message ('wait_for: nothing matching…'):
      // the whole value is what says why, so it follows.
      const actual = typeof err?.actual === 'string' && why.includes('…') ? ` [actual: ${JSON.stringify(err.actual).slice(0, 300)}]` : '';
      this.failedLines.push(`  ${where}${runnable.fullTitle()}: ${why}${actual}`);
    });
  }

  /**
   * Called once everything has run, the global teardown (the suite's leak check) included: `failures`
   * counts a failed teardown too, which the run's own stats do not.
   */
  done(failures, fn) {
    const s = this.runner.stats;
    const byTime = [...this.fileMs].map(([file, ms]) => [path.relative(process.cwd(), file), ms]).sort((a, b) => b[1] - a[1]);
    const timesFile = process.env.SHOTFARM_SUITE_TIMES;
    if (timesFile) fs.writeFileSync(timesFile, byTime.map(([file, ms]) => `${(ms / 1000).toFixed(1)}\t${file}\n`).join(''));
    const slowest = byTime.slice(0, SLOWEST);
    if (slowest.length > 1) process.stdout.write(`\nslowest files:\n${slowest.map(([file, ms]) => `  ${(ms / 1000).toFixed(0).padStart(5)} s  ${file}`).join('\n')}\n`);
    if (this.failedLines.length > 0) process.stdout.write(`\nfailed:\n${this.failedLines.join('\n')}\n`);
    process.stdout.write(`\n${s.passes} passed, ${failures} failed, ${s.pending} skipped\n`);
    fn(failures);
  }
}
module.exports = SummaryReporter;
