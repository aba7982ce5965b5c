import { expect } from 'chai';
import { isCidrOrHost, parseCidr } from '../../core/net/cidr.js';
import { loadConfig } from '../../core/config/load-config.js';
import { PrivateAllowlist } from '../../core/net/private-allowlist.js';
import { blockedVerdict } from '../../node-agent/egress/blocked-verdict.js';
import { embeddedIpv4, privateKindOf } from '../../core/net/ip-ranges.js';
import { resolveDestination } from '../../core/net/resolve-destination.js';

describe('egress guard: address classification (unit)', () => {
  const cases: [string, string | null][] = [
    // 6to4 (2002::/16) carries an IPv4 address in bits 16-47: judged as that address
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['2002:0a00:0001::', 'private'],
    ['2002:cb00:7101::1', null],
    // loopback
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    // RFC 1918 and unique local
    ['10.0.0.5', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    // link-local, including the cloud metadata service
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    // carrier-grade NAT
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    // multicast
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    // unspecified, this network, broadcast
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    // reserved
    ['240.0.0.1', 'reserved'],
    ['192.0.0.170', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['not-an-address', 'reserved'],
    // IPv4-mapped and NAT64: the embedded IPv4 address decides, in dotted and hex forms
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.5', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:5', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['::ffff:8.8.8.8', null],
    ['64:ff9b::808:808', null],
    // the edges of each range stay public
    ['8.8.8.8', null],
    ['1.1.1.1', null],
    ['100.63.255.255', null],
    ['100.128.0.0', null],
    ['172.15.255.255', null],
    ['172.32.0.0', null],
    ['169.253.255.255', null],
    ['169.255.0.0', null],
    ['11.0.0.0', null],
    ['223.255.255.255', null],
    ['192.0.2.2', null],
    ['2001:4860:4860::8888', null],
    ['2606:4700::1111', null],
    ['fbff::1', null],
    ['fe00::1', null],
  ];
  for (const [address, kind] of cases) {
    it(`${address} is ${kind ?? 'public'}`, () => expect(privateKindOf(address)).to.equal(kind));
  }

  it('reads the IPv4 address inside IPv4-mapped and NAT64 addresses only', () => {
    expect(embeddedIpv4('::ffff:c0a8:101')).to.equal('192.168.1.1');
    expect(embeddedIpv4('64:ff9b::8.8.4.4')).to.equal('8.8.4.4');
    expect(embeddedIpv4('2001:db8::c0a8:101')).to.equal(null);
    expect(embeddedIpv4('10.0.0.1')).to.equal(null);
  });
});

describe('egress guard: allowlist and resolution (unit)', () => {
  const allowlist = new PrivateAllowlist(['10.20.0.0/16', 'fd00:1::/32', 'intranet.example']);
  const lookup =
    (map: Record<string, string[]>) =>
    async (host: string): Promise<string[]> =>
      map[host] ?? [];

  it('parses CIDRs, bare addresses and host names; refuses anything else', () => {
    expect(parseCidr('10.0.0.0/8')).to.deep.equal({ address: '10.0.0.0', family: 'ipv4', prefix: 8 });
    expect(parseCidr('::1')).to.deep.equal({ address: '::1', family: 'ipv6', prefix: 128 });
    expect(parseCidr('10.0.0.0/33')).to.equal(null);
    for (const ok of ['10.0.0.0/8', 'fd00::/8', '192.168.1.10', 'intranet.example', 'localhost']) expect(isCidrOrHost(ok), ok).to.equal(true);
    for (const bad of ['10.0.0.0/x', 'intranet/8', 'http://x', 'a b', '-bad.example']) expect(isCidrOrHost(bad), bad).to.equal(false);
  });

  it('SHOTFARM_PRIVATE_TARGET_ALLOWLIST is read as a lower-case list and validated', () => {
    expect(loadConfig({}).privateTargetAllowlist).to.deep.equal([]);
    expect(loadConfig({ SHOTFARM_PRIVATE_TARGET_ALLOWLIST: ' 10.0.0.0/8, Intranet.Example ' }).privateTargetAllowlist).to.deep.equal(['10.0.0.0/8', 'intranet.example']);
    expect(() => loadConfig({ SHOTFARM_PRIVATE_TARGET_ALLOWLIST: '10.0.0.0/99' })).to.throw(/SHOTFARM_PRIVATE_TARGET_ALLOWLIST/);
  });

  it('lets listed networks through (also inside IPv4-mapped addresses) and listed names whatever they resolve to', () => {
    expect(allowlist.addressAllowed('10.20.3.4')).to.equal(true);
    expect(allowlist.addressAllowed('::ffff:10.20.3.4')).to.equal(true);
    expect(allowlist.addressAllowed('10.21.0.1')).to.equal(false);
    expect(allowlist.addressAllowed('fd00:1::5')).to.equal(true);
    expect(allowlist.hostAllowed('INTRANET.example.')).to.equal(true);
    expect(allowlist.hostAllowed('other.example')).to.equal(false);
  });

  it('checks the resolved address and returns it as the one to connect to', async () => {
    const names = lookup({ 'rebind.example': ['10.0.0.5'], 'mixed.example': ['10.0.0.5', '93.184.215.14'], 'intranet.example': ['10.99.0.1'], 'inside.example': ['10.20.0.7'] });
    expect(await resolveDestination('rebind.example', names, allowlist)).to.deep.equal({ allowed: false, address: '10.0.0.5', kind: 'private' });
    expect(await resolveDestination('mixed.example', names, allowlist)).to.deep.equal({ allowed: true, address: '93.184.215.14' });
    expect(await resolveDestination('intranet.example', names, allowlist)).to.deep.equal({ allowed: true, address: '10.99.0.1' });
    expect(await resolveDestination('inside.example', names, allowlist)).to.deep.equal({ allowed: true, address: '10.20.0.7' });
    // An IP literal is never looked up: the empty lookup would otherwise fail.
    expect(await resolveDestination('[::ffff:7f00:1]', names, allowlist)).to.deep.equal({ allowed: false, address: '::ffff:7f00:1', kind: 'loopback' });
    let failed = false;
    await resolveDestination('nowhere.example', names, allowlist).catch(() => {
      failed = true;
    });
    expect(failed, 'a name without address is an error, not a pass').to.equal(true);
  });
});

describe('egress guard: what a blocked request means for the capture (unit)', () => {
  const block = (host: string, port = 80, address = '10.0.0.5') => ({ host, port, address, kind: 'private' as const });
  const message = 'Blocked: intranet resolves to 10.0.0.5, a private address; captures of private networks are disabled (SHOTFARM_ALLOW_PRIVATE_TARGETS)';

  it('the requested host or the final host blocked: the page is an error', () => {
    expect(blockedVerdict('http://intranet/', 'http://intranet/', 403, [block('intranet')]).pageFailure).to.deep.equal({ cause: 'blocked', error: message });
    expect(blockedVerdict('http://public.example/', 'http://intranet/x', 403, [block('intranet')]).pageFailure?.error).to.equal(message);
  });

  it('no answer at all while something was blocked: the block explains the error', () => {
    expect(blockedVerdict('https://public.example/', 'chrome-error://chromewebdata/', null, [block('intranet', 443)]).pageFailure?.error).to.include('Blocked: intranet');
  });

  it('subresources are warnings, one per host and port, and the page finishes', () => {
    const verdict = blockedVerdict('http://public.example/', 'http://public.example/', 200, [block('intranet'), block('intranet'), block('other', 8080)]);
    expect(verdict.pageFailure).to.equal(null);
    expect(verdict.warnings).to.have.length(2);
    expect(verdict.warnings[0]).to.match(/^Blocked a request to intranet:80: intranet resolves to 10.0.0.5, a private address/);
  });

  it('nothing blocked: nothing to say', () => {
    expect(blockedVerdict('http://a/', 'http://a/', null, [])).to.deep.equal({ pageFailure: null, warnings: [] });
  });
});
