import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MailroomApi } from './api-client';
import { loadMcpConfig, McpConfigError, type McpConfig } from './mcp-config';
import { registerReadTools } from './read-tools';
import { registerWriteTools } from './write-tools';

/**
 * `npm run mcp` (`node dist/mcp/main.js`): the Model Context Protocol server over stdio, a plain
 * HTTP client of the Mailroom at MAILROOM_URL. stdout carries the protocol only: every
 * diagnostic goes to stderr.
 */
export function createMcpServer(config: McpConfig, version: string): McpServer {
  const server = new McpServer(
    { name: 'mailroom', title: 'Mailroom', version },
    {
      instructions:
        'Tools for a Mailroom project: send transactional email, track events, find and update contacts, and read templates, segments, campaigns, their statistics and activity.' +
        (config.readOnly ? ' This server is read-only: it cannot send or change anything.' : ' send_campaign sends to a whole audience: call it with confirm: true only after the user approved.'),
    },
  );
  const api = new MailroomApi(config.baseUrl, config.apiKey);
  registerReadTools(server, api);
  if (!config.readOnly) registerWriteTools(server, api);
  return server;
}

async function main(): Promise<void> {
  let config: McpConfig;
  try {
    config = loadMcpConfig(process.env);
  } catch (err) {
    if (err instanceof McpConfigError) {
      process.stderr.write(`Mailroom MCP configuration error: ${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  const { version } = require('../../package.json') as { version: string };
  const server = createMcpServer(config, version);
  await server.connect(new StdioServerTransport());
  process.stderr.write(`Mailroom MCP server on stdio for ${config.baseUrl}${config.readOnly ? ' (read-only)' : ''}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`Mailroom MCP server failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
