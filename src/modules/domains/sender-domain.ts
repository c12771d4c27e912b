/**
 * SQL: the sender address in `column` is at the domain in parameter `$n` or one of its
 * subdomains (a display-name form `Name <a@b>` included).
 */
export const SENDER_DOMAIN_MATCHES = (column: string, n: number): string =>
  `(lower(rtrim(split_part(${column}, '@', 2), '> ')) = $${n} OR lower(rtrim(split_part(${column}, '@', 2), '> ')) LIKE '%.' || $${n})`;
