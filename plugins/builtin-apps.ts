import type { AppEndpoints, AppPlugin } from './contract.js';
import { createDropboxApp } from './dropbox/dropbox-app.js';
import { createGdriveApp } from './gdrive/gdrive-app.js';
import { createOneDriveApp } from './onedrive/onedrive-app.js';
import { createS3App } from './s3/s3-app.js';
import { createSlackApp } from './slack/slack-app.js';
import { createWebcategorizeApp } from './webcategorize/webcategorize-app.js';
import { createWebhookApp } from './webhook/webhook-app.js';

/** The built-in apps, in the order `GET /app/types` lists them. Each is built from the service's endpoints. */
export const BUILTIN_APPS: readonly ((endpoints: AppEndpoints) => AppPlugin)[] = [
  createWebhookApp,
  createS3App,
  createSlackApp,
  createGdriveApp,
  createDropboxApp,
  createOneDriveApp,
  createWebcategorizeApp,
];
