import { bounceAddress, emailIdOfBounceAddress, isBounceAddress } from './bounce-address';

const SECRET = 'a'.repeat(64);
const ID = '3f2b8c1e-9d4a-4e6f-8b7c-0a1b2c3d4e5f';

describe('bounce addresses (VERP)', () => {
  it('signs the email id into a local part of at most 64 characters on the bounce subdomain', () => {
    const address = bounceAddress(SECRET, ID, 'example.com');
    expect(address).toMatch(/^bounce\+[0-9a-f]{56}@bounces\.example\.com$/);
    expect(address.slice(0, address.indexOf('@')).length).toBeLessThanOrEqual(64);
    expect(emailIdOfBounceAddress(SECRET, address)).toBe(ID);
    // A server that changes the address's case still reaches the email.
    expect(emailIdOfBounceAddress(SECRET, address.toUpperCase())).toBe(ID);
  });

  it('answers null for another secret, a tampered token or an address of another shape', () => {
    const address = bounceAddress(SECRET, ID, 'example.com');
    expect(emailIdOfBounceAddress('b'.repeat(64), address)).toBeNull();
    const token = address.slice(7, address.indexOf('@'));
    const tampered = `bounce+${token.slice(0, 3)}${token[3] === 'a' ? 'b' : 'a'}${token.slice(4)}@bounces.example.com`;
    expect(emailIdOfBounceAddress(SECRET, tampered)).toBeNull();
    expect(emailIdOfBounceAddress(SECRET, 'bounce+@bounces.example.com')).toBeNull();
    expect(emailIdOfBounceAddress(SECRET, `support@example.com`)).toBeNull();
    expect(isBounceAddress('support@example.com')).toBe(false);
    expect(isBounceAddress('bounce+forged@bounces.example.com')).toBe(true);
  });
});
