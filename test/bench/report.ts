/**
 * The speed benchmark's printed report: the results table, the verdicts against issue 8's targets, the
 * pooled-vs-per-slot and launch-cost comparisons, and the mean phases of every cell. Pure formatting:
 * everything it prints was measured elsewhere.
 */
import {
  CONCURRENCIES,
  FIREFOX_CONCURRENCY,
  FULL_PAGE_MIN_CONCURRENCY,
  FULL_PAGE_MIN_RATIO,
  NAIVE_CONCURRENCY,
  NAIVE_MIN_RATIO,
  P50_CONCURRENCY,
  P50_MAX_OVERHEAD_MS,
  SIZES,
  VIEWPORT_DISTRIBUTED_MIN_RATIO,
  VIEWPORT_EMBEDDED_MIN_RATIO,
  type BrowserKind,
  type Size,
} from './bench-settings.js';
import { median, type LaunchCost } from './launch-cost.js';
import { emptyCell, percentile, throughput, type Cell } from './measure.js';

export const MODES = ['raw', 'raw-per-slot', 'raw-naive', 'embedded', 'distributed'] as const;
export type Mode = (typeof MODES)[number];

/** The cells of a run, by (browser, size, concurrency, mode). */
export class Results {
  private readonly cells = new Map<string, Cell>();

  private static key(browser: BrowserKind, size: Size, concurrency: number, mode: Mode): string {
    return `${browser}/${size}/${concurrency}/${mode}`;
  }

  cell(browser: BrowserKind, size: Size, concurrency: number, mode: Mode): Cell {
    const key = Results.key(browser, size, concurrency, mode);
    const cell = this.cells.get(key) ?? emptyCell();
    this.cells.set(key, cell);
    return cell;
  }

  /** A cell that was measured (at least one capture), or null. */
  find(browser: BrowserKind, size: Size, concurrency: number, mode: Mode): Cell | null {
    const cell = this.cells.get(Results.key(browser, size, concurrency, mode));
    return cell && cell.captures > 0 ? cell : null;
  }

  /** Every measured cell, in table order: browser, size, concurrency, mode. */
  rows(): { browser: BrowserKind; size: Size; concurrency: number; mode: Mode; cell: Cell }[] {
    const out: { browser: BrowserKind; size: Size; concurrency: number; mode: Mode; cell: Cell }[] = [];
    const plan: [BrowserKind, number[]][] = [
      ['chromium', CONCURRENCIES],
      ['firefox', [FIREFOX_CONCURRENCY]],
    ];
    for (const [browser, concurrencies] of plan) {
      for (const size of SIZES) {
        for (const concurrency of concurrencies) {
          for (const mode of MODES) {
            const cell = this.find(browser, size, concurrency, mode);
            if (cell) out.push({ browser, size, concurrency, mode, cell });
          }
        }
      }
    }
    return out;
  }
}

const p50 = (cell: Cell): number => percentile(cell.latencies, 50);
/** Milliseconds with an explicit sign: a difference to raw. */
const signed = (ms: number): string => `${ms >= 0 ? '+' : ''}${ms.toFixed(0)}`;
const SIZE_NAME: Record<Size, string> = { screen: 'viewport', page: 'full page' };

/** Columns padded to a width each: the first `textColumns` left-aligned, the numbers after them right-aligned. */
function formatTable(header: string[], rows: string[][], textColumns: number): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((text, i) => (i < textColumns ? text.padEnd(widths[i]!) : text.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)];
}

/** The results table: one line per measured cell, with its ratio and p50 difference to the raw row beside it. */
export function resultsTable(results: Results): string[] {
  const header = ['size', 'conc', 'browser', 'mode', 'n', 'cap/s', 'p50 ms', 'p95 ms', 'CPU s/cap', 'svc', 'browsers', 'peak RSS MB', 'vs raw', 'p50 Δ ms'];
  const rows = results.rows().map(({ browser, size, concurrency, mode, cell }) => {
    const raw = results.find(browser, size, concurrency, 'raw');
    const isRaw = mode === 'raw';
    return [
      SIZE_NAME[size],
      String(concurrency),
      browser,
      mode,
      String(cell.captures),
      throughput(cell).toFixed(2),
      p50(cell).toFixed(0),
      percentile(cell.latencies, 95).toFixed(0),
      (cell.cpuSeconds / cell.captures).toFixed(3),
      mode.startsWith('raw') ? '' : (cell.serviceCpuSeconds / cell.captures).toFixed(3),
      (cell.browserCpuSeconds / cell.captures).toFixed(3),
      (cell.peakRss / 1024 / 1024).toFixed(0),
      isRaw ? '1.00' : raw ? (throughput(cell) / throughput(raw)).toFixed(2) : '-',
      isRaw ? '' : raw ? signed(p50(cell) - p50(raw)) : '-',
    ];
  });
  return formatTable(header, rows, 4);
}

