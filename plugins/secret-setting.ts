import type { z } from 'zod';
import type { SettingsSchema } from './contract.js';

/** Schemas marked secret by `secret()`; a WeakSet, so marking leaks nothing and survives no copies. */
const SECRET_SCHEMAS = new WeakSet<z.ZodType>();

/**
 * Marks a setting as secret (a token, a key, a webhook secret): the service encrypts it at rest and
 * masks it in every answer; JSON Schema shows it `writeOnly` with format `password`. Wrap the inner
 * schema, then make it optional if it is: `secret(z.string().min(1)).optional()`.
 */
export function secret<T extends z.ZodType>(schema: T): T {
  const marked = schema.meta({ writeOnly: true, format: 'password' }) as T;
  SECRET_SCHEMAS.add(marked);
  return marked;
}

/** The top-level settings keys a plugin's schema marks secret (through optional/default/nullable wrappers). */
export function secretFields(schema: SettingsSchema): string[] {
  const names: string[] = [];
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    let inner: z.ZodType | undefined = field;
    while (inner && !SECRET_SCHEMAS.has(inner)) inner = (inner._zod.def as { innerType?: z.ZodType }).innerType;
    if (inner) names.push(key);
  }
  return names;
}
