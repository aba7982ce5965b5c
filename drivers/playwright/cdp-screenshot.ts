import type { Page } from 'playwright-core';
import type { PngEncoding } from '../../core/contracts/browser-driver.js';
import { cdpSessionFor } from './cdp-session.js';

/** A document rectangle in CSS pixels. */
export interface Clip { x: number; y: number; width: number; height: number }

/**
 * One Chromium PNG screenshot of a document rectangle (`clip`, captured beyond the viewport when it
 * does not fit) through the page's own CDP session. This is the call Playwright's
 * page.screenshot ends in, minus its per-shot preparation (caret hiding in every frame, waiting for
 * fonts) and with the encoder effort ours to choose; test/drivers/cdp-screenshot-identity.test.ts checks
 * that the pixels are Playwright's.
 */
export async function cdpScreenshot(page: Page, encoding: PngEncoding, area: { clip: Clip; beyondViewport: boolean; deviceScale: number }): Promise<Buffer> {
  const cdp = await cdpSessionFor(page);
  const { data } = (await cdp.send('Page.captureScreenshot', {
    format: 'png',
    optimizeForSpeed: encoding === 'fast',
    // Device pixels, as Playwright's default `scale: 'device'`. Playwright passes scale 1 on ITS session,
    // which holds the device-metrics override; ours does not, so it asks for the device scale itself.
    clip: { ...area.clip, scale: area.deviceScale },
    captureBeyondViewport: area.beyondViewport,
  })) as { data: string };
  return Buffer.from(data, 'base64');
}
