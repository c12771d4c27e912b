import { createRequire } from 'node:module';
import { domainAndParents } from '../domains';

const load = createRequire(__filename);
let exact: Set<string> | undefined;
let wildcard: Set<string> | undefined;

/** The maintained `disposable-email-domains` lists, loaded on first use (about 120k names). */
export function isDisposableDomain(domain: string): boolean {
  exact ??= new Set(load('disposable-email-domains') as string[]);
  wildcard ??= new Set(load('disposable-email-domains/wildcard.json') as string[]);
  if (exact.has(domain)) return true;
  return domainAndParents(domain).some((parent) => wildcard!.has(parent) || exact!.has(parent));
}
