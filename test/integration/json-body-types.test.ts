import { expect } from 'chai';
import fc from 'fast-check';
import { ROUTES } from '../../api/route-table.js';
import type { ApiRoute } from '../../api/http/route.js';
import { bearer, signupAdmin } from '../support/auth-helpers.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

/**
 * Every field of every JSON body the API reads holds the JSON type its route documents (issue 25: `{"url": 1.5}`
 * became the URL https://1.0.0.5/ and was captured; `{"ignore": true}` became the selector `true`).
 * Property-based, over the route table and the bodies openapi.json documents: a field sent with a value of
 * another JSON type (a number for text, text that is no number for a number, an object, a list, a boolean,
 * null) is a 400 in the spec's envelope naming that field, and nothing in the database changed.
 *
 * No agent runs here: a value that got through would be a record left `processing`, never a capture, so no
 * generated value can reach a DNS resolver (and no generated text is a host name: lists hold `a b`).
 */
const FUZZ_SEED = process.env.SHOTFARM_FUZZ_SEED === 'random' ? Date.now() : Number(process.env.SHOTFARM_FUZZ_SEED ?? 20261125);
/** Runs per field of a route (each field also gets null once, as an explicit example). */
const RUNS_PER_FIELD = 3;

type Schema = Record<string, any>;
const ALL_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array'];

/** The JSON types a documented schema takes (anyOf: any option's; enum: its values'; no type: any but null). */
function typesOf(schema: Schema): Set<string> {
  for (const key of ['anyOf', 'oneOf']) if (Array.isArray(schema[key])) return new Set((schema[key] as Schema[]).flatMap((s) => [...typesOf(s)]));
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map((v: unknown) => (typeof v === 'number' ? 'number' : typeof v)));
  return new Set(ALL_TYPES);
}

/** Item schema of a documented list, if the field is one. */
const itemsOf = (schema: Schema): Schema | null =>
  typesOf(schema).has('array') ? ((schema.items as Schema | undefined) ?? (schema.anyOf as Schema[] | undefined)?.find((s) => s.type === 'array')?.items ?? {}) : null;

const notAHost = fc.constantFrom('a b', 'no such thing', '#a b');
const numbersOtherThan01 = fc.oneof(fc.integer({ min: 2, max: 1_000_000 }), fc.integer({ min: -1_000_000, max: -1 }), fc.constantFrom(0.5, 1.5, -2.25));
const anyNumber = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(1.5, -0.25, 1e9));

/**
 * Values of a JSON type the schema does not take. A list field also takes one of its items (as the query
 * encoding does: `tag=a` is the list [a]), so the wrong values of a list are those its items do not take
 * either, and lists holding such an item.
 */
function wrongFor(schema: Schema): fc.Arbitrary<unknown> {
  const items = itemsOf(schema);
  const takes = new Set([...typesOf(schema), ...(items ? typesOf(items) : [])]);
  const numeric = takes.has('integer') || takes.has('number');
  const options: fc.Arbitrary<unknown>[] = [fc.constant(null)];
  if (!takes.has('string')) {
    if (numeric) options.push(fc.constantFrom('abc', 'ten', '1.2.3', 'x1'));
    else if (takes.has('boolean')) options.push(fc.constantFrom('maybe', 'sure', 'ja'));
    else options.push(notAHost);
  }
  if (!numeric) options.push(takes.has('boolean') ? numbersOtherThan01 : anyNumber);
  if (!takes.has('boolean')) options.push(fc.boolean());
  if (!takes.has('object')) options.push(fc.dictionary(fc.constantFrom('a', 'x', 'url'), fc.oneof(fc.integer(), notAHost), { maxKeys: 2 }));
  if (!takes.has('array')) options.push(fc.array(fc.oneof(notAHost, fc.integer(), fc.constant(null), fc.constant({})), { maxLength: 3 }));
  else if (items) options.push(wrongFor(items).map((item) => [item]));
  return fc.oneof(...options);
}

