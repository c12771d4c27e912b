/**
 * The MCP server's configuration. It is a separate process from the service (a client of its
 * HTTP API, often on another machine), so it reads its own three variables here rather than the
 * service's `src/config/`.
 */
export interface McpConfig {
  /** Base URL of the Mailroom API, without a trailing slash (a path prefix behind a proxy is kept). */
  baseUrl: string;
  apiKey: string;
  readOnly: boolean;
}

export class McpConfigError extends Error {}

type Env = Record<string, string | undefined>;

export function loadMcpConfig(env: Env = process.env): McpConfig {
  const rawUrl = env.MAILROOM_URL?.trim();
  if (!rawUrl) throw new McpConfigError('MAILROOM_URL is required: the base URL of the Mailroom API, e.g. https://mail.example.com');
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new McpConfigError(`MAILROOM_URL is not a valid URL (got "${rawUrl}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new McpConfigError(`MAILROOM_URL must be an http:// or https:// URL (got "${rawUrl}")`);
  if (url.search || url.hash) throw new McpConfigError(`MAILROOM_URL must not have a query or fragment (got "${rawUrl}")`);

  const apiKey = env.MAILROOM_API_KEY?.trim();
  if (!apiKey) throw new McpConfigError("MAILROOM_API_KEY is required: a project's secret key (sk_…)");
  if (apiKey.startsWith('pk_')) throw new McpConfigError("MAILROOM_API_KEY is a public key (pk_…), which can only track events: use the project's secret key (sk_…)");
  // The key's value is never echoed: it is a secret.
  if (!apiKey.startsWith('sk_')) throw new McpConfigError("MAILROOM_API_KEY must be a project's secret key (starting with sk_)");

  const rawReadOnly = env.MAILROOM_MCP_READ_ONLY?.trim();
  let readOnly = false;
  if (rawReadOnly) {
    if (/^(true|1|yes)$/i.test(rawReadOnly)) readOnly = true;
    else if (!/^(false|0|no)$/i.test(rawReadOnly)) throw new McpConfigError(`MAILROOM_MCP_READ_ONLY must be true or false (got "${rawReadOnly}")`);
  }

  return { baseUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}`, apiKey, readOnly };
}
