import { webUrlOrEmpty } from '../shared/shown-url.js';
import type { CdpSession } from './cdp-session.js';

interface FrameTree { frameTree: { frame: { url: string; urlFragment?: string } } }

/**
 * The URL the page shows, from the main frame (CDP), or '' when it is not a web page. WebDriver's
 * current URL cannot be used: after a failed navigation it reports the URL that failed, while the
 * frame shows chrome-error://chromewebdata/ (the record's final_url is then empty).
 */
export async function shownUrl(cdp: CdpSession): Promise<string> {
  const { frameTree } = await cdp.send<FrameTree>('Page.getFrameTree');
  return webUrlOrEmpty(frameTree.frame.url + (frameTree.frame.urlFragment ?? ''));
}
