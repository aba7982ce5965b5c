import type { WebDriver } from 'selenium-webdriver';
import type { PdfSpec } from '../../core/capture-spec.js';
import { documentSize } from '../page-scripts/document-size.js';
import { OUTPUT_TIMEOUT_MS } from '../shared/output-timeout.js';
import { marginsPx, onePageSheetHeight, onePageSheetWidth, PAPER_PX } from '../shared/paper.js';
import { withTimeout } from '../shared/with-timeout.js';
import type { CdpSession } from './cdp-session.js';
import { inPage } from './in-page.js';

/** CDP's paper sizes and margins are in inches; CSS has 96 px per inch. */
const PX_PER_INCH = 96;

interface DeviceMetrics {
  width: number;
  height: number;
  deviceScaleFactor: number;
  mobile: boolean;
}

/**
 * The document height when laid out at `width` CSS pixels: the width the printed content gets. The
 * viewport is set to that width to measure and set back to the capture's metrics afterwards (setting
 * them again restores them: the latest device metrics override is the one in force).
 */
async function heightAtWidth(driver: WebDriver, cdp: CdpSession, width: number, metrics: DeviceMetrics): Promise<number> {
  await cdp.send('Emulation.setDeviceMetricsOverride', { ...metrics, width: Math.max(1, Math.round(width)) });
  try {
    return (await inPage(driver, documentSize)).height;
  } finally {
    await cdp.send('Emulation.setDeviceMetricsOverride', { ...metrics });
  }
}

/**
 * The page as PDF through CDP Page.printToPDF, with the rules of drivers/playwright/render-pdf.ts:
 * paginated on the chosen paper, or with `onePage` the whole document on one sheet of the paper's
 * width whose height is the document's height at the printed content width (plus margins).
 */
export async function renderPdf(driver: WebDriver, cdp: CdpSession, pdf: PdfSpec, metrics: DeviceMetrics): Promise<Buffer> {
  const margins = marginsPx(pdf);
  const inches = (px: number): number => px / PX_PER_INCH;
  const print = async (sheet: { paperWidth: number; paperHeight: number; landscape: boolean }): Promise<Buffer> => {
    const { data } = await withTimeout(
      cdp.send<{ data: string }>('Page.printToPDF', {
        ...sheet,
        printBackground: pdf.background,
        marginTop: inches(margins.top),
        marginRight: inches(margins.right),
        marginBottom: inches(margins.bottom),
        marginLeft: inches(margins.left),
        preferCSSPageSize: false,
      }),
      OUTPUT_TIMEOUT_MS,
      'the PDF timed out',
    );
    return Buffer.from(data, 'base64');
  };
  if (!pdf.onePage) {
    const paper = PAPER_PX[pdf.format];
    return print({ paperWidth: inches(paper.width), paperHeight: inches(paper.height), landscape: pdf.landscape });
  }
  const sheetWidth = onePageSheetWidth(pdf);
  const contentHeight = await heightAtWidth(driver, cdp, sheetWidth - margins.left - margins.right, metrics);
  // The sheet is already oriented, so `landscape` (which would swap it again) stays false.
  return print({ paperWidth: inches(sheetWidth), paperHeight: inches(onePageSheetHeight(contentHeight, margins)), landscape: false });
}
