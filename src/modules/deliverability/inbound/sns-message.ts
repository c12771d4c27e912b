import { createVerify } from 'node:crypto';

export type SnsMessageType = 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';

export interface SnsMessage {
  Type: SnsMessageType;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  Token?: string;
  SubscribeURL?: string;
}

const TYPES: SnsMessageType[] = ['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'];
const REQUIRED = ['MessageId', 'TopicArn', 'Message', 'Timestamp', 'SignatureVersion', 'Signature', 'SigningCertURL'] as const;

/** Parses the raw body into an SNS envelope, or explains what is missing. */
export function parseSnsMessage(raw: unknown): SnsMessage | string {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return 'Body is not JSON';
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'Body is not an SNS message';
  const message = value as Record<string, unknown>;
  if (!TYPES.includes(message.Type as SnsMessageType)) return 'Unknown SNS message Type';
  for (const key of REQUIRED) if (typeof message[key] !== 'string') return `SNS message lacks ${key}`;
  if (message.Type !== 'Notification' && (typeof message.Token !== 'string' || typeof message.SubscribeURL !== 'string')) {
    return 'SNS confirmation lacks Token or SubscribeURL';
  }
  if (message.Subject !== undefined && message.Subject !== null && typeof message.Subject !== 'string') return 'SNS Subject must be a string';
  return message as unknown as SnsMessage;
}

/** The string SNS signs: `Key\nValue\n` for a fixed, per-type list of keys (Subject only when present). */
export function canonicalString(message: SnsMessage): string {
  const keys =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', ...(typeof message.Subject === 'string' ? ['Subject'] : []), 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  return keys.map((key) => `${key}\n${(message as unknown as Record<string, string>)[key]}\n`).join('');
}

/** SignatureVersion 1 is SHA1withRSA, 2 is SHA256withRSA; anything else is refused. */
export function verifySnsSignature(message: SnsMessage, certificatePem: string): boolean {
  const algorithm = message.SignatureVersion === '1' ? 'RSA-SHA1' : message.SignatureVersion === '2' ? 'RSA-SHA256' : null;
  if (!algorithm) return false;
  try {
    return createVerify(algorithm).update(canonicalString(message), 'utf8').verify(certificatePem, message.Signature, 'base64');
  } catch {
    return false;
  }
}

/** `sns.*.amazonaws.com`: each `*` stands for exactly one DNS label. */
export function hostMatches(host: string, patterns: string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return patterns.some((pattern) => {
    const regex = new RegExp(`^${pattern.toLowerCase().split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[a-z0-9-]+')}$`);
    return regex.test(name);
  });
}
