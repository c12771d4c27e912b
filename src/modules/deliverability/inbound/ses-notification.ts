/** The parts of SES notifications (SNS `Message` JSON) that Mailroom reads. */
export interface SesMail {
  messageId?: string;
  timestamp?: string;
  source?: string;
  destination?: string[];
  commonHeaders?: { messageId?: string; subject?: string; from?: string[]; to?: string[] };
}

export interface SesNotification {
  /** Identity notifications use `notificationType`; configuration-set event publishing uses `eventType`. */
  notificationType?: string;
  eventType?: string;
  mail?: SesMail;
  bounce?: {
    bounceType?: string;
    bounceSubType?: string;
    bouncedRecipients?: Array<{ emailAddress?: string; diagnosticCode?: string }>;
    timestamp?: string;
  };
  complaint?: { complainedRecipients?: Array<{ emailAddress?: string }>; complaintFeedbackType?: string; timestamp?: string };
  delivery?: { recipients?: string[]; timestamp?: string; smtpResponse?: string };
  receipt?: { recipients?: string[]; timestamp?: string; spamVerdict?: { status?: string }; virusVerdict?: { status?: string } };
}

export function parseSesNotification(message: string): SesNotification | null {
  try {
    const value: unknown = JSON.parse(message);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as SesNotification) : null;
  } catch {
    return null;
  }
}

export const sesKind = (n: SesNotification): string | undefined => n.notificationType ?? n.eventType;

/** A parseable timestamp or now. */
export function sesTime(value: string | undefined): Date {
  const parsed = value ? new Date(value) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : new Date();
}

/** `Name <a@b.c>` → `a@b.c`, lowercased. */
export function bareAddress(value: string): string {
  const match = /<([^>]+)>/.exec(value);
  return (match ? match[1] : value).trim().toLowerCase();
}
