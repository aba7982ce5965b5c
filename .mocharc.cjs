// Mocha's settings. A run that names test files runs just those (`npx mocha dist/test/unit/config.test.js`);
// mocha would otherwise add them to the configured spec, so naming one file ran the whole suite (~30 min).
const namesFiles = process.argv.slice(2).some((arg) => arg.endsWith('.js') && !arg.startsWith('-') && !arg.includes('suite-leak-check'));
// The whole suite runs one file after another by default. Two at a time in worker processes
// (SHOTFARM_SUITE_PARALLEL=1) was measured slower on this 2-core machine once the browser files run together: the
// whole suite so took over 45 min against ~27 min serial (docs/performance.md, "CI time"), its files competing
// for the two cores, and timing-bound cases lost to the neighbour's load. Named files always run in this process.
const parallel = !namesFiles && process.env.SHOTFARM_SUITE_PARALLEL === '1';
module.exports = {
  spec: namesFiles ? [] : ['dist/test/**/*.test.js'],
  parallel,
  jobs: 2,
  require: ['dist/test/support/suite-leak-check.js'],
  timeout: 60000,
  exit: true,
  reporter: 'test/support/summary-reporter.cjs',
};
