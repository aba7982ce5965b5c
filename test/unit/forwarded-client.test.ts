import { expect } from 'chai';
import { addressLimitKey, canonicalAddress, forwardedClient, TrustedProxies } from '../../api/http/forwarded-client.js';
import { loadConfig } from '../../core/config/load-config.js';
import { configProblems } from '../support/config-problems.js';

describe('the client address of a request (SHOTFARM_TRUSTED_PROXIES)', () => {
  const none = new TrustedProxies([]);
  const proxies = new TrustedProxies(['10.0.0.0/8', '192.0.2.7', 'fd00::/8']);

  it('trusts no proxy by default: X-Forwarded-For is ignored and the peer is the client', () => {
    expect(forwardedClient('203.0.113.9', '198.51.100.1', none)).to.equal('203.0.113.9');
    expect(forwardedClient('10.1.2.3', '198.51.100.1', none)).to.equal('10.1.2.3');
  });

  it('ignores the header from a peer that is not a trusted proxy', () => {
    expect(forwardedClient('203.0.113.9', '198.51.100.1', proxies)).to.equal('203.0.113.9');
  });

  it('behind a trusted proxy, the client is the right-most address that is not a proxy; what the client wrote left of it is not believed', () => {
    expect(forwardedClient('10.0.0.1', '198.51.100.1', proxies)).to.equal('198.51.100.1');
    // The client sent "1.1.1.1, 2.2.2.2" itself; the proxy appended the address it saw.
    expect(forwardedClient('10.0.0.1', '1.1.1.1, 2.2.2.2, 198.51.100.1', proxies)).to.equal('198.51.100.1');
    // Two proxies in a row (an edge one, then an internal one): both are skipped.
    expect(forwardedClient('10.0.0.1', '1.1.1.1, 198.51.100.1, 192.0.2.7', proxies)).to.equal('198.51.100.1');
    // The header given twice is read as one list, in order.
    expect(forwardedClient('10.0.0.1', ['1.1.1.1', '198.51.100.1'], proxies)).to.equal('198.51.100.1');
  });

  it('when every hop is a proxy the left-most is the client; an entry that is no address ends the walk', () => {
    expect(forwardedClient('10.0.0.1', '10.9.9.9, 192.0.2.7', proxies)).to.equal('10.9.9.9');
    expect(forwardedClient('10.0.0.1', 'not-an-ip, 192.0.2.7', proxies)).to.equal('192.0.2.7');
    expect(forwardedClient('10.0.0.1', '', proxies)).to.equal('10.0.0.1');
    expect(forwardedClient('10.0.0.1', undefined, proxies)).to.equal('10.0.0.1');
  });

  it('compares addresses in one form: IPv4-mapped IPv6 is the IPv4 address, ports and zones are dropped', () => {
    expect(forwardedClient('::ffff:10.0.0.1', '198.51.100.1', proxies)).to.equal('198.51.100.1');
    expect(forwardedClient('::ffff:203.0.113.9', '198.51.100.1', proxies)).to.equal('203.0.113.9');
    expect(forwardedClient('fd00::5', '[2001:DB8::1]:443', proxies)).to.equal('2001:db8::1');
    expect(forwardedClient('10.0.0.1', '198.51.100.1:5678', proxies)).to.equal('198.51.100.1');
    expect(canonicalAddress('fe80::1%eth0')).to.equal('fe80::1');
    expect(canonicalAddress('64:ff9b::1.2.3.4'), 'NAT64 is another host than 1.2.3.4').to.equal('64:ff9b::1.2.3.4');
    expect(canonicalAddress('example.com')).to.equal(null);
  });

  it('the per-address limits count an IPv4 address as itself and an IPv6 address by its /64', () => {
    expect(addressLimitKey('203.0.113.9')).to.equal('203.0.113.9');
    expect(addressLimitKey('2001:db8:1:2::1')).to.equal('2001:db8:1:2::/64');
    expect(addressLimitKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).to.equal('2001:db8:1:2::/64');
    expect(addressLimitKey('2001:db8:1:3::1')).to.equal('2001:db8:1:3::/64');
  });

  it('the setting takes addresses and CIDRs and refuses anything else at start', () => {
    expect(loadConfig({}).trustedProxies).to.deep.equal([]);
    expect(loadConfig({ SHOTFARM_TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.7,fd00::/8' }).trustedProxies).to.deep.equal(['10.0.0.0/8', '192.0.2.7', 'fd00::/8']);
    expect(configProblems({ SHOTFARM_TRUSTED_PROXIES: 'proxy.internal,10.0.0.0/33' })).to.deep.equal([
      'SHOTFARM_TRUSTED_PROXIES: "proxy.internal" is neither an address nor a CIDR (10.0.0.0/8, fd00::/8)',
      'SHOTFARM_TRUSTED_PROXIES: "10.0.0.0/33" is neither an address nor a CIDR (10.0.0.0/8, fd00::/8)',
    ]);
  });
});
