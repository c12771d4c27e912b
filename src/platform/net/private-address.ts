import * as ipaddr from 'ipaddr.js';

/** 2000::/3, the only IPv6 space assigned for global unicast; everything else is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether outbound HTTP (a workflow WEBHOOK step, an event webhook) may not connect to `address`,
 * an IP literal (brackets and a zone id allowed), unless private targets are allowed by
 * configuration. The one SSRF rule of the service: only public unicast addresses pass, as
 * ipaddr.js classifies them (`range() === 'unicast'`). An IPv4-mapped IPv6 address is judged as
 * its IPv4 address; any other IPv6 address must also lie in 2000::/3, so IPv4-compatible `::a.b.c.d`,
 * NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`), 6to4 (`2002::/16`), Teredo (`2001::/32`) and the
 * documentation, ORCHID and benchmarking ranges, which can all carry or reach an internal IPv4
 * address, are refused. Anything that is not an IP literal is refused.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return true;
  const ip = ipaddr.process(bare);
  if (ip.range() !== 'unicast') return true;
  return ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6);
}
