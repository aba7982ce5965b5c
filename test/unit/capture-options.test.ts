import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { z } from 'zod';
import { buildOpenApi } from '../../api/http/openapi-document.js';
import { Screenshot } from '../../api/screenshots/screenshot-shapes.js';
import { ROUTES } from '../../api/route-table.js';
import { normaliseRow, RECORD_COLUMNS, recordStorage, toDbValues } from '../../api/screenshots/screenshot-columns.js';
import type { CaptureSpec } from '../../core/capture-spec.js';
import type { FieldErrors } from '../../core/errors.js';
import { DEFAULT_PRICING } from '../../core/pricing.js';
import { CAPTURE_OPTIONS, CREATE_PARAMS } from '../../api/options/create-params.js';
import { buildCreateRequest } from '../../api/options/create-request.js';
import {
  optionColumns,
  optionRecordFields,
  optionRecordShape,
  optionsMarkdownTable,
  OPTIONS_TABLE_END,
  OPTIONS_TABLE_START,
  optionsCost,
  paramsOf,
  plainOptionValues,
  recordValuesOf,
  requestOptionsOf,
  storedOptionValues,
  withDefaults,
  type OptionTable,
} from '../../api/options/option-table.js';
import { bool, int } from '../../api/options/param-kinds.js';
import { collectParams } from '../../api/options/read-params.js';
import { toScreenshotRecord, type ScreenshotRow } from '../../api/screenshots/screenshot-record.js';
import { repoPath } from '../support/repo-path.js';
import { DEFAULT_CAPTURE_LIMITS } from '../../core/contracts/browser-driver.js';

const ctx = { pricing: DEFAULT_PRICING, cacheDefaultSeconds: 3600, maxCapturePixels: DEFAULT_CAPTURE_LIMITS.maxCapturePixels };

/**
 * A CaptureSpec field of a throwaway option. The option table names only fields CaptureSpec writes out
 * (core/capture-spec.ts, checked by tsc); these two exist in this test alone, so their names are cast.
 */
const throwawayField = (name: string): keyof CaptureSpec => name as keyof CaptureSpec;

/**
 * Two options nobody ships, to add to a copy of the table: one plain (a spec field as is, no column), one
 * with an alias, a price and a column (as if list filtered on it).
 */
const THROWAWAY: OptionTable = {
  ...CAPTURE_OPTIONS,
  block_fonts: { param: bool('do not load web fonts (throwaway option of this test)'), default: false, spec: throwawayField('blockFonts'), record: {} },
  font_budget: {
    param: { ...int(0, 50, 'web fonts loaded at most (throwaway)'), aliases: [{ name: 'fonts_max' }] },
    default: 10,
    spec: throwawayField('fontBudget'),
    cost: { pricing: 'extra_shot', when: 'per font', credits: (v: number, price: number) => v * price },
    record: { column: 'a throwaway filter' },
  },
};

