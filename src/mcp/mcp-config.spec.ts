import { loadMcpConfig, McpConfigError } from './mcp-config';

describe('loadMcpConfig', () => {
  const base = { MAILROOM_URL: 'https://mail.example.com/', MAILROOM_API_KEY: 'sk_abc' };

  it('reads the URL without its trailing slash, keeping a path prefix', () => {
    expect(loadMcpConfig(base)).toEqual({ baseUrl: 'https://mail.example.com', apiKey: 'sk_abc', readOnly: false });
    expect(loadMcpConfig({ ...base, MAILROOM_URL: 'http://10.0.0.5:8080/mailroom//' }).baseUrl).toBe('http://10.0.0.5:8080/mailroom');
  });

  it.each([
    ['true', true],
    ['1', true],
    ['YES', true],
    ['false', false],
    ['0', false],
    ['', false],
  ])('reads MAILROOM_MCP_READ_ONLY=%j as %j', (value, readOnly) => {
    expect(loadMcpConfig({ ...base, MAILROOM_MCP_READ_ONLY: value }).readOnly).toBe(readOnly);
  });

  it.each([
    [{ MAILROOM_API_KEY: 'sk_abc' }, 'MAILROOM_URL is required'],
    [{ ...base, MAILROOM_URL: 'mail.example.com' }, 'MAILROOM_URL is not a valid URL'],
    [{ ...base, MAILROOM_URL: 'file:///tmp/x' }, 'MAILROOM_URL must be an http:// or https:// URL'],
    [{ ...base, MAILROOM_URL: 'https://mail.example.com/?a=1' }, 'must not have a query'],
    [{ MAILROOM_URL: base.MAILROOM_URL }, 'MAILROOM_API_KEY is required'],
    [{ ...base, MAILROOM_API_KEY: 'pk_abc' }, 'public key'],
    [{ ...base, MAILROOM_API_KEY: 'abc' }, 'starting with sk_'],
    [{ ...base, MAILROOM_MCP_READ_ONLY: 'on' }, 'MAILROOM_MCP_READ_ONLY must be true or false'],
  ])('refuses %j', (env, message) => {
    expect(() => loadMcpConfig(env)).toThrow(McpConfigError);
    expect(() => loadMcpConfig(env)).toThrow(message);
  });

  it('never echoes the key', () => {
    expect(() => loadMcpConfig({ ...base, MAILROOM_API_KEY: 'secret-value' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('secret-value') }));
  });
});
