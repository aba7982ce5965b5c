import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { AdapterCatalog } from '../di/adapters.js';
import type { ObjectStore } from '../contracts/object-store.js';
import { FilesystemObjectStore } from './filesystem-store.js';
import { S3ObjectStore } from './s3-store.js';

/** An ObjectStore together with the start-up step that makes it usable (root folder or bucket). */
export interface StartableObjectStore extends ObjectStore {
  init(): Promise<void>;
}

/** The secret that signs the filesystem store's links, derived from the JWT secret (S3 presigns with its own keys). */
export function objectLinkSecret(jwtSecret: string): string {
  return createHash('sha256').update(`object-links:${jwtSecret}`).digest('hex');
}

/**
 * The object stores (registered by core/di/adapters.ts, which picks one from the configuration): a folder
 * `<data dir>/objects` whose links the API serves at its public URL, or an S3 bucket. Each is initialised
 * (folder or bucket made) before it is registered.
 */
export function objectStoreAdapters(signingSecret: string): Pick<AdapterCatalog, 'objectStore'> {
  const started = async (store: StartableObjectStore): Promise<StartableObjectStore> => {
    await store.init();
    return store;
  };
  return {
    objectStore: {
      filesystem: ({ config }) => started(new FilesystemObjectStore({ root: join(config.dataDir, 'objects'), signingSecret, baseUrl: config.publicUrl })),
      s3: ({ config }) => {
        if (!config.s3) throw new Error('the s3 object store needs S3_ENDPOINT');
        return started(new S3ObjectStore(config.s3));
      },
    },
  };
}
