/** Mailbox providers people mistype most; exact members are never "typos" of each other. */
export const COMMON_PROVIDERS = [
  'gmail.com', 'googlemail.com', 'yahoo.com', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'yahoo.es', 'yahoo.it', 'ymail.com',
  'hotmail.com', 'hotmail.co.uk', 'hotmail.fr', 'hotmail.de', 'hotmail.es', 'hotmail.it', 'outlook.com', 'outlook.de',
  'outlook.fr', 'live.com', 'live.co.uk', 'live.fr', 'live.de', 'msn.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com',
  'protonmail.com', 'proton.me', 'pm.me', 'gmx.com', 'gmx.de', 'gmx.net', 'gmx.at', 'web.de', 't-online.de', 'mail.com',
  'email.com',
  'mail.ru', 'yandex.ru', 'yandex.com', 'zoho.com', 'fastmail.com', 'hey.com', 'comcast.net', 'verizon.net', 'att.net',
  'sbcglobal.net', 'btinternet.com', 'orange.fr', 'free.fr', 'laposte.net', 'sfr.fr', 'libero.it', 'virgilio.it',
  'ziggo.nl', 'kpnmail.nl', 'telenet.be', 'skynet.be', 'bluewin.ch', 'qq.com', '163.com', '126.com', 'naver.com',
  'uol.com.br', 'bol.com.br', 'terra.com.br', 'sapo.pt', 'wp.pl', 'o2.pl', 'seznam.cz',
];

/** Misspelt TLDs that are not real TLDs themselves, so correcting them is safe for any domain. */
const TLD_TYPOS: Record<string, string> = {
  con: 'com', cmo: 'com', comm: 'com', cpm: 'com', vom: 'com', xom: 'com', ocm: 'com', coom: 'com', c0m: 'com', cim: 'com',
  comn: 'com', nte: 'net', nett: 'net', ogr: 'org', rog: 'org', orgg: 'org',
};

const PROVIDERS = new Set(COMMON_PROVIDERS);

/** Optimal-string-alignment Damerau-Levenshtein distance (adjacent transpositions count as one edit). */
export function damerauLevenshtein(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * A likely intended domain for a mistyped one, or null. Known providers and unrelated domains
 * are left alone: a provider must be within 1 edit (2 for names of 9+ characters; names
 * shorter than 8 only get TLD fixes, since one edit turns them into unrelated real domains),
 * and the closest one wins.
 */
export function suggestDomain(domain: string): string | null {
  if (PROVIDERS.has(domain)) return null;
  const labels = domain.split('.');
  const tld = labels[labels.length - 1];
  const fixedTld = TLD_TYPOS[tld];
  const candidate = fixedTld ? [...labels.slice(0, -1), fixedTld].join('.') : domain;
  if (PROVIDERS.has(candidate)) return candidate;

  let best: { provider: string; distance: number } | null = null;
  for (const provider of COMMON_PROVIDERS) {
    const limit = provider.length >= 9 ? 2 : provider.length === 8 ? 1 : 0;
    if (limit === 0) continue;
    const distance = damerauLevenshtein(candidate, provider, limit);
    if (distance <= limit && (!best || distance < best.distance)) best = { provider, distance };
  }
  if (best) return best.provider;
  return fixedTld ? candidate : null;
}