describe('capture options are declared once (CAPTURE_OPTIONS, api/options/create-params.ts)', () => {
  describe('a throwaway option added to a copy of the table is seen everywhere', () => {
    it('in validation: its range and its alias are checked, with the 400 naming it', () => {
      const fields: FieldErrors = {};
      const p = collectParams(paramsOf(THROWAWAY), { url: ['a.test'], block_fonts: ['yes'], fonts_max: ['3'] }, fields, ['url']);
      expect(fields).to.deep.equal({});
      expect(p).to.include({ block_fonts: true, font_budget: 3 });
      const bad: FieldErrors = {};
      collectParams(paramsOf(THROWAWAY), { url: ['a.test'], block_fonts: ['maybe'], font_budget: ['51'] }, bad, ['url']);
      expect(Object.keys(bad).sort()).to.deep.equal(['block_fonts', 'font_budget']);
      expect(bad.font_budget?.[0]).to.include('0 to 50');
    });

    it("in CaptureSpec and the record's fields: the value given, else the default", () => {
      expect(plainOptionValues(THROWAWAY, { block_fonts: true }).spec).to.include({ blockFonts: true, fontBudget: 10, hideAds: false, browser: 'chrome' });
      const spec = { ...plainOptionValues(THROWAWAY, { font_budget: 0 }).spec, device: {}, geo: null, pdf: null, video: null, cookies: [], headers: [], scripts: [] } as never;
      expect(recordValuesOf(THROWAWAY, { font_budget: 0 }, spec)).to.include({ font_budget: 0, block_fonts: false });
    });

    it('in the record: shown under its name, from its column or, without one, from the stored CaptureSpec', () => {
      expect(optionColumns(THROWAWAY)).to.include('font_budget').and.not.include('block_fonts');
      const spec = { ...plainOptionValues(THROWAWAY, { block_fonts: true, font_budget: 7 }).spec, device: {}, geo: null, pdf: null, video: null, cookies: [], headers: [], scripts: [] };
      const shown = optionRecordFields(THROWAWAY, storedOptionValues(THROWAWAY, { font_budget: 7, capture_spec: spec }), 'record');
      expect(shown).to.include({ block_fonts: true, font_budget: 7 });
      // A record stored before the option existed shows its default.
      expect(storedOptionValues(THROWAWAY, { font_budget: 7, capture_spec: { ...spec, blockFonts: undefined } })).to.include({ block_fonts: false });
      // The spec says it, so it is not kept again beside the spec.
      expect(requestOptionsOf(THROWAWAY, { block_fonts: true, font_budget: 7 }, spec as never)).to.not.have.property('block_fonts');
    });

    it('in the record answer, through the stored row: no column, read back from the stored spec', () => {
      const storage = recordStorage(THROWAWAY);
      expect(storage.columns).to.include('font_budget').and.not.include('block_fonts');
      const [draft] = buildCreateRequest({ url: ['a.test'] }, ctx).drafts;
      if (!draft) throw new Error('no draft');
      const spec = { ...draft.spec, ...plainOptionValues(THROWAWAY, { block_fonts: true, font_budget: 4 }).spec };
      const fields = { ...draft.fields, ...recordValuesOf(THROWAWAY, { block_fonts: true, font_budget: 4 }, spec) };
      const stored = storage.toDbValues({ ...fields, id: 1, company_id: 1, status: 'processing', capture_spec: spec });
      expect(stored).to.not.have.property('block_fonts');
      expect(stored).to.include({ font_budget: 4 });
      expect(JSON.parse(String(stored.request_options))).to.deep.equal({});
      // The row as the database gives it back: jsonb parsed.
      const row = Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, ['capture_spec', 'request_options', 'tag', 'steps', 'trackers', 'warnings'].includes(k) ? JSON.parse(String(v)) : v]));
      const record = toScreenshotRecord({ ...storage.normaliseRow(row), created_at: new Date(0), finished_at: null }, 'record', THROWAWAY);
      expect(record).to.include({ block_fonts: true, font_budget: 4, hide_ads: false, screen_width: 1280 });
      expect(toScreenshotRecord({ ...storage.normaliseRow(row), created_at: new Date(0), finished_at: null }, 'record')).to.not.have.property('block_fonts');
    });

    it('in OpenAPI: a query parameter (and its alias) of create, and a property of the record it answers', () => {
      const create = ROUTES.find((r) => r.path === '/screenshot/create' && r.method === 'get');
      if (!create) throw new Error('no create route');
      const route = { ...create, query: paramsOf(THROWAWAY), response: { data: z.array(z.looseObject(optionRecordShape(THROWAWAY))), description: 'records' } };
      const doc = buildOpenApi([route], 'http://127.0.0.1:9') as {
        paths: Record<string, { get: { parameters: { name: string; schema: Record<string, unknown> }[]; responses: unknown } }>;
        components?: unknown;
      };
      const op = doc.paths['/screenshot/create']?.get;
      const params = op?.parameters ?? [];
      expect(params.find((x) => x.name === 'font_budget')?.schema).to.include({ type: 'integer', minimum: 0, maximum: 50 });
      expect(params.map((x) => x.name)).to.include.members(['block_fonts', 'fonts_max']);
      expect(JSON.stringify({ r: op?.responses, c: doc.components }))
        .to.include('"font_budget"')
        .and.include('"block_fonts"');
    });

    it("in the price: its part is added to the base price and the other options' parts", () => {
      const pricing = { ...DEFAULT_PRICING, extra_shot: 2 };
      const values = withDefaults(THROWAWAY, { font_budget: 3, pdf: true }) as Record<string, unknown>;
      expect(optionsCost(THROWAWAY, pricing, values)).to.equal(pricing.base + pricing.pdf + 3 * 2);
      expect(optionsCost(CAPTURE_OPTIONS, pricing, values)).to.equal(pricing.base + pricing.pdf);
    });

    it('in the docs table: a row with its type, range, default, alias, cost and spec field', () => {
      expect(optionsMarkdownTable(THROWAWAY)).to.include('| `font_budget` | integer 0 to 50 | `10` | `fonts_max` | `extra_shot` per font | `fontBudget` | web fonts loaded at most (throwaway) |');
    });
  });

  describe('the service uses the table', () => {
    it("create validates exactly the table's parameters", () => {
      expect(Object.keys(CREATE_PARAMS)).to.deep.equal(Object.keys(CAPTURE_OPTIONS));
    });

    it('every plain option lands in CaptureSpec and the record with its default when omitted, and as given otherwise', () => {
      const [omitted] = buildCreateRequest({ url: ['a.test'] }, ctx).drafts;
      for (const [name, o] of Object.entries(CAPTURE_OPTIONS as OptionTable)) {
        if (o.spec === undefined) continue;
        expect((omitted?.spec as unknown as Record<string, unknown>)[o.spec], name).to.equal(o.default);
        if (o.record) expect((omitted?.fields as unknown as Record<string, unknown>)[name], name).to.equal(o.default);
      }
      const [given] = buildCreateRequest({ url: ['a.test'], hide_ads: ['1'], shots: ['3'], wait_until: ['load'] }, ctx).drafts;
      expect(given?.spec).to.include({ hideAds: true, shots: 3, waitUntil: 'load' });
      expect(given?.fields).to.include({ hide_ads: true, shots: 3 });
    });

    it('only the options that list, search or a metric use keep a column; the record answer reads the others from the spec', () => {
      expect(optionColumns(CAPTURE_OPTIONS).sort()).to.deep.equal(['browser', 'country', 'tag', 'url', 'user_agent']);
      expect(RECORD_COLUMNS).to.include.members(['capture_spec', 'request_options']);
    });

    it('a record keeps beside its spec only what the spec cannot say', () => {
      const [d] = buildCreateRequest({ url: ['a.test'], pdf: ['1'], pdf_margin: ['5mm'], video_fps: ['30'], cache: ['60'], screen_width: ['640'], header: ['X-A: 1'] }, ctx).drafts;
      if (!d) throw new Error('no draft');
      // The PDF is on: its options are in the spec; the video is off, so its fps is not; cache is never in the spec.
      expect(requestOptionsOf(CAPTURE_OPTIONS, d.fields as unknown as Record<string, unknown>, d.spec)).to.deep.equal({ pdf_margin: '5mm', video_fps: 30, cache: 60 });
    });

    it('the record answer, its columns and the Screenshot response shape show every option the table shows', () => {
      const shown = Object.entries(CAPTURE_OPTIONS as OptionTable)
        .filter(([, o]) => o.record && o.record.shown !== false)
        .map(([n]) => n);
      expect(RECORD_COLUMNS).to.include.members(optionColumns(CAPTURE_OPTIONS));
      expect(Object.keys(Screenshot.shape)).to.include.members(shown);
      const [d] = buildCreateRequest({ url: ['a.test'], pdf: ['1'], pdf_margin: ['5mm'] }, ctx).drafts;
      const row = { ...d?.fields, id: 1, status: 'processing', final_url: '', final_urls: [], response_code: null, apps: [], created_at: new Date(0), finished_at: null } as unknown as ScreenshotRow;
      // What a record stores and reads back gives the same answer as the draft's fields.
      const stored = toDbValues({ ...row, capture_spec: d?.spec });
      const readBack = normaliseRow(
        Object.fromEntries(
          Object.entries(stored).map(([k, v]) => [k, ['capture_spec', 'request_options', 'tag', 'steps', 'trackers', 'warnings', 'final_urls'].includes(k) ? JSON.parse(String(v)) : v]),
        ),
      );
      expect(toScreenshotRecord({ ...readBack, apps: [] }, 'create')).to.deep.equal(toScreenshotRecord(row, 'create'));
      const record = toScreenshotRecord(row, 'record');
      expect(record).to.include.all.keys(shown);
      expect(record).to.not.have.any.keys('script_inline', 'wait_until', 'apps_option');
      expect(record.pdf_margin_top).to.equal('5mm');
      expect(toScreenshotRecord(row, 'create').pdf_margin_top).to.equal(19);
      expect(Screenshot.safeParse(record).success, JSON.stringify(Screenshot.safeParse(record).error?.issues)).to.equal(true);
    });
  });

  describe('the docs table of options (docs/api-clients.md)', () => {
    it('is exactly the table generated from the option table', () => {
      const doc = readFileSync(repoPath('docs/api-clients.md'), 'utf8');
      const start = doc.indexOf(OPTIONS_TABLE_START);
      const end = doc.indexOf(OPTIONS_TABLE_END);
      expect(start, "the table's start marker").to.be.greaterThan(-1);
      expect(doc.slice(start, end + OPTIONS_TABLE_END.length), 'regenerate it with `node dist/bin/shotfarm.js options`').to.equal(optionsMarkdownTable(CAPTURE_OPTIONS));
    });
  });
});
