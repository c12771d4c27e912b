import { generateKeyPairSync } from 'node:crypto';
import { X509Certificate } from 'node:crypto';
import { selfSignedCertificate, snsStringToSign, SnsEnvelope } from '../../../../test/support/sns';
import { canonicalString, hostMatches, parseSnsMessage, SnsMessage, verifySnsSignature } from './sns-message';
import { createSign } from 'node:crypto';

describe('SNS messages', () => {
  const { pem, privateKey } = selfSignedCertificate();

  function signed(partial: Partial<SnsEnvelope>, version: '1' | '2'): SnsMessage {
    const base = {
      Type: 'Notification',
      MessageId: 'm-1',
      TopicArn: 'arn:aws:sns:us-east-1:1:t',
      Message: '{"a":1}',
      Timestamp: '2026-01-01T00:00:00.000Z',
      SignatureVersion: version,
      SigningCertURL: 'https://sns.us-east-1.amazonaws.com/c.pem',
      Signature: '',
      ...partial,
    } as SnsEnvelope;
    const signer = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
    signer.update(snsStringToSign(base));
    return { ...base, Signature: signer.sign(privateKey, 'base64') } as SnsMessage;
  }

  it('builds a certificate node can parse', () => {
    expect(new X509Certificate(pem).subject).toContain('sns.test.amazonaws.com');
  });

  it('verifies SignatureVersion 1 and 2, with and without Subject', () => {
    expect(verifySnsSignature(signed({}, '1'), pem)).toBe(true);
    expect(verifySnsSignature(signed({}, '2'), pem)).toBe(true);
    expect(verifySnsSignature(signed({ Subject: 'Hello' }, '2'), pem)).toBe(true);
  });

  it('rejects tampering, unknown versions and other keys', () => {
    expect(verifySnsSignature({ ...signed({}, '1'), Message: '{"a":2}' }, pem)).toBe(false);
    expect(verifySnsSignature({ ...signed({}, '1'), SignatureVersion: '3' }, pem)).toBe(false);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const message = signed({}, '2');
    const forged = createSign('RSA-SHA256').update(canonicalString(message)).sign(other, 'base64');
    expect(verifySnsSignature({ ...message, Signature: forged }, pem)).toBe(false);
  });

  it('signs confirmations over Token and SubscribeURL', () => {
    const m = signed({ Type: 'SubscriptionConfirmation', Token: 't', SubscribeURL: 'https://sns.x.amazonaws.com/?a' }, '1');
    expect(canonicalString(m)).toContain('SubscribeURL\nhttps://sns.x.amazonaws.com/?a\nTimestamp');
    expect(verifySnsSignature(m, pem)).toBe(true);
    expect(verifySnsSignature({ ...m, SubscribeURL: 'https://evil.example/' }, pem)).toBe(false);
  });

  it('parses text bodies and names what is missing', () => {
    expect(parseSnsMessage('nope')).toBe('Body is not JSON');
    expect(parseSnsMessage('{"Type":"Notification"}')).toBe('SNS message lacks MessageId');
    expect(typeof parseSnsMessage(JSON.stringify(signed({}, '1')))).toBe('object');
  });

  it('matches hosts one label per wildcard', () => {
    const patterns = ['sns.*.amazonaws.com'];
    expect(hostMatches('sns.us-east-1.amazonaws.com', patterns)).toBe(true);
    expect(hostMatches('SNS.eu-west-1.amazonaws.com.', patterns)).toBe(true);
    expect(hostMatches('sns.evil.com.amazonaws.com', patterns)).toBe(false);
    expect(hostMatches('sns.x.amazonaws.com.evil.com', patterns)).toBe(false);
    expect(hostMatches('evil.com', patterns)).toBe(false);
    expect(hostMatches('127.0.0.1', ['127.0.0.1'])).toBe(true);
  });
});
