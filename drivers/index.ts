/** The drivers package: what node-agent and the embedded composition root use. */
export { PlaywrightDriver, type PlaywrightDriverOptions } from './playwright/playwright-driver.js';
export { BrowserPool, type BrowserPoolOptions } from './pool/browser-pool.js';
export { VideoEncoder, type VideoEncoderSettings } from './video/video-encoder.js';
