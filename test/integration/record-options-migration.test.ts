import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { toDbValues } from '../../api/screenshots/screenshot-columns.js';
import { ScreenshotStore } from '../../api/screenshots/screenshot-store.js';
import { migrateDownTo, migrateLatest, migrateUpTo } from '../../api/db/migrate.js';
import { DEFAULT_PRICING } from '../../core/pricing.js';
import { buildCreateRequest } from '../../api/options/create-request.js';
import { parseQuery } from '../../api/options/query-input.js';
import { toScreenshotRecord } from '../../api/screenshots/screenshot-record.js';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../support/databases.js';
import { repoPath } from '../support/repo-path.js';
import { DEFAULT_CAPTURE_LIMITS } from '../../core/contracts/browser-driver.js';

/**
 * Records written while every option had its column (schema 009), with the answers they gave then:
 * taken with the code of that schema from the queries below plus one record whose stored spec predates
 * some fields (hideAds, dark, waitUntil, device.touch) and whose capture wrote a User-Agent (a copy
 * of the fourth). Migration
 * 011 moves the options out of their columns; every answer must stay the same to the byte.
 */
const FIXTURE = JSON.parse(readFileSync(repoPath('test/fixtures/record-answers-009.json'), 'utf8')) as {
  rows: Record<string, unknown>[];
  answers: { record: Record<string, unknown>; create: Record<string, unknown> }[];
};

/** The create queries the first five fixture records came from (the second gives two records: de and fr). */
const QUERIES = [
  'url=https%3A%2F%2Fexample.com%2F',
  'url=https%3A%2F%2Fexample.org%2Fa&pdf_format=letter&pdf_margin=10mm&pdf_margin_top=1in&video_fps=30&video_format=webm&geo_enable=false&geo_latitude=10.5&geo_longitude=-20.25&country=de&country=fr',
  [
    'url=https%3A%2F%2Fexample.net%2Fb%3Fx%3D1&pdf=true&pdf_margin=5mm&pdf_margin_left=2cm&pdf_landscape=true&pdf_background=true&pdf_one_page=true',
    'video=true&video_format=gif&video_speed=0.3&video_scale=0.5&video_quality=30&video_duration=4&video_colors=64&cookie=a%3D1%3B%20%20b%3D2%20',
    'header=X-A%3A%201&header=%7B%22X-B%22%3A%22two%22%2C%22X-C%22%3A%22%20spaced%20%22%7D&referer=https%3A%2F%2Fref.example%2F&post_data=k%3Dv%26x%3Dy',
    'script=https%3A%2F%2Fs.example%2F1.js&script=https%3A%2F%2Fs.example%2F2.js&script_inline=document.title%3D1&target=%23main&tag=a%2Cb',
    'device_landscape=true&device_mobile=true&device_touch=true&device_scale=2&screen_width=500&screen_height=900&country=fr&language=de-DE&timezone=Asia%2FTokyo',
    'user_agent=UA%20test&cache=3600&priority=5&shots=3&shot_interval=2&size=page&max_height=5000&max_wait=30&hide_ads=true&hide_popups=true&dark=true',
    'strict_ssl=true&html=true&browser=firefox&delay=3&wait_until=load&steps=%5B%7B%22command%22%3A%22click%22%2C%22selector%22%3A%22%23a%22%7D%5D',
    'trackers=%5B%7B%22id%22%3A%22t%22%2C%22selector%22%3A%22h1%22%7D%5D&bogus=1',
  ].join('&'),
  'url=https%3A%2F%2Fexample.com%2Fd&device_name=iphone-13-pro-max-landscape&geo_latitude=48.8&geo_longitude=2.35&cache=true&full_page=true&pdf_margin_bottom=12&lang=en-GB&tz=Europe%2FLondon',
];

/** The columns 011 drops, as the fixture rows hold them (their values must come back on down()). */
const DROPPED_SAMPLE = ['language', 'geo_latitude', 'cache', 'priority', 'cookie', 'header', 'pdf_format', 'pdf_margin_top', 'video_fps', 'video_speed', 'device_touch', 'hide_ads', 'screen_width'];

const JSON_COLUMNS = new Set(['final_urls', 'tag', 'steps', 'trackers', 'links', 'warnings', 'timings', 'capture_spec']);

async function insertSchema009Rows(t: TestDatabase, companyId: number): Promise<void> {
  for (const row of FIXTURE.rows) {
    await t.db('screenshots').insert(Object.fromEntries(Object.entries({ ...row, company_id: companyId }).map(([k, v]) => [k, JSON_COLUMNS.has(k) ? JSON.stringify(v) : v])));
  }
}

async function answers(t: TestDatabase, companyId: number): Promise<{ record: Record<string, unknown>; create: Record<string, unknown> }[]> {
  const rows = await new ScreenshotStore(t.db).list(companyId, { limit: 100, offset: 0 });
  return rows.reverse().map((r) => ({ record: toScreenshotRecord(r), create: toScreenshotRecord(r, 'create') }));
}

