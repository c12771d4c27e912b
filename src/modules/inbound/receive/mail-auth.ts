import { authenticate } from 'mailauth';
import type { DNSResolver } from 'mailauth';
import { logger } from '../../../platform/logging/logger';

const log = logger('inbound-auth');

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

/**
 * SPF, DKIM and DMARC verdicts of a received message by mailauth, with DNS through `resolver`
 * (Mailroom's configured resolvers, so tests stay on loopback). ARC and BIMI are not checked.
 * A check that cannot complete reads `temperror`; it never fails the delivery.
 */
export async function verdictsOf(raw: Buffer, input: AuthInput, resolver: DNSResolver): Promise<AuthVerdicts> {
  try {
    const result = await authenticate(raw, { ip: input.ip, helo: input.helo, sender: input.sender, mta: input.mta, resolver, disableArc: true, disableBimi: true });
    const dkimResults = result.dkim?.results ?? [];
    const dkim = dkimResults.some((r) => r.status?.result === 'pass') ? 'pass' : (dkimResults[0]?.status?.result ?? 'none');
    return {
      spf: (result.spf && result.spf.status?.result) || 'none',
      dkim,
      dmarc: (result.dmarc && result.dmarc.status?.result) || 'none',
    };
  } catch (err) {
    log.warn({ err }, 'authenticating a received message failed');
    return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
  }
}
