import { expect } from 'chai';
import { loadConfig } from '../../core/config/load-config.js';
import { createLogger } from '../../core/logger.js';
import { createEgressGuard } from '../../node-agent/create-agent.js';
import { EgressGuard } from '../../node-agent/egress/egress-guard.js';

const selenium = (gridUrl: string, env: Record<string, string> = {}) => loadConfig({ SHOTFARM_DRIVER: 'selenium', SELENIUM_GRID_URL: gridUrl, ...env });
const log = createLogger('silent');

describe('the selenium driver and the egress guard (unit)', () => {
  it('guards a Selenium Grid on this machine (loopback or localhost), whose browsers reach the guard', () => {
    for (const url of ['http://127.0.0.1:4444', 'http://localhost:4444/wd/hub', 'http://[::1]:4444']) {
      expect(createEgressGuard(selenium(url), log), url).to.be.instanceOf(EgressGuard);
    }
  });

  it('refuses to start with a grid elsewhere unless private targets are allowed, and says why in one sentence', () => {
    expect(() => createEgressGuard(selenium('http://grid.internal:4444'), log)).to.throw(
      "the selenium driver goes through the egress guard only with a Selenium Grid on this machine (SELENIUM_GRID_URL on a loopback address): set SHOTFARM_ALLOW_PRIVATE_TARGETS=true (and guard the Grid's network) or use the playwright driver",
    );
    expect(() => createEgressGuard(selenium('http://10.0.0.7:4444'), log)).to.throw(/only with a Selenium Grid on this machine/);
    expect(createEgressGuard(selenium('http://grid.internal:4444', { SHOTFARM_ALLOW_PRIVATE_TARGETS: 'true' }), log)).to.equal(null);
  });
});
