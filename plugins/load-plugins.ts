import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppEndpoints, AppPlugin, AppPluginModuleExport } from './contract.js';
import { BUILTIN_APPS } from './builtin-apps.js';
import { AppRegistry, PluginRegistryError } from './registry.js';

/**
 * Builds the registry: the built-ins, then each module named in SHOTFARM_PLUGINS. A name starting with
 * `.` or `/` is a path (relative to the working directory); anything else is a package, resolved from the
 * working directory first (where an operator installs it) and then from shotfarm's own dependencies.
 * A module exports the plugin as `default` or `plugin`: a descriptor, or a function given the endpoints.
 */
export async function loadAppPlugins(opts: { external: readonly string[]; endpoints: AppEndpoints; cwd?: string }): Promise<AppRegistry> {
  const cwd = opts.cwd ?? process.cwd();
  const plugins: AppPlugin[] = BUILTIN_APPS.map((create) => create(opts.endpoints));
  const problems: string[] = [];
  for (const name of opts.external) {
    try {
      const mod = (await import(moduleUrl(name, cwd))) as { default?: AppPluginModuleExport; plugin?: AppPluginModuleExport };
      const exported = mod.default ?? mod.plugin;
      if (exported === undefined) throw new Error('exports neither `default` nor `plugin`');
      plugins.push(typeof exported === 'function' ? await exported({ endpoints: opts.endpoints }) : exported);
    } catch (err) {
      problems.push(`SHOTFARM_PLUGINS: ${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (problems.length > 0) throw new PluginRegistryError(problems);
  return new AppRegistry(plugins);
}

function moduleUrl(name: string, cwd: string): string {
  if (name.startsWith('.') || path.isAbsolute(name)) return pathToFileURL(path.resolve(cwd, name)).href;
  try {
    return pathToFileURL(createRequire(path.join(cwd, 'package.json')).resolve(name)).href;
  } catch {
    return name;
  }
}