for (const kind of DATABASE_KINDS)
  describe(`migration 011: a record's options are read from its stored spec, and it answers as before (${kind})`, function () {
    this.timeout(120_000);
    let t: TestDatabase;
    let companyId: number;

    before(async () => {
      t = await openTestDatabase(kind);
      await migrateUpTo(t.db, '009-monitors');
      const [c] = await t.db('companies').insert({ name: 'records of schema 009' }).returning('id');
      companyId = Number(c.id);
      await insertSchema009Rows(t, companyId);
      await migrateLatest(t.db);
    });
    after(async () => t?.drop());

    it('every record written with a column per option answers info and list to the byte as it did', async () => {
      const now = await answers(t, companyId);
      expect(now.length).to.equal(FIXTURE.answers.length);
      now.forEach((a, i) => {
        expect(JSON.stringify(a.record), `record answer of ${i + 1}`).to.equal(JSON.stringify(FIXTURE.answers[i]?.record));
        expect(JSON.stringify(a.create), `create answer of ${i + 1}`).to.equal(JSON.stringify(FIXTURE.answers[i]?.create));
      });
      const info = await new ScreenshotStore(t.db).get(companyId, 4);
      expect(JSON.stringify(info && toScreenshotRecord(info))).to.equal(JSON.stringify(FIXTURE.answers[3]?.record));
    });

    it('the option columns are gone but those list, search and the metrics use; request_options holds only what the spec cannot say', async () => {
      const columns = Object.keys(await t.db('screenshots').columnInfo());
      expect(columns).to.include.members(['url', 'country', 'tag', 'browser', 'user_agent', 'capture_spec', 'request_options']);
      expect(columns).to.not.include.members(['hide_ads']);
      expect(columns.filter((c) => DROPPED_SAMPLE.includes(c))).to.deep.equal([]);
      const kept = (await t.db('screenshots').orderBy('id').pluck('request_options')) as Record<string, unknown>[];
      expect(kept[0]).to.deep.equal({});
      // de: the PDF and video are off, so their options and the disabled geo point are not in the spec.
      expect(kept[1]).to.deep.equal({ geo_latitude: 10.5, geo_longitude: -20.25, pdf_format: 'letter', pdf_margin: '10mm', pdf_margin_top: '1in', video_format: 'webm', video_fps: 30 });
      // The cookie as given (two spaces) is not the parsed cookies' text; cache and priority are never in the spec.
      expect(kept[3]).to.deep.equal({ cookie: 'a=1;  b=2', pdf_margin: '5mm', cache: 3600, priority: 5 });
    });

    it("an older record's spec gets the plain fields it lacked from the columns, before they go", async () => {
      const spec = (await t.db('screenshots').where({ id: 6 }).first('capture_spec')).capture_spec as Record<string, unknown>;
      expect(spec).to.include({ hideAds: true, dark: true });
      // wait_until never had a column: there is nothing to take it from (the record does not show it).
      expect(spec).to.not.have.property('waitUntil');
      // device.touch is inside a group: the record keeps it beside the spec instead.
      expect((await t.db('screenshots').where({ id: 6 }).first('request_options')).request_options).to.include({ device_touch: true });
    });

    it('the same requests stored now give the same answers (ids and times aside) and the same cache keys', async () => {
      const ctx = { pricing: DEFAULT_PRICING, cacheDefaultSeconds: 3600, maxCapturePixels: DEFAULT_CAPTURE_LIMITS.maxCapturePixels };
      const drafts = QUERIES.flatMap((q) => buildCreateRequest(parseQuery(q), ctx).drafts);
      expect(drafts.length).to.equal(5);
      const ids: number[] = [];
      for (const [i, d] of drafts.entries()) {
        const values = { ...d.fields, company_id: companyId, status: 'processing', capture_spec: d.spec, spec_hash: d.specHash, created_at: FIXTURE.rows[i]?.created_at };
        const [row] = await t.db('screenshots').insert(toDbValues(values)).returning('id');
        ids.push(Number(row.id));
      }
      const rows = await new ScreenshotStore(t.db).byIds(companyId, ids);
      for (const [i, id] of ids.entries()) {
        const row = rows.find((r) => r.id === id);
        if (!row) throw new Error(`record ${id} not read`);
        expect({ ...toScreenshotRecord(row), id: 0 }, `record ${i + 1}`).to.deep.equal({ ...FIXTURE.answers[i]?.record, id: 0 });
        // The cache key too: a request made now finds the captures made before.
        expect(drafts[i]?.specHash, `spec hash of ${i + 1}`).to.equal(FIXTURE.rows[i]?.spec_hash);
      }
    });

    it('down() puts every column back with the value the record had', async () => {
      // 011's down(), and before it those of the migrations after it
      await migrateDownTo(t.db, '010-held-credits');
      const rows = (await t
        .db('screenshots')
        .whereBetween('id', [1, 6])
        .orderBy('id')
        .select(['id', ...DROPPED_SAMPLE])) as Record<string, unknown>[];
      rows.forEach((row, i) => {
        for (const c of DROPPED_SAMPLE) expect(row[c], `${c} of ${i + 1}`).to.deep.equal(FIXTURE.rows[i]?.[c]);
      });
      const info = await t.db('screenshots').columnInfo();
      expect(info).to.not.have.property('request_options');
      expect(info.hide_ads?.nullable).to.equal(false);
      await migrateLatest(t.db);
      expect(JSON.stringify((await answers(t, companyId)).slice(0, 6))).to.equal(JSON.stringify(FIXTURE.answers));
    });
  });
