import fs from 'node:fs';
import { parsePlans, type Plan } from '../billing/plan.js';

/**
 * Reads SHOTFARM_PLANS_FILE at start-up. Problems (unreadable, not JSON, not the Plan shape) are
 * added to the configuration's problems, each prefixed with the setting's name like every other
 * setting's; the plans are then empty and start-up stops with the ConfigError.
 */
export function readPlansFile(file: string, problems: string[]): Plan[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    problems.push(`SHOTFARM_PLANS_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    return [];
  }
  const parsed = parsePlans(text);
  if (parsed.ok) return parsed.plans;
  for (const p of parsed.problems) problems.push(`SHOTFARM_PLANS_FILE: ${file}: ${p}`);
  return [];
}