/** The worst value of a per-concurrency measure (lowest ratio, or highest overhead) and where it is. */
function worst(values: { concurrency: number; value: number }[], lowestIsWorst: boolean): { concurrency: number; value: number } | null {
  if (values.length === 0) return null;
  return values.reduce((a, b) => ((lowestIsWorst ? b.value < a.value : b.value > a.value) ? b : a));
}

/** Throughput of `mode` over raw, per Chromium concurrency (measured ones only). */
function ratios(results: Results, size: Size, mode: Mode, baseline: Mode = 'raw'): { concurrency: number; value: number }[] {
  return CONCURRENCIES.flatMap((concurrency) => {
    const cell = results.find('chromium', size, concurrency, mode);
    const base = results.find('chromium', size, concurrency, baseline);
    return cell && base ? [{ concurrency, value: throughput(cell) / throughput(base) }] : [];
  });
}

/** p50 latency of `mode` minus raw's, per Chromium concurrency (measured ones only), ms. */
function p50Deltas(results: Results, size: Size, mode: Mode): { concurrency: number; value: number }[] {
  return CONCURRENCIES.flatMap((concurrency) => {
    const cell = results.find('chromium', size, concurrency, mode);
    const raw = results.find('chromium', size, concurrency, 'raw');
    return cell && raw ? [{ concurrency, value: p50(cell) - p50(raw) }] : [];
  });
}

function verdict(what: string, found: { concurrency: number; value: number } | null, pass: (v: number) => boolean, format: (v: number) => string): string {
  if (!found) return `${what}: not measured`;
  return `${what}: ${pass(found.value) ? 'yes' : 'no'} (worst ${format(found.value)} at c${found.concurrency})`;
}

