import { expect } from 'chai';
import { nextLookMs } from '../../drivers/shared/process-memory-watch.js';

const MB = 1024 * 1024;

describe('the memory ceiling: when the watch looks again (nextLookMs)', function () {
  it('a browser far below the ceiling is looked at once a second', function () {
    expect(nextLookMs(150 * MB, 2048 * MB)).to.equal(1_000);
  });

  it('closer to the ceiling, as soon as 1 GB/s of growth could reach it', function () {
    expect(nextLookMs(1548 * MB, 2048 * MB)).to.equal(500);
  });

  it('near or above the ceiling, 4 times a second, never faster', function () {
    expect(nextLookMs(2000 * MB, 2048 * MB)).to.equal(250);
    expect(nextLookMs(3000 * MB, 2048 * MB)).to.equal(250);
  });
});
