import type { CaptureSpec, PageMetadata } from '../../core/capture-spec.js';
import { pageDescription } from '../page-scripts/page-description.js';
import type { CapturePage } from './capture-adapter.js';
import { dominantColors } from './dominant-colors.js';
import { errorText } from './error-text.js';
import { withinOutputTime } from './output-timeout.js';
import { pageMarkdownFunction } from './page-markdown.js';

/**
 * Extraction (markdown=1, metadata=1), after the shots and the blank check, from the page as the shots show it.
 * Like every output it is bounded by OUTPUT_TIMEOUT_MS; one that fails is a warning, never the capture's end.
 */
export async function extractPage(page: CapturePage, spec: CaptureSpec, images: Buffer[], warnings: string[]): Promise<{ markdown: string | null; metadata: PageMetadata | null }> {
  let markdown: string | null = null;
  if (spec.markdown) {
    const mode = spec.markdownMode ?? 'main';
    const made = await withinOutputTime(page.evaluate(pageMarkdownFunction(), mode), 'the Markdown').catch((error: unknown) => {
      warnings.push(`The Markdown could not be made: ${errorText(error)}.`);
      return null;
    });
    if (made?.wholeBody) warnings.push('markdown: no main content was found on the page; the Markdown holds its whole body.');
    markdown = made?.markdown ?? null;
  }
  let metadata: PageMetadata | null = null;
  if (spec.metadata) {
    const [description, colors] = await Promise.all([
      withinOutputTime(page.evaluate(pageDescription), 'the metadata').catch((error: unknown) => {
        warnings.push(`The page's metadata could not be read: ${errorText(error)}.`);
        return null;
      }),
      images[0]
        ? dominantColors(images[0]).catch((error: unknown) => {
            warnings.push(`The image's colours could not be read: ${errorText(error)}.`);
            return [];
          })
        : Promise.resolve([]),
    ]);
    if (description) metadata = { ...description, colors };
  }
  return { markdown, metadata };
}
