import { z } from 'zod';
import type { AppPlugin } from './contract.js';
import { secretFields } from './secret-setting.js';

/** Raised at start-up when the plugins cannot form a registry: the message names every problem. */
export class PluginRegistryError extends Error {
  constructor(public readonly problems: string[]) {
    super(`invalid app plugins:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'PluginRegistryError';
  }
}

const TYPE_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;

/** What `GET /app/types` answers for one plugin. */
export interface AppTypeInfo {
  type: string;
  name: string;
  description: string;
  uploads: boolean;
  settings_schema: Record<string, unknown>;
}

/**
 * The installed app plugins by type: the built-ins plus those named in SHOTFARM_PLUGINS. Built once at
 * start-up; a duplicate or empty type, or a descriptor that is not a plugin, stops the start.
 */
export class AppRegistry {
  private readonly byType = new Map<string, AppPlugin>();
  private readonly secrets = new Map<string, string[]>();

  constructor(plugins: readonly AppPlugin[]) {
    const problems: string[] = [];
    for (const [i, plugin] of plugins.entries()) {
      const label = typeof plugin?.type === 'string' && plugin.type.trim() !== '' ? `"${plugin.type}"` : `plugin #${i + 1}`;
      if (typeof plugin?.type !== 'string' || plugin.type.trim() === '') {
        problems.push(`${label}: type is empty`);
        continue;
      }
      if (!TYPE_PATTERN.test(plugin.type)) {
        problems.push(`${label}: type must be lower case letters, digits, - and _, starting with a letter`);
        continue;
      }
      if (this.byType.has(plugin.type)) {
        problems.push(`${label}: type is declared twice`);
        continue;
      }
      if (typeof plugin.name !== 'string' || plugin.name.trim() === '') problems.push(`${label}: name is empty`);
      if (!(plugin.settingsSchema instanceof z.ZodObject)) problems.push(`${label}: settingsSchema is not a zod object schema`);
      if (typeof plugin.run !== 'function') problems.push(`${label}: run is not a function`);
      this.byType.set(plugin.type, plugin);
      if (plugin.settingsSchema instanceof z.ZodObject) this.secrets.set(plugin.type, secretFields(plugin.settingsSchema));
    }
    if (problems.length > 0) throw new PluginRegistryError(problems);
  }

  get(type: string): AppPlugin | undefined {
    return this.byType.get(type);
  }

  types(): string[] {
    return [...this.byType.keys()];
  }

  /** The settings keys of a type that are secret (encrypted at rest, masked in answers). */
  secretFields(type: string): string[] {
    return this.secrets.get(type) ?? [];
  }

  describe(): AppTypeInfo[] {
    return [...this.byType.values()].map((p) => ({
      type: p.type,
      name: p.name,
      description: p.description,
      uploads: p.uploads,
      settings_schema: z.toJSONSchema(p.settingsSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    }));
  }
}
