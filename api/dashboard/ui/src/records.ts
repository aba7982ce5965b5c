// The API's records as the dashboard reads them: the types of the features' response shapes, the zod shapes
// openapi.json is built from (screenshot-api-v1.md is the law for them). Imported as types only: nothing of the
// API is bundled, and the dashboard cannot drift from what the API answers.
import type { z } from 'zod';
import type { Batch as BatchShape, BatchInfo } from '../../../batches/batch-shapes.js';
import type { Crawl as CrawlShape } from '../../../crawls/crawl-shapes.js';
import type { Monitor as MonitorShape, MonitorRun as MonitorRunShape } from '../../../monitors/monitor-shapes.js';
import type { Screenshot as ScreenshotShape, ScreenshotInfo } from '../../../screenshots/screenshot-shapes.js';

/** A screenshot record; `has_html`, `has_pdf` and `has_video` come with GET /screenshot/info only. */
export type Screenshot = z.infer<typeof ScreenshotShape> & Partial<Pick<z.infer<typeof ScreenshotInfo>, 'has_html' | 'has_pdf' | 'has_video'>>;

/** A batch; its name, screenshots and attempts come with GET /batch/info (and the name with create and retry). */
export type Batch = z.infer<typeof BatchShape> & Partial<Pick<z.infer<typeof BatchInfo>, 'name' | 'screenshots' | 'attempts'>>;

/** A crawl; its screenshots come with GET /crawl/info. */
export type Crawl = z.infer<typeof CrawlShape> & { screenshots?: Screenshot[] };

export type Monitor = z.infer<typeof MonitorShape>;
export type MonitorRun = z.infer<typeof MonitorRunShape>;
