import fs from 'node:fs';
import { parsePlans, type Plan } from '../billing/plan.js';
import { InvalidSetting } from './setting-parsers.js';

/**
 * Reads SHOTFARM_PLANS_FILE at start-up (its parser in settings.ts). Problems (unreadable, not JSON, not
 * the Plan shape) become the setting's problems, so start-up stops naming them.
 */
export function readPlansFile(file: string): Plan[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new InvalidSetting([`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`]);
  }
  const parsed = parsePlans(text);
  if (parsed.ok) return parsed.plans;
  throw new InvalidSetting(parsed.problems.map((p) => `${file}: ${p}`));
}
