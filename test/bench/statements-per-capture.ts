/**
 * Benchmark helper (not a test): the SQL one capture costs the control plane, statement by statement
 * (issue 19, item 2). A control plane over a throwaway Postgres (or PGlite) with the in-process queue and no
 * agent; one warm-up capture, then N creates through the HTTP API whose results are applied as an agent's
 * arrive. Prints each distinct statement of the create (HTTP request) and of the recording with how many times
 * it ran per capture, and the totals, as `make bench-farm` counts them (shotfarm_db_statements_total).
 * Then the same N results handed to the recorder at once, as a queue consumer hands in what one fetch pulled
 * (issue 30: recorded together in one statement).
 *
 *   node dist/test/bench/statements-per-capture.js [--db postgres|pglite] [--captures 20]
 */
import { agentResult } from '../support/capture-results.js';
import { startTestApi } from '../support/test-api.js';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}
const KIND = arg('db', 'postgres') as 'postgres' | 'pglite';
const CAPTURES = Number(arg('captures', '20'));

/** A statement's shape: its literals are bindings already; long IN lists and VALUES tuples are folded. */
const shape = (sql: string): string =>
  sql
    .replace(/\$\d+/g, '?')
    .replace(/(\?, )+\?/g, '?…')
    .slice(0, 220);

async function main(): Promise<void> {
  const api = await startTestApi(KIND);
  try {
    const acct = await api.account(1_000_000);
    let phase: Map<string, number> | null = null;
    api.database.db.on('query', (q: { sql: string }) => {
      if (phase) phase.set(shape(q.sql), (phase.get(shape(q.sql)) ?? 0) + 1);
    });
    const capture = async (i: number, create: Map<string, number> | null, record: Map<string, number> | null): Promise<void> => {
      phase = create;
      const res = await fetch(`${api.url}/screenshot/create?url=${encodeURIComponent(`http://example.test/${i}`)}`, { headers: { 'X-API-KEY': acct.key } });
      const body = (await res.json()) as { data: { id: number }[] | { id: number } };
      if (res.status !== 200) throw new Error(`create answered ${res.status}: ${JSON.stringify(body)}`);
      const id = Array.isArray(body.data) ? (body.data[0] as { id: number }).id : body.data.id;
      phase = record;
      if ((await api.plane.recorder.apply(agentResult(id))) !== 'applied') throw new Error(`result of ${id} not applied`);
      phase = null;
    };
    await capture(0, null, null);
    const create = new Map<string, number>();
    const record = new Map<string, number>();
    for (let i = 1; i <= CAPTURES; i += 1) await capture(i, create, record);
    const print = (name: string, counts: Map<string, number>): number => {
      const total = [...counts.values()].reduce((a, b) => a + b, 0) / CAPTURES;
      console.log(`\n${name}: ${total.toFixed(2)} statements per capture`);
      for (const [sql, n] of counts) console.log(`  ${(n / CAPTURES).toFixed(2)}  ${sql}`);
      return total;
    };
    console.log(`SQL statements per capture (${KIND}, ${CAPTURES} captures, no apps, cache off)`);
    const total = print('create (GET /screenshot/create)', create) + print('record (the result applied)', record);
    console.log(`\ntotal: ${total.toFixed(2)} statements per capture`);

    // The results of N captures arriving together: the recorder writes them with one statement.
    const ids: number[] = [];
    for (let i = 0; i < CAPTURES; i += 1) {
      const res = await fetch(`${api.url}/screenshot/create?url=${encodeURIComponent(`http://example.test/together-${i}`)}`, { headers: { 'X-API-KEY': acct.key } });
      const body = (await res.json()) as { data: { id: number }[] };
      ids.push((body.data[0] as { id: number }).id);
    }
    const together = new Map<string, number>();
    phase = together;
    const outcomes = await Promise.all(ids.map((id) => api.plane.recorder.apply(agentResult(id))));
    phase = null;
    if (outcomes.some((o) => o !== 'applied')) throw new Error(`results not applied: ${outcomes.join(', ')}`);
    print(`record, ${CAPTURES} results handed in together`, together);
  } finally {
    await api.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
