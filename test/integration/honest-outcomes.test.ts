import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { localGridOptions } from '../../grid/selenium/local-grid-options.js';
import { SeleniumGrid } from '../../grid/selenium/selenium-grid.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { EXPIRED_ON, OTHER_HOST, UnreachableSite } from '../support/unreachable-site.js';

/**
 * Issue 17, item 2: when there is no page, the record says so plainly and charges nothing. One case per
 * cause × browser × way of running, from one table. Every message a user can get for an unreachable or
 * blocked page is listed in docs/api-clients.md with the case here that produces it.
 */

/** An allowlisted loopback address other than the test sites' 127.0.0.1, so the guard lets it through. */
const SITE_ADDRESS = '127.0.0.2';
/** A name that resolves nowhere (RFC 6761 reserves .invalid), by the system resolver and the browsers'. */
const MISSING_HOST = 'no-such-host.invalid';

type Expected = { status: 'error'; cause: string; error: (site: UnreachableSite, url: string) => string } | { status: 'finished'; responseCode: number };
interface Case {
  name: string;
  url: (site: UnreachableSite) => string;
  query?: string;
  expect: Expected;
  /** only through the egress guard (a setup without it allows private targets) */
  guardOnly?: boolean;
  /** its outcome is max_wait passing: it runs with the setup's short max_wait, every other case with CEILING_MAX_WAIT */
  waitsOut?: true;
}

/**
 * max_wait of every case but the one that waits it out, seconds: a ceiling none of them comes near once its
 * browser is up (each ends within a second or two), high because max_wait counts from the browser context's
 * or grid session's start, which the four setups side by side stretch to 20–40 s on a loaded two-core machine
 * (measured at load 25): a slow start must not turn a refused connection or a 404 page into a timeout.
 */
const CEILING_MAX_WAIT = 90;

const hostPort = (url: string): string => new URL(url).host;

const CASES: Case[] = [
  { name: 'no such host', url: () => `http://${MISSING_HOST}/page`, expect: { status: 'error', cause: 'dns', error: () => `Could not resolve host ${MISSING_HOST}.` } },
  { name: 'connection refused (https)', url: (s) => s.refused, expect: { status: 'error', cause: 'refused', error: (_, u) => `${hostPort(u)} refused the connection.` } },
  { name: 'connection reset', url: (s) => s.resets, expect: { status: 'error', cause: 'reset', error: (_, u) => `${hostPort(u)} reset the connection.` } },
  { name: 'no answer within max_wait', url: (s) => s.silent, waitsOut: true, expect: { status: 'error', cause: 'timeout', error: (_, u) => `${hostPort(u)} did not answer in time.` } },
  {
    name: 'expired certificate, strict_ssl',
    url: (s) => s.tls.expired,
    query: '&strict_ssl=1',
    expect: { status: 'error', cause: 'tls_expired', error: (_, u) => `The TLS certificate of ${hostPort(u)} expired on ${EXPIRED_ON}.` },
  },
  {
    name: 'self-signed certificate, strict_ssl',
    url: (s) => s.tls.self_signed,
    query: '&strict_ssl=1',
    expect: { status: 'error', cause: 'tls_self_signed', error: (_, u) => `The TLS certificate of ${hostPort(u)} is self-signed (strict_ssl is on).` },
  },
  {
    name: 'certificate for another host, strict_ssl',
    url: (s) => s.tls.wrong_host,
    query: '&strict_ssl=1',
    expect: { status: 'error', cause: 'tls_wrong_host', error: (s, u) => `The TLS certificate of ${hostPort(u)} is for ${OTHER_HOST}, not for ${s.address}.` },
  },
  { name: 'expired certificate without strict_ssl: the page is captured', url: (s) => s.tls.expired, expect: { status: 'finished', responseCode: 200 } },
  {
    name: 'a private address',
    url: () => 'http://127.0.0.1:8099/page',
    guardOnly: true,
    expect: {
      status: 'error',
      cause: 'blocked',
      error: () => 'Blocked: 127.0.0.1 resolves to 127.0.0.1, a loopback address; captures of private networks are disabled (SHOTFARM_ALLOW_PRIVATE_TARGETS)',
    },
  },
  { name: 'a real 404 page', url: (s) => `${s.pages}/status/404`, expect: { status: 'finished', responseCode: 404 } },
  { name: 'a real 500 page', url: (s) => `${s.pages}/status/500`, expect: { status: 'finished', responseCode: 500 } },
];

