import { expect } from 'chai';
import sharp from 'sharp';
import { diffImages } from '../../api/monitors/image-diff.js';
import { nextRunAfter } from '../../api/monitors/monitor-schedule.js';
import { textChanges, visibleLines } from '../../api/monitors/text-changes.js';
import { cronProblem, readIgnore } from '../../api/monitors/monitor-params.js';
import { withIgnoredHidden } from '../../api/monitors/monitor-request.js';

const at = (iso: string): Date => new Date(iso);

/** A w×h PNG of one colour, with an optional rectangle of another. */
async function png(w: number, h: number, rect?: { x: number; y: number; width: number; height: number; color: string }): Promise<Buffer> {
  const base = sharp({ create: { width: w, height: h, channels: 4, background: '#ffffff' } });
  if (!rect) return base.png().toBuffer();
  const patch = await sharp({ create: { width: rect.width, height: rect.height, channels: 4, background: rect.color } })
    .png()
    .toBuffer();
  return base
    .composite([{ input: patch, left: rect.x, top: rect.y }])
    .png()
    .toBuffer();
}

describe('monitor schedule (unit)', () => {
  it('an interval keeps its phase, and any number of missed periods gives one next period after now', () => {
    const schedule = { interval_seconds: 300, cron: null };
    expect(nextRunAfter(schedule, at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:01Z')).toISOString()).to.equal('2026-01-01T00:05:00.000Z');
    // Twelve periods missed: the next is the first one after now, on the same 5-minute grid.
    expect(nextRunAfter(schedule, at('2026-01-01T00:00:00Z'), at('2026-01-01T01:02:03Z')).toISOString()).to.equal('2026-01-01T01:05:00.000Z');
    expect(nextRunAfter(schedule, at('2026-01-01T00:00:00Z'), at('2026-01-01T00:05:00Z')).toISOString()).to.equal('2026-01-01T00:10:00.000Z');
  });

  it('a cron expression runs at its next time in UTC, and must not run more often than the minimum', () => {
    expect(nextRunAfter({ interval_seconds: 300, cron: '30 9 * * *' }, at('2026-01-01T00:00:00Z'), at('2026-01-03T10:00:00Z')).toISOString()).to.equal('2026-01-04T09:30:00.000Z');
    expect(cronProblem('*/5 * * * *', 300)).to.equal(null);
    expect(cronProblem('*/4 * * * *', 300)).to.match(/more often/);
    expect(cronProblem('not cron', 300)).to.match(/not a cron expression/);
  });
});

describe('monitor ignore regions and text changes (unit)', () => {
  it('reads selectors and boxes from a JSON array or repeated values, and refuses what could leave a style rule', () => {
    expect(readIgnore(['[".ad", {"x":1,"y":2,"width":3,"height":4}]'])).to.deep.equal({ ok: true, value: [{ selector: '.ad' }, { box: { x: 1, y: 2, width: 3, height: 4 } }] });
    expect(readIgnore(['.a', '#b'])).to.deep.equal({ ok: true, value: [{ selector: '.a' }, { selector: '#b' }] });
    expect(readIgnore(['["a}body{display:none"]']).ok).to.equal(false);
    expect(readIgnore(['[{"x":0,"y":0,"width":0,"height":5}]']).ok).to.equal(false);
    // The ignored selectors join the run's hide_selector (a constructed style sheet, CSP-proof), after the monitor's own.
    expect(withIgnoredHidden({ hide_selector: ['#own'], dark: ['1'] }, [{ selector: 'a[title="x"]' }, { box: { x: 0, y: 0, width: 1, height: 1 } }])).to.deep.equal({
      hide_selector: ['#own', 'a[title="x"]'],
      dark: ['1'],
    });
    expect(withIgnoredHidden({ dark: ['1'] }, [{ box: { x: 0, y: 0, width: 1, height: 1 } }])).to.deep.equal({ dark: ['1'] });
  });

  it('lists the visible lines a page gained and lost, leaving out scripts and styles', () => {
    expect(visibleLines('<style>p{}</style><p>One &amp; two</p><script>var x = "<p>no</p>"</script><div>Three</div>')).to.deep.equal(['One & two', 'Three']);
    expect(textChanges('<p>a</p><p>b</p><p>b</p>', '<p>b</p><p>c</p>')).to.deep.equal({ added: ['c'], removed: ['a', 'b'], added_count: 1, removed_count: 2 });
  });
});

describe('image diff (unit, sharp and pixelmatch)', () => {
  it('counts the changed share of the compared pixels, and nothing inside a masked box', async () => {
    const before = await png(100, 100);
    const after = await png(100, 100, { x: 0, y: 0, width: 50, height: 100, color: '#000000' });
    const diff = await diffImages(before, after, []);
    expect(diff.ratio).to.be.closeTo(0.5, 0.01);
    const masked = await diffImages(before, after, [{ x: 0, y: 0, width: 50, height: 100 }]);
    expect(masked.changedPixels).to.equal(0);
    expect(masked.comparedPixels).to.equal(5000);
    const meta = await sharp(diff.png).metadata();
    expect([meta.format, meta.width, meta.height]).to.deep.equal(['png', 100, 100]);
  });

  it('compares shots of different heights on the larger canvas: the added part counts as changed', async () => {
    const diff = await diffImages(await png(100, 100), await png(100, 200), []);
    expect(diff.height).to.equal(200);
    expect(diff.ratio).to.be.closeTo(0.5, 0.01);
  });

  it('compares a very tall page scaled down, both shots and masks alike, within the pixel budget', async () => {
    const before = await png(1000, 20_000);
    const after = await png(1000, 20_000, { x: 0, y: 10_000, width: 1000, height: 10_000, color: '#000000' });
    const diff = await diffImages(before, after, [{ x: 0, y: 15_000, width: 1000, height: 5000 }]);
    expect(diff.width * diff.height).to.be.at.most(16_000_000);
    // Half of the page changed, a quarter of it is masked: a third of the compared pixels changed.
    expect(diff.ratio).to.be.closeTo(1 / 3, 0.01);
  });

  it('does not count anti-aliasing as a change: the same text rendered a sub-pixel apart', async () => {
    const text = (dx: number): Promise<Buffer> =>
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="200" height="60" fill="#fff"/><text x="${10 + dx}" y="40" font-size="28" font-family="sans-serif">Hello</text></svg>`,
        ),
      )
        .png()
        .toBuffer();
    const diff = await diffImages(await text(0), await text(0.3), []);
    expect(diff.ratio).to.be.below(0.01);
  });
});
