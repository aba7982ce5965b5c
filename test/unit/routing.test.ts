import { expect } from 'chai';
import type { NodeStatus } from '../../core/contracts/node-registry.js';
import { routeJob, routeOfRecord } from '../../grid/scheduling/routing.js';

const node = (id: string, countries: string[], browsers: ('chrome' | 'firefox')[] = ['chrome'], draining = false): NodeStatus => ({
  id,
  host: id,
  browsers: browsers.map((name) => ({ name, version: '1', driver: 'playwright' })),
  countries,
  slots: 2,
  inFlight: 0,
  jobsDone: 0,
  failures: 0,
  startedAt: '',
  draining,
});

describe('country routing (unit)', () => {
  const proxies = { fr: 'http://proxy-fr:3128', de: 'http://proxy-de:3128' };

  it('sends a job to an agent that egresses from its country first', () => {
    expect(routeJob('fr', 'chrome', [node('a', []), node('b', ['fr', 'de'])], proxies)).to.deep.equal({ egressCountry: 'fr', proxy: null, routing: 'agent:fr' });
  });

  it("else through the country's proxy, else to any agent", () => {
    expect(routeJob('de', 'chrome', [node('a', [])], proxies)).to.deep.equal({ egressCountry: null, proxy: 'http://proxy-de:3128', routing: 'proxy:de' });
    expect(routeJob('jp', 'chrome', [node('a', [])], proxies)).to.deep.equal({ egressCountry: null, proxy: null, routing: 'any' });
  });

  it('ignores agents that do not offer the browser or are draining', () => {
    expect(routeJob('fr', 'firefox', [node('b', ['fr'], ['chrome'])], proxies).routing).to.equal('proxy:fr');
    expect(routeJob('fr', 'chrome', [node('b', ['fr'], ['chrome'], true)], proxies).routing).to.equal('proxy:fr');
  });

  it("a record's stored routing gives its job the same route again (a restart's requeue)", () => {
    expect(routeOfRecord('agent:fr', proxies)).to.deep.equal({ egressCountry: 'fr', proxy: null, routing: 'agent:fr' });
    expect(routeOfRecord('proxy:de', proxies)).to.deep.equal({ egressCountry: null, proxy: 'http://proxy-de:3128', routing: 'proxy:de' });
    expect(routeOfRecord('any', proxies)).to.deep.equal({ egressCountry: null, proxy: null, routing: 'any' });
    // The proxy was removed from the configuration since: any agent takes it.
    expect(routeOfRecord('proxy:jp', proxies)).to.deep.equal({ egressCountry: null, proxy: null, routing: 'proxy:jp' });
  });
});
