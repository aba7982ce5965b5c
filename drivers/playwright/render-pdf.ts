import type { Page } from 'playwright-core';
import type { PdfSpec } from '../../core/capture-spec.js';
import { documentSize } from '../page-scripts/document-size.js';
import { OUTPUT_TIMEOUT_MS } from '../shared/output-timeout.js';
import { marginsPx, onePageSheetHeight, onePageSheetWidth, PAPER_PX } from '../shared/paper.js';
import { withTimeout } from '../shared/with-timeout.js';
import type { Engine } from './engine.js';

/**
 * The document height when laid out at `width` CSS pixels: the width the printed content gets.
 * The viewport is set to that width to measure and restored afterwards.
 */
async function heightAtWidth(page: Page, width: number): Promise<number> {
  const original = page.viewportSize();
  if (!original) return (await page.evaluate(documentSize)).height;
  await page.setViewportSize({ width: Math.max(1, Math.round(width)), height: original.height });
  try {
    return (await page.evaluate(documentSize)).height;
  } finally {
    await page.setViewportSize(original);
  }
}

/**
 * How a length in CSS pixels is passed to page.pdf. playwright-core 1.64.1 sends BiDi's
 * browsingContext.print its sizes in inches, but BiDi reads them as CENTIMETRES, so on Firefox every
 * length would come out 2.54 times too small (an A4 sheet 8.3 cm wide). Multiplying by 2.54 there
 * makes the numbers Playwright sends equal to the centimetres BiDi expects.
 */
function lengthFor(engine: Engine, px: number): string {
  const inches = px / 96;
  return engine.name === 'firefox' ? `${inches * 2.54}in` : `${inches}in`;
}

/**
 * The page as PDF. Paginated on the chosen paper, or with `onePage` the whole document on one sheet
 * of the paper's width: its height is measured at the printed content width and becomes the paper
 * height (plus margins). Chromium prints through CDP Page.printToPDF, Firefox through BiDi
 * browsingContext.print; both support this. Sizes are always passed explicitly (never `format`),
 * so the Firefox unit correction applies to them all.
 */
export async function renderPdf(page: Page, pdf: PdfSpec, engine: Engine): Promise<Buffer> {
  const paper = PAPER_PX[pdf.format];
  const margins = marginsPx(pdf);
  const margin = {
    top: lengthFor(engine, margins.top),
    right: lengthFor(engine, margins.right),
    bottom: lengthFor(engine, margins.bottom),
    left: lengthFor(engine, margins.left),
  };
  const print = (options: Parameters<Page['pdf']>[0]): Promise<Buffer> => withTimeout(page.pdf({ printBackground: pdf.background, margin, ...options }), OUTPUT_TIMEOUT_MS, 'the PDF timed out');
  if (!pdf.onePage) {
    return print({ width: lengthFor(engine, paper.width), height: lengthFor(engine, paper.height), landscape: pdf.landscape });
  }
  const sheetWidth = onePageSheetWidth(pdf);
  const contentHeight = await heightAtWidth(page, sheetWidth - margins.left - margins.right);
  const sheetHeight = onePageSheetHeight(contentHeight, margins);
  // The sheet is already oriented, so `landscape` (which would swap it again) is not passed.
  return print({ width: lengthFor(engine, sheetWidth), height: lengthFor(engine, sheetHeight) });
}
