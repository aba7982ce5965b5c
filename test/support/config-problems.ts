import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../core/config/load-config.js';

/** The problems loadConfig names for an environment it must refuse (fails the test when it accepts it). */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).to.be.instanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}
