import { readRecipientToken, recipientToken } from './recipient-token';
import { confirmToken, readConfirmToken } from './confirm-token';
import { signToken, verifyToken } from './signed-token';
import { clickPath, readClickToken, readOpenToken } from './tracking-links';

const SECRET = 'a'.repeat(64);

describe('signed tokens', () => {
  it('round-trips and binds the purpose and the secret', () => {
    const token = signToken(SECRET, 'recipient', ['p', 'c']);
    expect(verifyToken(SECRET, 'recipient', token, 2)).toEqual(['p', 'c']);
    expect(verifyToken(SECRET, 'click', token, 2)).toBeNull();
    expect(verifyToken('b'.repeat(64), 'recipient', token, 2)).toBeNull();
  });

  it('rejects any changed character', () => {
    const token = recipientToken(SECRET, '7d1c0a52-3a51-4d3c-9e0e-1b2f2f1e2a33', 'cnt_0123456789abcdef0123456789abcdef');
    expect(readRecipientToken(SECRET, token)).toEqual({ projectId: '7d1c0a52-3a51-4d3c-9e0e-1b2f2f1e2a33', contactId: 'cnt_0123456789abcdef0123456789abcdef' });
    for (const i of [0, 10, token.length - 1]) {
      const flipped = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
      expect(readRecipientToken(SECRET, flipped)).toBeNull();
    }
    expect(readRecipientToken(SECRET, token.slice(0, -1))).toBeNull();
    expect(readRecipientToken(SECRET, '../etc')).toBeNull();
  });

  it('click tokens only ever yield http(s) targets', () => {
    const ok = clickPath(SECRET, 'e', 'https://example.com/x?y=1').slice('/t/c/'.length);
    expect(readClickToken(SECRET, ok)).toEqual({ emailId: 'e', url: 'https://example.com/x?y=1' });
    const js = clickPath(SECRET, 'e', 'javascript:alert(1)').slice('/t/c/'.length);
    expect(readClickToken(SECRET, js)).toBeNull();
    expect(readOpenToken(SECRET, ok + '.gif')).toBeNull();
  });
});

describe('confirmation tokens', () => {
  const P = '7d1c0a52-3a51-4d3c-9e0e-1b2f2f1e2a33';
  const C = 'cnt_0123456789abcdef0123456789abcdef';

  it('are valid until they expire, then read as expired', () => {
    const token = confirmToken(SECRET, P, C, new Date(10_000_000));
    expect(readConfirmToken(SECRET, token, 9_999_000)).toEqual({ projectId: P, contactId: C });
    expect(readConfirmToken(SECRET, token, 10_000_000)).toBe('expired');
  });

  it('refuse tampering and recipient tokens', () => {
    const token = confirmToken(SECRET, P, C, new Date(10_000_000));
    const tampered = token.slice(0, 3) + (token[3] === 'A' ? 'B' : 'A') + token.slice(4);
    expect(readConfirmToken(SECRET, tampered, 0)).toBeNull();
    expect(readConfirmToken(SECRET, recipientToken(SECRET, P, C), 0)).toBeNull();
    expect(readRecipientToken(SECRET, token)).toBeNull();
  });
});
