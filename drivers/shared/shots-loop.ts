import type { CaptureSpec, TrackerResult } from '../../core/capture-spec.js';
import { readTrackers, type TrackerReading } from '../page-scripts/read-trackers.js';
import type { CapturePage } from './capture-adapter.js';
import type { Deadline } from './deadline.js';
import { errorText } from './error-text.js';
import { withinOutputTime } from './output-timeout.js';
import type { PopupHider } from './popup-hider.js';
import { ShotTaker } from './shot-taker.js';

/** What the shots of one capture gave: an image, the URL shown and the trackers' readings per shot. */
export interface ShotsTaken {
  images: Buffer[];
  finalUrls: string[];
  trackers: TrackerResult[];
}

/**
 * Takes the spec's `shots`, `shotInterval` apart (cut short by the deadline, with a warning). Before
 * every shot popups are hidden again (hide_popups: `popups`, else null); after it the URL shown and the
 * trackers are read.
 */
export async function takeShots(page: CapturePage, spec: CaptureSpec, deadline: Deadline, warnings: string[], popups: PopupHider | null): Promise<ShotsTaken> {
  const shots = new ShotTaker(page.shots, spec, warnings);
  const images: Buffer[] = [];
  const finalUrls: string[] = [];
  const readings: TrackerReading[][] = [];
  for (let shot = 1; shot <= spec.shots; shot += 1) {
    if (shot > 1 && spec.shotInterval > 0) {
      const slept = await deadline.sleep(spec.shotInterval * 1000);
      if (slept < spec.shotInterval * 1000 - 1) warnings.push(`max_wait passed before shot ${shot}; it was taken without waiting the full interval.`);
    }
    // Popups often appear late (a timer, the first scroll), so they are hidden again before every shot.
    await popups?.beforeShot(deadline, warnings);
    await page.beforeShot?.(warnings);
    images.push(await shots.take(deadline));
    finalUrls.push(await withinOutputTime(page.shownUrl(), 'reading the URL'));
    if (spec.trackers.length > 0) {
      readings.push(
        await withinOutputTime(page.evaluate(readTrackers, spec.trackers), 'reading trackers').catch((error: unknown) => {
          warnings.push(`Trackers could not be read at shot ${shot}: ${errorText(error)}.`);
          return spec.trackers.map((tracker) => ({ found: 0 as const, name: tracker.name }));
        }),
      );
    }
  }
  const trackers: TrackerResult[] = spec.trackers.map((tracker, index) => ({
    ...tracker,
    return: readings.map((shot, shotIndex) => ({ ...(shot[index] ?? { found: 0, name: tracker.name }), shot: shotIndex + 1 })),
  }));
  return { images, finalUrls, trackers };
}