interface Setup {
  name: string;
  browsers: string[];
  guarded: boolean;
  /** max_wait of the case that waits it out (`waitsOut`), seconds: short, to keep the silent host's case quick */
  maxWait: number;
  start(): Promise<TestApi>;
}

const GUARD = { SHOTFARM_ALLOW_PRIVATE_TARGETS: 'false', SHOTFARM_PRIVATE_TARGET_ALLOWLIST: `${SITE_ADDRESS}/32` };

const SETUPS: Setup[] = [
  {
    name: 'embedded (PGlite, in-process queue), playwright, through the egress guard',
    browsers: ['chrome', 'firefox', 'brave'],
    guarded: true,
    maxWait: 10,
    start: () => startTestApi('pglite', { ...GUARD, SHOTFARM_AGENT_BROWSERS: 'chrome,firefox,brave' }, { agent: true }),
  },
  {
    name: 'distributed (Postgres, NATS JetStream), playwright, through the egress guard',
    browsers: ['chrome'],
    guarded: true,
    maxWait: 10,
    start: () =>
      startTestApi(
        'postgres',
        {
          ...GUARD,
          SHOTFARM_AGENT_BROWSERS: 'chrome',
          NATS_URL: 'nats://127.0.0.1:4222',
          SHOTFARM_NATS_PREFIX: `sfoutcome_${randomBytes(4).toString('hex')}`,
        },
        { agent: true },
      ),
  },
  {
    // A grid on this machine: each grid session's browser goes through a guard port of its own (node-agent/create-agent.ts).
    name: 'selenium grid (chromedriver) on this machine, through the egress guard',
    browsers: ['chrome'],
    guarded: true,
    maxWait: 20,
    start: () => onSharedGrid(GUARD),
  },
  {
    // A grid elsewhere cannot reach the guard, so private targets must be allowed: the browser itself says why.
    name: 'selenium grid (chromedriver), without the guard',
    browsers: ['chrome'],
    guarded: false,
    maxWait: 20,
    start: () => onSharedGrid({}),
  },
];

/**
 * The Selenium Grid on this machine both grid setups share (the egress guard is the agent's, not the grid's:
 * each session's browser is told its proxy, or none), with a session for each slot of their two agents. One
 * JVM rather than two: its start is CPU work the other setups' captures would wait behind. Stopped after them.
 */
let sharedGrid: Promise<SeleniumGrid> | null = null;

/** An embedded API whose agent drives the shared Selenium Grid (started by the first setup that asks). */
async function onSharedGrid(env: Record<string, string>): Promise<TestApi> {
  sharedGrid ??= SeleniumGrid.start(localGridOptions({ maxSessions: 4 }));
  const grid = await sharedGrid;
  return startTestApi('pglite', { ...env, SHOTFARM_DRIVER: 'selenium', SELENIUM_GRID_URL: grid.url, SHOTFARM_AGENT_BROWSERS: 'chrome' }, { agent: true });
}

interface Row {
  id: number;
  status: string;
  cost: number;
  error: string;
  error_cause: string | null;
  response_code: number | null;
}

/** A setup that was started and asked for every capture: its API, its account and the records asked for. */
interface Asked {
  api: TestApi;
  account: TestAccount;
  /** `${case} × ${browser}` → the record's id and the URL asked for */
  asked: Map<string, { id: number; url: string }>;
}

/** A setup that ran its captures: each capture's record as the API answers it. */
interface Ran extends Asked {
  /** `${case} × ${browser}` → the record as the API answers it, and the URL asked for */
  records: Map<string, { row: Row; url: string }>;
}

const casesOf = (setup: Setup): Case[] => CASES.filter((c) => setup.guarded || !c.guardOnly);

