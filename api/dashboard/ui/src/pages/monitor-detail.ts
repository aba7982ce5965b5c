import { api, apiBlob } from '../api.js';
import { empty, h, replaceChildren, table } from '../dom.js';
import { dateTime, statusBadge } from '../format.js';
import { section } from '../forms.js';
import { pageObjectUrl, type PageContext } from '../page.js';
import type { Monitor, MonitorRun } from '../records.js';
import { thumbnail } from '../thumbnails.js';
import { MONITOR_HEADERS, monitorRow } from './monitors.js';

const POLL_MS = 3000;
const THUMB_WIDTH = 200;
const COMPARE_WIDTH = 800;

const percent = (ratio: number | null): string => (ratio === null ? '—' : `${(ratio * 100).toFixed(2)} %`);

/** An image of the session's API (the CSRF proof travels with the fetch, which an <img src> cannot send). */
async function sessionImage(ctx: PageContext, path: string, query: Record<string, number>, alt: string): Promise<HTMLImageElement> {
  const img = h('img', { alt, class: 'compare-img' });
  img.src = pageObjectUrl(ctx, await apiBlob(path, query));
  return img;
}

/**
 * Before and after, one over the other: the slider uncovers the after shot from the left, so a change
 * shows where the edge crosses it. The diff image below marks every changed pixel.
 */
async function comparison(ctx: PageContext, run: MonitorRun): Promise<HTMLElement> {
  if (run.screenshot_id === null || run.previous_screenshot_id === null) return empty('The first run has nothing to compare with.');
  const [before, after] = await Promise.all([
    sessionImage(ctx, '/screenshot/thumbnail', { id: run.previous_screenshot_id, width: COMPARE_WIDTH }, `Before (screenshot ${run.previous_screenshot_id})`),
    sessionImage(ctx, '/screenshot/thumbnail', { id: run.screenshot_id, width: COMPARE_WIDTH }, `After (screenshot ${run.screenshot_id})`),
  ]);
  after.classList.add('compare-top');
  const slider = h('input', { type: 'range', min: 0, max: 100, value: 50, 'aria-label': 'Before / after' });
  const place = (): void => {
    after.style.clipPath = `inset(0 ${100 - Number(slider.value)}% 0 0)`;
  };
  slider.addEventListener('input', place);
  place();
  const diff = run.diff_url ? await sessionImage(ctx, '/monitor/diff', { id: run.screenshot_id }, 'Changed pixels in red').catch(() => null) : null;
  const text = run.text_changes;
  return h(
    'div',
    null,
    h('p', null, `Run ${run.id}: ${percent(run.change_ratio)} of the pixels changed${run.changed ? ' (above the threshold)' : ''}. Drag: before ← → after.`),
    h('div', { class: 'compare' }, before, after),
    slider,
    diff ? h('div', null, h('h3', null, 'Diff'), diff) : null,
    text
      ? h(
          'div',
          { class: 'text-changes' },
          h('h3', null, `Text: ${text.added_count} line(s) added, ${text.removed_count} removed`),
          h(
            'ul',
            null,
            text.added.map((l) => h('li', { class: 'added' }, `+ ${l}`)),
            text.removed.map((l) => h('li', { class: 'removed' }, `− ${l}`)),
          ),
        )
      : null,
  );
}

/** GET /monitor/info and /monitor/runs: the timeline of runs with thumbnails, and a run's before/after. */
export async function monitorDetailPage(ctx: PageContext): Promise<HTMLElement> {
  const id = Number(ctx.params.id);
  const summary = h('div', { class: 'card', 'aria-live': 'polite' });
  const actions = h('div', { class: 'row' });
  const timeline = h('div', { class: 'timeline', 'aria-live': 'polite' });
  const detail = h('div');
  let monitor: Monitor;
  let runs: MonitorRun[] = [];

  const show = (run: MonitorRun): void => {
    replaceChildren(detail, h('p', null, 'Loading…'));
    comparison(ctx, run)
      .then((el) => ctx.alive() && replaceChildren(detail, el))
      .catch((err: unknown) => replaceChildren(detail, h('p', { class: 'field-error' }, err instanceof Error ? err.message : String(err))));
  };
  const button = (label: string, path: string): HTMLButtonElement => {
    const b = h('button', { type: 'button' }, label);
    b.addEventListener('click', () => {
      b.disabled = true;
      api(path, { json: { id } })
        .then(() => refresh())
        .catch((err: unknown) => b.after(h('span', { class: 'field-error' }, err instanceof Error ? err.message : String(err))))
        .finally(() => {
          b.disabled = false;
        });
    });
    return b;
  };
  const refresh = async (): Promise<void> => {
    [monitor, runs] = await Promise.all([api<Monitor>('/monitor/info', { query: { id } }), api<MonitorRun[]>('/monitor/runs', { query: { id, limit: 50 } })]);
    if (!ctx.alive()) return;
    replaceChildren(summary, table(MONITOR_HEADERS, [monitorRow(monitor)]));
    replaceChildren(actions, button('Run now', '/monitor/run'), monitor.status === 'active' ? button('Pause', '/monitor/pause') : button('Resume', '/monitor/resume'));
    replaceChildren(
      timeline,
      runs.length === 0
        ? empty('No runs yet.')
        : h(
            'ol',
            { class: 'runs' },
            runs.map((run) => {
              const pick = h('button', { type: 'button', class: run.changed ? 'run changed' : 'run', disabled: run.previous_screenshot_id === null }, 'Compare');
              pick.addEventListener('click', () => show(run));
              return h(
                'li',
                { class: run.changed ? 'changed' : '' },
                run.screenshot_id !== null && run.status === 'finished'
                  ? thumbnail(ctx, run.screenshot_id, { width: THUMB_WIDTH, alt: `Run ${run.id}` })
                  : h('div', { class: 'thumb-box thumb-pending' }, run.error || run.status),
                h('div', null, dateTime(run.created_at), ' ', statusBadge(run.changed ? 'changed' : run.status)),
                h('div', null, percent(run.change_ratio), ' ', pick),
              );
            }),
          ),
    );
  };
  await refresh();
  ctx.every(POLL_MS, async () => {
    // While a run is under way, or one is due (the schedule starts it within a poll of the service).
    const due = monitor.status === 'active' && monitor.next_run_at !== '' && Date.parse(monitor.next_run_at) <= Date.now();
    if (due || runs.some((r) => r.status === 'processing' || r.status === 'comparing')) await refresh();
  });
  const latestChange = runs.find((r) => r.changed);
  if (latestChange) show(latestChange);
  return h(
    'div',
    null,
    h('p', null, h('a', { href: '#/monitors' }, '← Monitors')),
    h('h1', null, `Monitor ${id}: ${monitor!.name || monitor!.url}`),
    summary,
    actions,
    section('Timeline', timeline),
    section('Before / after', detail),
  );
}
