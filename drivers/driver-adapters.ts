import { readFile } from 'node:fs/promises';
import type { AdapterCatalog } from '../core/di/adapters.js';
import { filterListFiles } from './shared/filter-list-path.js';
import { PlaywrightDriver } from './playwright/playwright-driver.js';
import { resolveFfmpegPath } from './video/ffmpeg-path.js';

/**
 * The browser drivers (registered by core/di/adapters.ts, which picks one from SHOTFARM_DRIVER), built
 * from the agent's settings. Selenium is imported only when chosen: a Playwright node never loads it. So is
 * the null driver, for benchmarks and tests only (load-config.ts refuses it unless SHOTFARM_ALLOW_NULL_DRIVER is true).
 */
export const driverAdapters: Pick<AdapterCatalog, 'browserDriver'> = {
  browserDriver: {
    playwright: ({ config }) =>
      new PlaywrightDriver({
        chromiumPath: config.agent.chromiumPath,
        firefoxPath: config.agent.firefoxPath,
        ffmpegPath: resolveFfmpegPath(config.agent.ffmpegPath),
        filterListFiles: filterListFiles(config.agent.adFilterLists),
        defaultMaxWaitSeconds: config.farm.captureTimeoutSeconds,
        settleCapSeconds: config.agent.settleCapSeconds,
        pngEncoding: config.agent.pngEncoding,
        limits: { maxPageHeight: config.agent.maxPageHeight, maxCapturePixels: config.farm.maxCapturePixels },
        pageMemoryLimitMb: config.agent.pageMemoryLimitMb,
        prepareContexts: config.agent.prepareContexts,
      }),
    null: async ({ config }) => {
      const { NullDriver } = await import('./null/null-driver.js');
      const { delayMs, imagePath } = config.agent.nullDriver;
      return new NullDriver({ delayMs, ...(imagePath ? { image: await readFile(imagePath) } : {}) });
    },
    selenium: async ({ config }) => {
      const { SeleniumDriver } = await import('./selenium/selenium-driver.js');
      return new SeleniumDriver({
        ffmpegPath: resolveFfmpegPath(config.agent.ffmpegPath),
        filterListFiles: filterListFiles(config.agent.adFilterLists),
        defaultMaxWaitSeconds: config.farm.captureTimeoutSeconds,
        settleCapSeconds: config.agent.settleCapSeconds,
        pngEncoding: config.agent.pngEncoding,
        limits: { maxPageHeight: config.agent.maxPageHeight, maxCapturePixels: config.farm.maxCapturePixels },
      });
    },
  },
};
