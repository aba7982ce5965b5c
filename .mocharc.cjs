// Tests run on the compiled output (dist/), which also proves the build.
module.exports = {
  spec: ['dist/test/**/*.test.js'],
  timeout: 60000,
  exit: true,
};
