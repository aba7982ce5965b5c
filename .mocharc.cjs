// Mocha's settings. A run that names test files runs just those (`npx mocha dist/test/unit/config.test.js`);
// mocha would otherwise add them to the configured spec, so naming one file ran the whole suite (~30 min).
const namesFiles = process.argv.slice(2).some((arg) => arg.endsWith('.js') && !arg.startsWith('-') && !arg.includes('suite-leak-check'));
// The whole suite runs two files at a time, each in a worker process: a browser test file keeps about half a core
// busy and waits the rest (pages, timers, other processes), so two side by side finish the suite in ~2/3 of the
// time (docs/performance.md, "CI time"). Named files run one after another in this process, as before, and so
// does the whole suite with SHOTFARM_SUITE_SERIAL=1 (to compare the two, or to read one file's output in order).
// A case that lost to a neighbour's load waits on an event now, not a fixed time (docs/performance.md, "CI time").
const parallel = !namesFiles && process.env.SHOTFARM_SUITE_SERIAL !== '1';
module.exports = {
  spec: namesFiles ? [] : ['dist/test/**/*.test.js'],
  parallel,
  jobs: 2,
  require: ['dist/test/support/suite-leak-check.js'],
  timeout: 60000,
  exit: true,
  reporter: 'test/support/summary-reporter.cjs',
};
