import { expect } from 'chai';
import { CapturesAhead } from '../support/captures-ahead.js';

/** A capture that ends when the test says so, recording when it started. */
function heldCaptures(count: number) {
  const startedOrder: number[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const release: Array<(value: number) => void> = [];
  const captures = Array.from({ length: count }, (_, i) => () => {
    startedOrder.push(i);
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    return new Promise<number>((resolve) => (release[i] = resolve)).finally(() => running--);
  });
  return { captures, startedOrder, release, mostAtOnce: () => mostAtOnce };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('CapturesAhead (the conformance file runs captures ahead of their tests)', function () {
  it('starts the asked capture and the next atOnce - 1, never more at once, in the tests order', async () => {
    const held = heldCaptures(5);
    const ahead = new CapturesAhead(held.captures, 3);
    const results: number[] = [];
    for (let i = 0; i < 5; i++) {
      const result = ahead.result(i);
      await tick();
      // Test i waits on capture i; the ones after it up to atOnce are under way too.
      expect(held.startedOrder).to.deep.equal([0, 1, 2, 3, 4].slice(0, Math.min(i + 3, 5)));
      held.release[i]!(i * 10);
      results.push(await result);
    }
    expect(results).to.deep.equal([0, 10, 20, 30, 40]);
    expect(held.mostAtOnce()).to.equal(3);
  });

  it("gives a capture's failure to its own test only, even when it failed before that test asked", async () => {
    const captures = [async () => 'first', () => Promise.reject(new Error('second failed')), () => Promise.resolve('third')];
    const ahead = new CapturesAhead(captures, 3);
    expect(await ahead.result(0)).to.equal('first');
    await tick();
    const failure = await ahead.result(1).then(
      () => null,
      (err: unknown) => err,
    );
    expect(String(failure)).to.match(/second failed/);
    expect(await ahead.result(2)).to.equal('third');
  });

  it('turns a capture that throws before returning a promise into its test failure', async () => {
    const ahead = new CapturesAhead<string>(
      [
        () => {
          throw new Error('no spec');
        },
      ],
      2,
    );
    const failure = await ahead.result(0).then(
      () => null,
      (err: unknown) => err,
    );
    expect(String(failure)).to.match(/no spec/);
  });
});