describe('JSON body fields hold their documented types, on every route (property-based)', function () {
  this.timeout(900_000);
  let api: TestApi;
  let account: TestAccount;
  let adminToken: string;
  let document: any;
  /** every table of the schema, so that any change a refused request made shows */
  let tables: string[];

  async function state(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const table of tables) {
      // Authentication stamps a key's last use on any request, refused or not: that is not the request's doing.
      const { rows } = await api.database.db.raw(`select count(*)::int as n, md5(coalesce(string_agg((to_jsonb(t) - 'last_used_at')::text, '|' order by t::text), '')) as h from ?? t`, [table]);
      out[table] = `${rows[0].n}:${rows[0].h}`;
    }
    return out;
  }

  const credentialOf = (route: ApiRoute): RequestInit & { key?: string } => {
    if (route.credentials === 'admin') return { headers: bearer(adminToken) };
    if (route.credentials === 'account') return { key: account.key };
    return {};
  };

  before(async () => {
    api = await startTestApi('postgres');
    account = await api.account(1_000_000);
    adminToken = (await signupAdmin(api)).token;
    document = (await call(api.url, '/openapi.json')).body;
    const { rows } = await api.database.db.raw(`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`);
    tables = rows.map((r: { table_name: string }) => r.table_name);
  });
  after(async () => api?.stop());

  it("the issue's cases: a monitor's url given as a number, boolean or object, and ignore as a scalar, are 400s creating nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      // Before: the text `1.5` became the URL https://1.0.0.5/, and was captured on schedule.
      [{ url: 1.5, interval: 300 }, 'url'],
      [{ url: true, interval: 300 }, 'url'],
      [{ url: {}, interval: 300 }, 'url'],
      [{ url: ['https://example.test/'], interval: 300 }, 'url'],
      // Before: the selectors `true` and `5` were hidden in every run.
      [{ url: 'https://example.test/', interval: 300, ignore: true }, 'ignore'],
      [{ url: 'https://example.test/', interval: 300, ignore: 5 }, 'ignore'],
      [{ url: 'https://example.test/', interval: 300, ignore: [null] }, 'ignore'],
      [{ url: 'https://example.test/', interval: '300s' }, 'interval'],
    ];
    for (const [body, field] of cases) {
      const res = await call(api.url, '/monitor/create', { method: 'POST', key: account.key, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(Object.keys(res.body.fields), JSON.stringify(res.body)).to.deep.equal([field]);
    }
    expect(await api.database.db('monitors').where({ company_id: account.companyId })).to.have.length(0);
  });

  const routes = ROUTES.filter((r) => r.method === 'post');
  it('covers every POST route of the route table that takes body fields', () => {
    const documented = routes.filter((r) => Object.keys(document.paths[r.path].post.requestBody.content['application/json']?.schema.properties ?? {}).length > 0);
    // The tables are read from openapi.json: a route missing from it would be left out silently.
    expect(documented.map((r) => r.path)).to.include.members([
      '/monitor/create',
      '/monitor/update',
      '/crawl/create',
      '/batch/create',
      '/app/create',
      '/auth/signup',
      '/key/create',
      '/billing/payment-methods',
      '/admin/credits',
    ]);
  });

  for (const route of routes) {
    it(`POST ${route.path}: a field of another JSON type is a 400 naming it, and changes nothing`, async function () {
      const properties: Record<string, Schema> = document.paths[route.path].post.requestBody.content['application/json']?.schema.properties ?? {};
      const names = Object.keys(properties);
      if (names.length === 0) this.skip();
      const wrong = fc.constantFrom(...names).chain((name) => wrongFor(properties[name] as Schema).map((value) => [name, value] as const));
      await fc.assert(
        fc.asyncProperty(wrong, async ([name, value]) => {
          const before = await state();
          const body = JSON.stringify({ [name]: value });
          const init = credentialOf(route);
          const res = await call(api.url, route.path, { ...init, method: 'POST', headers: { ...(init.headers as Record<string, string>), 'Content-Type': 'application/json' }, body });
          const show = `${route.path} ${body.slice(0, 200)} → ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`;
          expect(res.status, show).to.equal(400);
          expect(res.body, show).to.include({ success: false, code: 'VALIDATION_ERROR' });
          expect(res.body.error, show).to.be.a('string').and.not.equal('');
          expect(res.body.details?.request_id, show).to.be.a('string').and.not.equal('');
          expect(res.body.fields?.[name], show).to.be.an('array').that.is.not.empty;
          const after = await state();
          expect(
            tables.filter((t) => after[t] !== before[t]),
            `${show}: tables changed`,
          ).to.deep.equal([]);
        }),
        { seed: FUZZ_SEED, numRuns: names.length * RUNS_PER_FIELD, examples: names.map((name): [readonly [string, unknown]] => [[name, null]]) },
      );
    });
  }
});
