import type { Config } from '../../core/config/config.js';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import { SecretBox } from './secret-box.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';
import { guardedEgress } from './guarded-agents.js';
import { PrivateAllowlist } from '../../core/net/private-allowlist.js';
import type { AppRegistry } from '../../plugins/registry.js';
import type { ImageLinks } from '../retrieval/image-links.js';
import type { ScreenshotStore } from '../screenshots/screenshot-store.js';
import { AppConfigService } from './app-config-service.js';
import { AppEventEmitter } from './app-event-emitter.js';
import { AppRunner } from './app-runner.js';
import { AppSettingsCodec } from './app-settings-codec.js';
import { BatchHosting } from './batch-hosting.js';
import { resolveSecretsKey } from './secrets-key.js';

export interface AppServices {
  registry: AppRegistry;
  codec: AppSettingsCodec;
  configs: AppConfigService;
  emitter: AppEventEmitter;
  runner: AppRunner;
  hosting: BatchHosting;
}

/** The control plane's app parts, built around one plugin registry (loaded at start-up by loadAppPlugins). */
export function createAppServices(deps: { registry: AppRegistry; db: Db; objects: ObjectStore; config: Config; screenshots: ScreenshotStore; imageLinks: ImageLinks; log: Logger }): AppServices {
  const { registry, db, config, log } = deps;
  const codec = new AppSettingsCodec(registry, new SecretBox(resolveSecretsKey(config)));
  const emitter = new AppEventEmitter(db, registry, codec, log);
  // Apps connect to hosts users chose (webhook URLs, S3 endpoints): the same private-address policy as captures.
  const egress = guardedEgress({ allowPrivateTargets: config.allowPrivateTargets, allowlist: new PrivateAllowlist(config.privateTargetAllowlist) });
  const hosting = new BatchHosting(db, config.s3, config.hosting, codec, egress);
  const runner = new AppRunner({
    db,
    objects: deps.objects,
    registry,
    codec,
    emitter,
    screenshots: deps.screenshots,
    imageLinks: deps.imageLinks,
    config: config.apps,
    egress,
    hosting,
    log: log.child({ component: 'apps' }),
  });
  return { registry, codec, configs: new AppConfigService(db, registry, codec), emitter, runner, hosting };
}
