import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MailroomApiError } from './api-client';

/**
 * A tool's answer: compact JSON as text (what every client shows the model) and the same value
 * as `structuredContent` (an object: a bare array is wrapped as `{ data }`).
 */
export function jsonResult(value: unknown): CallToolResult {
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { data: value };
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: structured };
}

/** A readable refusal or failure the model can act on (`isError: true`), not a protocol error. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * An API error as a tool error: the envelope's message, its code and HTTP status, one line per
 * invalid field (422), the suggestion and the request id to quote.
 */
export function apiErrorResult(error: MailroomApiError): CallToolResult {
  const status = error.status === null ? error.code : `${error.code}, HTTP ${error.status}`;
  const lines = [`Mailroom refused the request: ${error.message} (${status})`];
  for (const item of error.fieldErrors) lines.push(`- ${item.field ?? '(body)'}: ${item.message ?? 'invalid'}${item.code ? ` [${item.code}]` : ''}`);
  if (error.suggestion) lines.push(`Suggestion: ${error.suggestion}`);
  if (error.requestId) lines.push(`Request id: ${error.requestId}`);
  return errorResult(lines.join('\n'));
}

/** Runs a tool body; an API error becomes a readable tool error, anything else propagates (the SDK reports it). */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof MailroomApiError) return apiErrorResult(err);
    throw err;
  }
}
