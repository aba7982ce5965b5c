import { expect } from 'chai';
import { buildSignedQuery, isSignedLinkQuery, renderQueryOf, SIGNED_LINK_CACHE_SECONDS, signatureMatches, signQuery, splitSignedQuery } from '../../api/auth/signed-links.js';

const SECRET = 'ss_unit-test-secret-0123456789abcdef';
const OTHER = 'ss_another-key-secret-0123456789abcd';

describe('signed render links (unit)', () => {
  it("signs with HMAC-SHA256 keyed with the secret's text, as lowercase hex (RFC 4231 test case 2)", () => {
    expect(signQuery('what do ya want for nothing?', 'Jefe')).to.equal('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('splits at the last &signature=, which must be the last parameter', () => {
    expect(splitSignedQuery('access=a&url=x&signature=ab')).to.deep.equal({ signed: 'access=a&url=x', signature: 'ab' });
    expect(splitSignedQuery('access=a&signature=ab&url=x')).to.equal(null);
    expect(splitSignedQuery('signature=ab')).to.equal(null);
    expect(splitSignedQuery('access=a&url=x')).to.equal(null);
  });

  it('matches only the exact query under one of the given secrets, and only lowercase hex', () => {
    const signed = 'access=ak_1&url=https%3A%2F%2Fexample.com%2F';
    const sig = signQuery(signed, SECRET);
    expect(signatureMatches(signed, sig, [SECRET])).to.equal(true);
    expect(signatureMatches(signed, sig, [OTHER, SECRET]), 'the previous secret within its grace').to.equal(true);
    expect(signatureMatches(signed, sig, [OTHER])).to.equal(false);
    expect(signatureMatches(signed, sig, [])).to.equal(false);
    expect(signatureMatches(`${signed}&width=1`, sig, [SECRET]), 'a parameter added').to.equal(false);
    expect(signatureMatches(signed.replace('example', 'exampl3'), sig, [SECRET]), 'a parameter changed').to.equal(false);
    expect(signatureMatches(signed, sig.toUpperCase(), [SECRET])).to.equal(false);
    expect(signatureMatches(signed, sig.slice(0, 63), [SECRET])).to.equal(false);
    expect(signatureMatches(signed, `${sig}00`, [SECRET])).to.equal(false);
  });

  it('builds a link that verifies: access first, expires last before the signature', () => {
    const q = buildSignedQuery('ak_1', 'url=https%3A%2F%2Fexample.com%2F&width=640', SECRET, 1_900_000_000);
    expect(q).to.match(/^access=ak_1&url=https%3A%2F%2Fexample\.com%2F&width=640&expires=1900000000&signature=[0-9a-f]{64}$/);
    const split = splitSignedQuery(q);
    expect(split && signatureMatches(split.signed, split.signature, [SECRET])).to.equal(true);
    expect(buildSignedQuery('ak_1', 'url=x', SECRET)).to.match(/^access=ak_1&url=x&signature=[0-9a-f]{64}$/);
  });

  it("hands the render its own query: without the link's parameters, raw pieces kept, cache a day unless named", () => {
    expect(renderQueryOf('access=ak_1&url=https%3A%2F%2Fa.test%2F%3Fq%3D1&width=640&expires=5')).to.equal(`url=https%3A%2F%2Fa.test%2F%3Fq%3D1&width=640&cache=${SIGNED_LINK_CACHE_SECONDS}`);
    expect(renderQueryOf('access=ak_1&url=x&cache=60')).to.equal('url=x&cache=60');
    expect(renderQueryOf('%61ccess=ak_1&url=x&cache=false')).to.equal('url=x&cache=false');
  });

  it('recognises a signed link by access or signature', () => {
    expect(isSignedLinkQuery('url=x&access=a')).to.equal(true);
    expect(isSignedLinkQuery('url=x&signature=00')).to.equal(true);
    expect(isSignedLinkQuery('url=x&key=sf_1')).to.equal(false);
  });
});