/** Issue 30's targets (Chromium; bench-settings.ts says at which concurrencies), then the comparisons that are information only. */
export function verdicts(results: Results): string[] {
  const lines = [
    'targets (chromium, every concurrency):',
    `  ${verdict(
      `viewport embedded ≥ ${VIEWPORT_EMBEDDED_MIN_RATIO}× raw throughput`,
      worst(ratios(results, 'screen', 'embedded'), true),
      (v) => v >= VIEWPORT_EMBEDDED_MIN_RATIO,
      (v) => `${v.toFixed(2)}×`,
    )}`,
    `  ${verdict(
      `viewport distributed ≥ ${VIEWPORT_DISTRIBUTED_MIN_RATIO}× raw throughput`,
      worst(ratios(results, 'screen', 'distributed'), true),
      (v) => v >= VIEWPORT_DISTRIBUTED_MIN_RATIO,
      (v) => `${v.toFixed(2)}×`,
    )}`,
    `  ${verdict(
      `p50 overhead ≤ ${P50_MAX_OVERHEAD_MS} ms (embedded, viewport, c${P50_CONCURRENCY})`,
      worst(
        p50Deltas(results, 'screen', 'embedded').filter((d) => d.concurrency === P50_CONCURRENCY),
        false,
      ),
      (v) => v <= P50_MAX_OVERHEAD_MS,
      (v) => `${signed(v)} ms`,
    )}`,
    `  ${verdict(
      `full page embedded ≥ ${FULL_PAGE_MIN_RATIO}× raw fullPage throughput (from c${FULL_PAGE_MIN_CONCURRENCY})`,
      worst(
        ratios(results, 'page', 'embedded').filter((r) => r.concurrency >= FULL_PAGE_MIN_CONCURRENCY),
        true,
      ),
      (v) => v >= FULL_PAGE_MIN_RATIO,
      (v) => `${v.toFixed(2)}×`,
    )}`,
    `  ${verdict(
      `viewport embedded ≥ ${NAIVE_MIN_RATIO}× the naive loop (Chromium's default flags, c${NAIVE_CONCURRENCY})`,
      worst(
        ratios(results, 'screen', 'embedded', 'raw-naive').filter((r) => r.concurrency === NAIVE_CONCURRENCY),
        true,
      ),
      (v) => v >= NAIVE_MIN_RATIO,
      (v) => `${v.toFixed(2)}×`,
    )}`,
    'information:',
  ];
  for (const size of SIZES) {
    // raw over raw-per-slot: above 1 means one browser with many contexts beats one browser per slot.
    const pooled = ratios(results, size, 'raw', 'raw-per-slot');
    if (pooled.length > 0)
      lines.push(`  ${SIZE_NAME[size]}: one pooled browser (contexts) vs one browser per slot, raw throughput ratio: ${pooled.map((r) => `c${r.concurrency} ${r.value.toFixed(2)}`).join(', ')}`);
  }
  for (const size of SIZES) {
    const parts = (['embedded', 'distributed'] as const).map(
      (mode) =>
        `${mode} ${p50Deltas(results, size, mode)
          .map((d) => `c${d.concurrency} ${signed(d.value)}`)
          .join(' ')}`,
    );
    lines.push(`  ${SIZE_NAME[size]}: p50 Δ to raw (ms): ${parts.join('; ')}`);
  }
  const firefox = SIZES.flatMap((size) => {
    const cell = results.find('firefox', size, FIREFOX_CONCURRENCY, 'embedded');
    const raw = results.find('firefox', size, FIREFOX_CONCURRENCY, 'raw');
    return cell && raw ? [`${SIZE_NAME[size]} ${(throughput(cell) / throughput(raw)).toFixed(2)}× (p50 ${signed(p50(cell) - p50(raw))} ms)`] : [];
  });
  if (firefox.length > 0) lines.push(`  firefox embedded vs raw at c${FIREFOX_CONCURRENCY}: ${firefox.join(', ')}`);
  return lines;
}

/** Launch cost table, and what a browser per request would add to a warm capture. */
export function launchTable(costs: LaunchCost[], results: Results): string[] {
  const header = ['browser', 'version', 'launches', 'ready p50 ms', 'closed p50 ms', 'CPU s/launch'];
  const rows = costs.map((c) => [c.browser, c.version, String(c.readyMs.length), median(c.readyMs).toFixed(0), median(c.cycleMs).toFixed(0), median(c.cpuSeconds).toFixed(2)]);
  const lines = formatTable(header, rows, 2);
  for (const cost of costs) {
    // Issue 8's reference is the raw c1 viewport capture; Firefox is measured at one concurrency only.
    const concurrency = cost.browser === 'chromium' ? (CONCURRENCIES.includes(1) ? 1 : Math.min(...CONCURRENCIES)) : FIREFOX_CONCURRENCY;
    const raw = results.find(cost.browser, 'screen', concurrency, 'raw');
    if (!raw) continue;
    const ready = median(cost.readyMs);
    lines.push(
      `  ${cost.browser}: a browser launched per request would add ${ready.toFixed(0)} ms before the page even opens, ${(ready / p50(raw)).toFixed(1)}× a warm raw capture (viewport p50 ${p50(raw).toFixed(0)} ms at c${concurrency}), and ${median(cost.cpuSeconds).toFixed(2)} CPU s vs ${(raw.cpuSeconds / raw.captures).toFixed(3)}`,
    );
  }
  return lines;
}

/**
 * Phases in the order they happen: the raw loop's laps; the capture pipeline's (drivers/shared/capture-pipeline.ts),
 * then the agent's (node-agent/job-runner.ts) and the client's remainder. The record's `timings` come back
 * in jsonb's key order (by length), so they are put back in this order; an unknown phase goes last.
 */
const PHASE_ORDER = [
  'context_page',
  'prepare',
  'load',
  'scripts_steps',
  'wait',
  'shot',
  'shots',
  'html_links',
  'video',
  'pdf',
  'close',
  'queued',
  'capture',
  'store',
  'total',
  'outside_record',
  'create_call',
  'download',
];
const phaseRank = (phase: string): number => (PHASE_ORDER.includes(phase) ? PHASE_ORDER.indexOf(phase) : PHASE_ORDER.length);

/** Mean of each phase over a cell's captures (ms). */
function meanPhases(cell: Cell, addOutside: boolean): string {
  const sums = new Map<string, number>();
  cell.timings.forEach((timings, i) => {
    for (const [phase, ms] of Object.entries(timings)) sums.set(phase, (sums.get(phase) ?? 0) + ms);
    // What the client waited for beyond the record's own total: create call, info wake-up, image download.
    if (addOutside && timings.total !== undefined) sums.set('outside_record', (sums.get('outside_record') ?? 0) + (cell.latencies[i] ?? 0) - timings.total);
  });
  return [...sums]
    .sort(([a], [b]) => phaseRank(a) - phaseRank(b))
    .map(([phase, sum]) => `${phase} ${(sum / cell.timings.length).toFixed(0)}`)
    .join(', ');
}

export function phaseSummary(results: Results): string[] {
  const lines = [
    "mean phases (ms): raw = the loop's own laps; embedded/distributed = the record's `timings`: the capture pipeline's phases",
    "  (prepare = context and page), then queued, capture (the pipeline with the context's close), store (outputs written),",
    '  total (enqueued → stored), and outside_record = client latency − total (create call, result recorded, info wake-up, image download);',
    "  create_call and download are the client's laps of the first and last request (create_call overlaps total from the enqueue on)",
  ];
  for (const { browser, size, concurrency, mode, cell } of results.rows()) {
    lines.push(`  ${browser} ${SIZE_NAME[size].padEnd(9)} c${concurrency} ${mode.padEnd(12)}: ${meanPhases(cell, mode === 'embedded' || mode === 'distributed')}`);
  }
  return lines;
}
