import { z } from 'zod';
import type { SettingsSchema } from './contract.js';

/**
 * Marks a setting as secret (a token, a key, a webhook secret): the service encrypts it at rest and
 * masks it in every answer; JSON Schema shows it `writeOnly` with format `password`. The mark is zod
 * metadata, so it survives `.describe()` and wrappers: `secret(z.string().min(1)).optional()`.
 */
export function secret<T extends z.ZodType>(schema: T): T {
  return schema.meta({ writeOnly: true, format: 'password' }) as T;
}

/** The top-level settings keys a plugin's schema marks secret (through optional/default/nullable wrappers). */
export function secretFields(schema: SettingsSchema): string[] {
  const names: string[] = [];
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    let inner: z.ZodType | undefined = field;
    while (inner && z.globalRegistry.get(inner)?.writeOnly !== true) inner = (inner._zod.def as { innerType?: z.ZodType }).innerType;
    if (inner) names.push(key);
  }
  return names;
}
