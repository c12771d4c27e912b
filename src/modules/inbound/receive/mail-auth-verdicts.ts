import { authenticate } from 'mailauth';
import type { DNSResolver } from 'mailauth';

export interface AuthVerdicts {
  spf: string;
  dkim: string;
  dmarc: string;
}

export interface AuthInput {
  /** The connecting client's address. */
  ip: string;
  /** Its EHLO/HELO name. */
  helo: string;
  /** Envelope sender; empty for the null sender. */
  sender: string;
  /** Our host name in Authentication-Results. */
  mta: string;
}

/** What a check that cannot complete reads: it never fails the delivery. */
export const TEMPERROR: AuthVerdicts = { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };

/** DKIM signatures verified per message, the first ones in header order (what large receivers do); the others are ignored. */
export const MAX_DKIM_SIGNATURES = 5;

const DKIM_SIGNATURE = /^dkim-signature[ \t]*:/i;

/**
 * The message with only its first `max` DKIM-Signature fields. Each signature (each distinct
 * `l=`) costs a pass over the body, so the count a sender chooses must not be the count we hash.
 */
export function keepFirstDkimSignatures(raw: Buffer, max: number = MAX_DKIM_SIGNATURES): Buffer {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 2 : lf >= 0 ? lf + 1 : raw.length;
  const head = raw.subarray(0, end).toString('latin1');
  // Fields: a line not starting with white space opens one, folded lines continue it.
  const fields = head.split(/(?<=\n)(?![ \t])/);
  let seen = 0;
  const kept = fields.filter((field) => !DKIM_SIGNATURE.test(field) || ++seen <= max);
  if (kept.length === fields.length) return raw;
  return Buffer.concat([Buffer.from(kept.join(''), 'latin1'), raw.subarray(end)]);
}

/**
 * SPF, DKIM and DMARC verdicts of a received message by mailauth, with DNS through `resolver`.
 * ARC and BIMI are not checked. Runs in the mail-auth worker thread (`MailAuth`), never on the
 * API's event loop: hashing a large body is CPU work.
 */
export async function verdictsOf(raw: Buffer, input: AuthInput, resolver: DNSResolver): Promise<AuthVerdicts> {
  const result = await authenticate(keepFirstDkimSignatures(raw), { ip: input.ip, helo: input.helo, sender: input.sender, mta: input.mta, resolver, disableArc: true, disableBimi: true });
  const dkimResults = result.dkim?.results ?? [];
  const dkim = dkimResults.some((r) => r.status?.result === 'pass') ? 'pass' : (dkimResults[0]?.status?.result ?? 'none');
  return {
    spf: (result.spf && result.spf.status?.result) || 'none',
    dkim,
    dmarc: (result.dmarc && result.dmarc.status?.result) || 'none',
  };
}
