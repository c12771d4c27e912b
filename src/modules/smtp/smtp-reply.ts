/**
 * An SMTP refusal: throw (or pass to a smtp-server callback) `smtpReply(550, '5.7.1', 'text', 'reason')`.
 * smtp-server answers `responseCode` with the message, which starts with the enhanced status code
 * (the listeners hide smtp-server's own code table, which maps a reply code to one fixed enhanced
 * code: 550 would always be 5.1.1). `reason` labels the refusal on `/metrics`.
 */
export class SmtpReply extends Error {
  constructor(
    readonly responseCode: number,
    readonly enhancedCode: string,
    text: string,
    readonly reason: string,
  ) {
    super(`${enhancedCode} ${text}`);
    this.name = 'SmtpReply';
  }
}

/** Reply codes are 4xx or 5xx; enhanced codes are class.subject.detail with the same class. */
export function smtpReply(code: number, enhanced: string, text: string, reason: string): SmtpReply {
  if (!/^[45]\d\d$/.test(String(code)) || !new RegExp(`^${String(code)[0]}\\.\\d{1,3}\\.\\d{1,3}$`).test(enhanced)) {
    throw new Error(`not an SMTP refusal: ${code} ${enhanced}`);
  }
  // A reply is one line: client-provided text (an address, a domain) must not split it.
  return new SmtpReply(code, enhanced, text.replace(/[\r\n\t\x00-\x1f\x7f]+/g, ' '), reason);
}

/** The 250 after DATA: `250 2.0.0 <text>`. */
export function smtpAccepted(text: string): string {
  return `2.0.0 ${text}`;
}

export function isSmtpReply(err: unknown): err is SmtpReply {
  return err instanceof SmtpReply;
}
