import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createPrivateKey, createSign, KeyObject, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Signed SNS fixtures for e2e tests: a self-signed X.509 certificate (a checked-in PEM pair),
 * messages signed exactly as Amazon SNS signs them, and a loopback HTTP server that serves the
 * certificate and records SubscribeURL visits.
 */

/**
 * test/support/fixtures/sns-test-{cert,key}.pem: RSA 2048, CN=sns.test.amazonaws.com, valid
 * 2025-01-01 to 2125-01-01, made once with OpenSSL 3:
 *   openssl req -new -newkey rsa:2048 -nodes -subj "/CN=sns.test.amazonaws.com" -keyout sns-test-key.pem -out req.csr
 *   openssl ca -batch -config ca.cnf -selfsign -keyfile sns-test-key.pem -in req.csr \
 *     -startdate 20250101000000Z -enddate 21250101000000Z -notext -out sns-test-cert.pem
 * (ca.cnf: a `[ca]` with database, serial, new_certs_dir, default_md = sha256 and a policy
 * requiring only commonName).
 */
const FIXTURES = join(__dirname, 'fixtures');
const certificate = { pem: readFileSync(join(FIXTURES, 'sns-test-cert.pem'), 'utf8'), privateKey: createPrivateKey(readFileSync(join(FIXTURES, 'sns-test-key.pem'))) };

/** The test certificate (subject CN=sns.test.amazonaws.com) and its private key. */
export function selfSignedCertificate(): { pem: string; privateKey: KeyObject } {
  return certificate;
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
