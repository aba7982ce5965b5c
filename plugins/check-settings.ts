import type { z } from 'zod';
import type { AppPlugin } from './contract.js';

export type SettingsCheck = { ok: true; settings: Record<string, unknown> } | { ok: false; problems: { path: string; message: string }[] };

/**
 * A configuration's settings as its plugin's schema parses them (defaults filled in, unknown keys refused),
 * or what is wrong with them, keyed by the setting's path ('' for the settings as a whole). A schema whose
 * own checks throw is the plugin's bug; it is reported as a problem, never thrown.
 */
export function checkSettings(plugin: AppPlugin, value: unknown): SettingsCheck {
  let parsed: ReturnType<AppPlugin['settingsSchema']['safeParse']>;
  try {
    parsed = plugin.settingsSchema.strict().safeParse(value);
  } catch (err) {
    return { ok: false, problems: [{ path: '', message: `the ${plugin.type} app could not check these settings: ${err instanceof Error ? err.message : String(err)}` }] };
  }
  if (parsed.success) return { ok: true, settings: parsed.data as Record<string, unknown> };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.code === 'unrecognized_keys' ? `unknown setting(s): ${(issue as z.core.$ZodIssueUnrecognizedKeys).keys.join(', ')}` : issue.message,
    })),
  };
}
