import { encryptPrivateKey, decryptPrivateKey } from './dkim-keys';
import { domainAndParents, domainOfEmail, normalizeDomainName } from './domain-name';

describe('normalizeDomainName', () => {
  it('lowercases, drops the root dot and converts IDNs to punycode', () => {
    expect(normalizeDomainName(' Example.COM. ')).toBe('example.com');
    expect(normalizeDomainName('bücher.de')).toBe('xn--bcher-kva.de');
    expect(normalizeDomainName('mail.sub.example.co.uk')).toBe('mail.sub.example.co.uk');
  });

  it.each([['localhost'], ['10.0.0.1'], ['a..b.com'], ['-a.com'], ['a-.com'], ['a_b.com'], ['a b.com'], ['x@y.com'], ['example.123'], [''], [null], [5]])(
    'rejects %j',
    (input) => {
      expect(normalizeDomainName(input)).toBeNull();
    },
  );
});

describe('domainAndParents / domainOfEmail', () => {
  it('lists the domain and its parents down to two labels', () => {
    expect(domainAndParents('a.b.example.com')).toEqual(['a.b.example.com', 'b.example.com', 'example.com']);
    expect(domainAndParents('example.com')).toEqual(['example.com']);
  });

  it('takes the domain after the last @', () => {
    expect(domainOfEmail('Someone@Mail.Example.com')).toBe('mail.example.com');
    expect(domainOfEmail('nobody')).toBeNull();
  });
});

describe('DKIM key encryption', () => {
  it('round-trips and refuses another secret or tampered ciphertext', () => {
    const secret = 'a'.repeat(64);
    const stored = encryptPrivateKey(secret, '-----BEGIN PRIVATE KEY-----\nabc\n');
    expect(stored).not.toContain('PRIVATE KEY');
    expect(decryptPrivateKey(secret, stored)).toBe('-----BEGIN PRIVATE KEY-----\nabc\n');
    expect(() => decryptPrivateKey('b'.repeat(64), stored)).toThrow();
    const parts = stored.split(':');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => decryptPrivateKey(secret, parts.join(':'))).toThrow();
  });
});
