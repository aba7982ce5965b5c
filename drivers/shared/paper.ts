import type { PdfSpec } from '../../core/capture-spec.js';
import { cssLengthToPx } from './css-length.js';

/** Paper sizes in CSS pixels (96 per inch): A4 210×297 mm, Letter 8.5×11 in, Legal 8.5×14 in. */
export const PAPER_PX = {
  a4: { width: (210 / 25.4) * 96, height: (297 / 25.4) * 96 },
  letter: { width: 8.5 * 96, height: 11 * 96 },
  legal: { width: 8.5 * 96, height: 14 * 96 },
} as const;

/**
 * Slack added to a one-page sheet's height: print layout rounds heights to device units, and a
 * document that ends exactly on the edge would spill one empty line onto a second sheet.
 */
export const ONE_PAGE_SLACK_PX = 16;

export interface PdfMarginsPx {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** The spec's margins in CSS pixels. */
export function marginsPx(pdf: PdfSpec): PdfMarginsPx {
  return {
    top: cssLengthToPx(pdf.margin.top),
    right: cssLengthToPx(pdf.margin.right),
    bottom: cssLengthToPx(pdf.margin.bottom),
    left: cssLengthToPx(pdf.margin.left),
  };
}

/** The one-page sheet's width: the paper's, turned when landscape (the sheet is then already oriented). */
export function onePageSheetWidth(pdf: PdfSpec): number {
  const paper = PAPER_PX[pdf.format];
  return pdf.landscape ? paper.height : paper.width;
}

/** The one-page sheet's height for a document `contentHeight` CSS pixels tall at the printed width. */
export function onePageSheetHeight(contentHeight: number, margins: PdfMarginsPx): number {
  return contentHeight + margins.top + margins.bottom + ONE_PAGE_SLACK_PX;
}
