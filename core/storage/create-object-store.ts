import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { ObjectStore } from '../contracts/object-store.js';
import { FilesystemObjectStore } from './filesystem-store.js';
import { S3ObjectStore } from './s3-store.js';

/** What building a store needs: the S3 part of Config, where embedded files go, and how links are made. */
export interface ObjectStoreSettings {
  /** null: embedded mode, files under `<dataDir>/objects`. */
  s3: Config['s3'];
  dataDir: string;
  /** Signs the filesystem store's links (S3 presigns with its own keys). */
  signingSecret: string;
  /** Public URL of the API, which serves the filesystem store's `/objects/<key>` links. */
  publicUrl: string;
}

/** An ObjectStore together with the start-up step that makes it usable (root folder or bucket). */
export interface StartableObjectStore extends ObjectStore {
  init(): Promise<void>;
}

/** S3 when it is configured, else a folder in the data dir. Call init() before use. */
export function createObjectStore(settings: ObjectStoreSettings): StartableObjectStore {
  if (settings.s3 !== null) return new S3ObjectStore(settings.s3);
  return new FilesystemObjectStore({
    root: join(settings.dataDir, 'objects'),
    signingSecret: settings.signingSecret,
    baseUrl: settings.publicUrl,
  });
}
