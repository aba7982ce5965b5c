import type { PngEncoding } from '../../core/contracts/browser-driver.js';

/** Sends one CDP command on the page's session (Playwright's CDPSession or the Selenium relay). */
export type CdpSend = (method: string, params: Record<string, unknown>) => Promise<unknown>;

interface LayoutMetrics { cssLayoutViewport: { pageX: number; pageY: number } }

/**
 * What the viewport shows, as one CDP Page.captureScreenshot: the viewport's rectangle at the layout
 * viewport's scroll position, which is how Playwright cuts its viewport screenshot (so the pixels are
 * the same), with the PNG encoder effort ours to choose. The scroll position comes from
 * Page.getLayoutMetrics rather than from script: an error page (unreachable site) has no script context
 * that lasts long enough to ask. `scale` turns CSS pixels into device pixels on this session (the device
 * scale, or 1 where the session itself holds the device-metrics override).
 */
export async function cdpViewportScreenshot(send: CdpSend, viewport: { width: number; height: number }, scale: number, encoding: PngEncoding): Promise<Buffer> {
  const { cssLayoutViewport } = (await send('Page.getLayoutMetrics', {})) as LayoutMetrics;
  const { data } = (await send('Page.captureScreenshot', {
    format: 'png',
    optimizeForSpeed: encoding === 'fast',
    clip: { x: cssLayoutViewport.pageX, y: cssLayoutViewport.pageY, ...viewport, scale },
  })) as { data: string };
  return Buffer.from(data, 'base64');
}
