import { createRequire } from 'node:module';

const load = createRequire(__filename);
let domains: ReadonlySet<string> | undefined;

/**
 * Free-mail providers (gmail.com, proton.me, …) from the maintained `free-email-domains-list`
 * package (about 100k names, updated weekly): its `DOMAINS` Set, loaded once, on first use.
 * Exact names, as the package's own `isFreeEmail` compares them.
 */
export function isFreeEmailDomain(domain: string): boolean {
  domains ??= (load('free-email-domains-list') as { DOMAINS: ReadonlySet<string> }).DOMAINS;
  return domains.has(domain);
}
