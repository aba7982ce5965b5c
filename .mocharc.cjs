// Mocha's settings. A run that names test files runs just those (`npx mocha dist/test/unit/config.test.js`);
// mocha would otherwise add them to the configured spec, so naming one file ran the whole suite (~30 min).
const namesFiles = process.argv.slice(2).some((arg) => arg.endsWith('.js') && !arg.startsWith('-') && !arg.includes('suite-leak-check'));
// The whole suite runs two files at a time, each in a worker process: a browser test file keeps well under one
// core busy on its own (it waits on pages, timers and the processes it started), so two fill the two cores.
// Measured on clean clones of one machine, 2026-11-29 (docs/performance.md, "CI time"): the suite took 17.4 min
// two at a time against 29 min one after another. An earlier machine measured the opposite (43.5 against 29 min,
// timing-bound cases failing beside the neighbour file's load): SHOTFARM_SUITE_PARALLEL=0 runs one file after
// another. Named files always run in this process.
const parallel = !namesFiles && process.env.SHOTFARM_SUITE_PARALLEL !== '0';
module.exports = {
  spec: namesFiles ? [] : ['dist/test/**/*.test.js'],
  parallel,
  jobs: 2,
  require: ['dist/test/support/suite-leak-check.js'],
  // A promise rejected with no handler after a file's last hook (a service its suite stopped writing late into a
  // closed database) ended the worker process that ran the file: mocha removes its listeners between files, and
  // the run lost that file's results ("Workerpool Worker terminated Unexpectedly", seen once in a whole-suite
  // run). One file after another, mocha's runner swallowed such rejections unseen. Node's warn mode prints them
  // in both modes and ends nothing; the workers inherit the option.
  'node-option': ['unhandled-rejections=warn'],
  timeout: 60000,
  exit: true,
  reporter: 'test/support/summary-reporter.cjs',
};