/** Starts a setup and asks every capture of it at once (the farm runs them side by side). A setup that fails is stopped. */
async function startAndAsk(setup: Setup, site: UnreachableSite): Promise<Asked> {
  const api = await setup.start();
  try {
    const account = await api.account(1000);
    const asked = new Map<string, { id: number; url: string }>();
    for (const browser of setup.browsers) {
      for (const c of casesOf(setup)) {
        const url = c.url(site);
        const maxWait = c.waitsOut ? setup.maxWait : CEILING_MAX_WAIT;
        const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(url)}&browser=${browser}&max_wait=${maxWait}&cache=0${c.query ?? ''}`, { key: account.key });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        asked.set(`${c.name} × ${browser}`, { id: Number(res.body.data[0].id), url });
      }
    }
    return { api, account, asked };
  } catch (error) {
    await api.stop();
    throw error;
  }
}

/** Waits until each record asked for has left `processing`. A setup that fails is stopped. */
async function collect(setup: Asked): Promise<Ran> {
  const { api, account, asked } = setup;
  try {
    const records = new Map<string, { row: Row; url: string }>();
    // Within the hooks' 600 s: the queue of 33 captures on an agent's two slots, on a loaded machine.
    const deadline = Date.now() + 480_000;
    for (const [key, { id, url }] of asked) {
      for (;;) {
        const res = await call(api.url, `/screenshot/info?id=${id}&wait=60`, { key: account.key });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const row = res.body.data as Row;
        if (row.status !== 'processing' || Date.now() > deadline) {
          records.set(key, { row, url });
          break;
        }
      }
    }
    return { ...setup, records };
  } catch (error) {
    await api.stop();
    throw error;
  }
}

describe('honest outcomes when there is no page (issue 17)', function () {
  this.timeout(600_000);
  let site: UnreachableSite;
  /**
   * Every setup's run. A run's captures mostly wait (on the silent host's max_wait, a grid session's start,
   * the queue of an agent's two slots), so the runs go side by side: each setup starts and asks for its
   * captures once the previous one has (its captures then run while the next setup starts). The starts go
   * one at a time: they are CPU work (browser launches, the grid's JVM, migrations) that side by side only
   * slowed each other past their own time limits (a Firefox launch's 30 s, a NATS request's) on a loaded
   * machine. A setup's describe awaits its own run, so a setup that fails fails its own cases only.
   */
  const runs = new Map<Setup, Promise<Ran>>();
  before(async () => {
    site = await UnreachableSite.start(SITE_ADDRESS);
    let previousAsked: Promise<unknown> = Promise.resolve();
    for (const setup of SETUPS) {
      const asked = previousAsked.then(() => startAndAsk(setup, site));
      previousAsked = asked.catch(() => undefined);
      const run = asked.then(collect);
      // Awaited in the setup's describe; this only keeps a failure from being an unhandled rejection meanwhile.
      run.catch(() => undefined);
      runs.set(setup, run);
    }
  });
  after(async () => {
    for (const run of runs.values()) {
      const ran = await run.catch(() => null);
      await ran?.api.stop();
    }
    await (await sharedGrid?.catch(() => null))?.stop();
    await site?.close();
  });

  for (const setup of SETUPS) {
    describe(setup.name, function () {
      let ran: Ran;
      before(async function () {
        ran = await runs.get(setup)!;
      });

      for (const browser of setup.browsers) {
        for (const c of casesOf(setup)) {
          it(`${c.name} × ${browser}`, async () => {
            const { api, account } = ran;
            const got = ran.records.get(`${c.name} × ${browser}`);
            expect(got).to.not.equal(undefined);
            const { row, url } = got!;
            const e = c.expect;
            if (e.status === 'error') {
              expect({ status: row.status, error: row.error, error_cause: row.error_cause }, JSON.stringify(row)).to.deep.equal({ status: 'error', error: e.error(site, url), error_cause: e.cause });
              expect(row.cost, 'no page costs nothing').to.equal(0);
              // No page of the guard's own (a 502 with its text) was taken for the site's answer.
              expect(row.response_code).to.equal(null);
              const debits = await api.database.db('credit_ledger').where({ screenshot_id: row.id });
              expect(debits, 'no ledger row').to.deep.equal([]);
              const image = await call(api.url, `/screenshot/thumbnail?id=${row.id}`, { key: account.key });
              expect(image.status, 'no image is kept').to.equal(404);
            } else {
              expect({ status: row.status, response_code: row.response_code }, JSON.stringify(row)).to.deep.equal({ status: 'finished', response_code: e.responseCode });
              expect(row).to.not.have.property('error_cause');
              expect(row.cost).to.be.greaterThan(0);
            }
          });
        }
      }
    });
  }
});
