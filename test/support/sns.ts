import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createSign, generateKeyPairSync, KeyObject, randomBytes, randomUUID, sign as signData } from 'node:crypto';

/**
 * Signed SNS fixtures for e2e tests: a self-signed X.509 certificate (built with a few lines of
 * DER, no dependency), messages signed exactly as Amazon SNS signs them, and a loopback HTTP
 * server that serves the certificate and records SubscribeURL visits.
 */

// Minimal DER encoding, enough for one certificate.
function der(tag: number, content: Buffer): Buffer {
  const len = content.length;
  const header =
    len < 0x80 ? Buffer.from([tag, len]) : len < 0x100 ? Buffer.from([tag, 0x81, len]) : Buffer.from([tag, 0x82, len >> 8, len & 0xff]);
  return Buffer.concat([header, content]);
}
const seq = (...items: Buffer[]) => der(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => der(0x31, Buffer.concat(items));
/** A non-negative DER INTEGER: minimal encoding (no redundant leading zero bytes), zero-padded when the high bit is set. */
function integer(value: Buffer): Buffer {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  const minimal = value.subarray(start);
  return der(0x02, minimal[0] & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}
const utf8 = (value: string) => der(0x0c, Buffer.from(value, 'utf8'));
const nullValue = Buffer.from([0x05, 0x00]);
function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a * 40 + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}
function utcTime(date: Date): Buffer {
  const iso = date.toISOString();
  return der(0x17, Buffer.from(`${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`));
}

export function selfSignedCertificate(commonName = 'sns.test.amazonaws.com'): { pem: string; privateKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const algorithm = seq(oid('1.2.840.113549.1.1.11'), nullValue); // sha256WithRSAEncryption
  const name = seq(set(seq(oid('2.5.4.3'), utf8(commonName))));
  const now = Date.now();
  const tbs = seq(
    der(0xa0, integer(Buffer.from([2]))), // v3
    integer(randomBytes(8)),
    algorithm,
    name,
    seq(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 7 * 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = signData('sha256', tbs, privateKey);
  const cert = seq(tbs, algorithm, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const body = cert.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return { pem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`, privateKey };
}

export interface SnsEnvelope {
  Type: 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: '1' | '2';
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  Token?: string;
  SubscribeURL?: string;
  UnsubscribeURL?: string;
}

/** Exactly SNS's string to sign: `Key\nValue\n` over a fixed key list per message type. */
export function snsStringToSign(m: SnsEnvelope): string {
  const keys =
    m.Type === 'Notification'
      ? ['Message', 'MessageId', ...(m.Subject !== undefined ? ['Subject'] : []), 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  return keys.map((k) => `${k}\n${(m as unknown as Record<string, string>)[k]}\n`).join('');
}

export interface SnsTestKit {
  /** Host to allow with SNS_CERT_HOSTS. */
  host: string;
  baseUrl: string;
  certUrl: string;
  /** SubscribeURL visits: the `Token` query parameter of each. */
  confirmations: string[];
  /** Certificate downloads (to check caching). */
  certFetches: number;
  notification(message: unknown, options?: { signatureVersion?: '1' | '2'; subject?: string; messageId?: string; certUrl?: string; privateKey?: KeyObject }): SnsEnvelope;
  subscriptionConfirmation(options?: { signatureVersion?: '1' | '2' }): SnsEnvelope;
  sign(envelope: Omit<SnsEnvelope, 'Signature'>, privateKey?: KeyObject): SnsEnvelope;
  close(): Promise<void>;
}

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:mailroom-ses';

export async function startSnsTestKit(): Promise<SnsTestKit> {
  const { pem, privateKey } = selfSignedCertificate();
  const kit = { confirmations: [] as string[], certFetches: 0 };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/SimpleNotificationService-test.pem') {
      kit.certFetches += 1;
      res.writeHead(200, { 'Content-Type': 'application/x-pem-file' }).end(pem);
    } else if (url.pathname === '/confirm') {
      kit.confirmations.push(url.searchParams.get('Token') ?? '');
      res.writeHead(200, { 'Content-Type': 'text/xml' }).end('<ConfirmSubscriptionResponse/>');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const certUrl = `${baseUrl}/SimpleNotificationService-test.pem`;

  const sign = (envelope: Omit<SnsEnvelope, 'Signature'>, key: KeyObject = privateKey): SnsEnvelope => {
    const unsigned = { ...envelope, Signature: '' } as SnsEnvelope;
    const signer = createSign(envelope.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
    signer.update(snsStringToSign(unsigned), 'utf8');
    return { ...unsigned, Signature: signer.sign(key, 'base64') };
  };

  return {
    host: '127.0.0.1',
    baseUrl,
    certUrl,
    get confirmations() {
      return kit.confirmations;
    },
    get certFetches() {
      return kit.certFetches;
    },
    sign,
    notification(message, options = {}) {
      return sign(
        {
          Type: 'Notification',
          MessageId: options.messageId ?? randomUUID(),
          TopicArn: TOPIC,
          ...(options.subject !== undefined ? { Subject: options.subject } : {}),
          Message: typeof message === 'string' ? message : JSON.stringify(message),
          Timestamp: new Date().toISOString(),
          SignatureVersion: options.signatureVersion ?? '1',
          SigningCertURL: options.certUrl ?? certUrl,
          UnsubscribeURL: `${baseUrl}/unsubscribe`,
        },
        options.privateKey,
      );
    },
    subscriptionConfirmation(options = {}) {
      const token = randomBytes(16).toString('hex');
      return sign({
        Type: 'SubscriptionConfirmation',
        MessageId: randomUUID(),
        Token: token,
        TopicArn: TOPIC,
        Message: `You have chosen to subscribe to the topic ${TOPIC}.`,
        SubscribeURL: `${baseUrl}/confirm?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(TOPIC)}&Token=${token}`,
        Timestamp: new Date().toISOString(),
        SignatureVersion: options.signatureVersion ?? '1',
        SigningCertURL: certUrl,
      });
    },
    close: () => {
      // The app's fetch keeps connections alive; without this, close() would wait for them.
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** SES notification bodies (the SNS `Message`) for one sent email. */
export const ses = {
  bounce: (messageId: string, recipient: string, bounceType: 'Permanent' | 'Transient' = 'Permanent') => ({
    notificationType: 'Bounce',
    bounce: {
      bounceType,
      bounceSubType: bounceType === 'Permanent' ? 'General' : 'MailboxFull',
      bouncedRecipients: [{ emailAddress: recipient, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
      timestamp: new Date().toISOString(),
      feedbackId: randomUUID(),
    },
    mail: { timestamp: new Date().toISOString(), messageId, source: 'sender@example.com', destination: [recipient] },
  }),
  complaint: (messageId: string, recipient: string) => ({
    notificationType: 'Complaint',
    complaint: { complainedRecipients: [{ emailAddress: recipient }], complaintFeedbackType: 'abuse', timestamp: new Date().toISOString(), feedbackId: randomUUID() },
    mail: { timestamp: new Date().toISOString(), messageId, source: 'sender@example.com', destination: [recipient] },
  }),
  delivery: (messageId: string, recipient: string) => ({
    notificationType: 'Delivery',
    delivery: { timestamp: new Date().toISOString(), recipients: [recipient], smtpResponse: '250 2.0.0 OK', processingTimeMillis: 100 },
    mail: { timestamp: new Date().toISOString(), messageId, source: 'sender@example.com', destination: [recipient] },
  }),
  received: (from: string, to: string, subject: string) => ({
    notificationType: 'Received',
    receipt: { timestamp: new Date().toISOString(), recipients: [to], spamVerdict: { status: 'PASS' }, virusVerdict: { status: 'PASS' }, action: { type: 'SNS' } },
    mail: { timestamp: new Date().toISOString(), messageId: randomUUID(), source: from, destination: [to], commonHeaders: { from: [from], to: [to], subject } },
  }),
};
