import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { Histogram, Summary } from 'prom-client';
import { FarmMetrics } from '../../core/metrics/farm-metrics.js';

const run = promisify(execFile);
const RULES = 'monitoring/alerts.yml';
const RULE_TESTS = 'monitoring/alerts.test.yml';
const DASHBOARD = 'monitoring/grafana-dashboard.json';

/**
 * Every series name the service exports: the control plane's and an agent's metrics (embedded mode has
 * both), read from the registry itself. The sources are never called: only the metrics' names are read.
 */
function exportedSeries(): Set<string> {
  const metrics = new FarmMetrics({
    queueDepth: async () => ({}),
    queueAges: async () => [],
    nodes: async () => [],
    appRuns: async () => [],
    inFlight: () => 0,
    poolSizes: () => ({}),
  });
  const names = new Set<string>();
  for (const metric of metrics.registry.getMetricsAsArray()) {
    const { name } = metric as unknown as { name: string };
    names.add(name);
    if (metric instanceof Histogram) for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (metric instanceof Summary) for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}

/** The rule file's `expr:` values, one-line or `|` blocks. */
function ruleExpressions(yaml: string): string[] {
  const lines = yaml.split('\n');
  const exprs: string[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)expr:\s*(.*)$/.exec(line);
    if (!m) return;
    if (m[2] !== '|') return void exprs.push(m[2]!);
    const block: string[] = [];
    for (let j = i + 1; j < lines.length && (lines[j]!.trim() === '' || lines[j]!.search(/\S/) > m[1]!.length); j++) block.push(lines[j]!);
    exprs.push(block.join('\n'));
  });
  return exprs;
}

const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/** The metric names a PromQL expression reads: identifiers outside strings, label matchers and grouping clauses, not called. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  return [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)].map((m) => m[1]!).filter((w) => !PROMQL_WORDS.has(w.toLowerCase()) && !/^\d/.test(w));
}

describe('monitoring: alert rules and Grafana dashboard', function () {
  this.timeout(30_000);

  it('finds the metric names of a PromQL expression', () => {
    expect(metricNames('sum by (le, route) (rate(a_bucket{status=~"5.."}[5m])) / sum(b_total) > 0.05 and (c or vector(0)) == 0')).to.deep.equal(['a_bucket', 'b_total', 'c']);
  });

  it('promtool accepts the rule file', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', RULES]);
    expect(stdout).to.match(/SUCCESS: \d+ rules found/);
  });

  it("promtool's unit tests of every alert pass", async () => {
    const alerts = ruleExpressions(fs.readFileSync(RULES, 'utf8')).length;
    const tested = new Set([...fs.readFileSync(RULE_TESTS, 'utf8').matchAll(/alertname:\s*(\S+)/g)].map((m) => m[1]));
    const defined = new Set([...fs.readFileSync(RULES, 'utf8').matchAll(/- alert:\s*(\S+)/g)].map((m) => m[1]));
    expect(defined.size).to.equal(alerts);
    expect(
      [...defined].filter((a) => !tested.has(a)),
      'alerts without a unit test',
    ).to.deep.equal([]);
    const { stdout } = await run('promtool', ['test', 'rules', RULE_TESTS]);
    expect(stdout).to.include('SUCCESS');
  });

  it('the rules and the dashboard name only metrics the service exports', () => {
    const exported = exportedSeries();
    const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
    const exprs = [...ruleExpressions(fs.readFileSync(RULES, 'utf8')), ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr))];
    expect(exprs.length).to.be.greaterThan(15);
    const named = new Set(exprs.flatMap(metricNames));
    expect(named.size).to.be.greaterThan(10);
    expect(
      [...named].filter((n) => !exported.has(n)),
      'named but not exported',
    ).to.deep.equal([]);
    // Every panel reads at least one metric.
    for (const panel of dashboard.panels)
      expect(
        panel.targets.flatMap((t) => metricNames(t.expr)),
        panel.title,
      ).to.not.be.empty;
  });
});
