import { errorFromResponse, MailroomApiError } from './api-client';
import { apiErrorResult, guarded, jsonResult } from './tool-result';

const textOf = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((c) => c.text).join('\n');

describe('tool results', () => {
  it('answers JSON as text and as structured content (a bare array wrapped as { data })', () => {
    expect(jsonResult({ a: 1 })).toEqual({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(jsonResult([1, 2]).structuredContent).toEqual({ data: [1, 2] });
  });

  it("renders the API's envelope: message, code, status, one line per field, suggestion and request id", () => {
    const envelope = {
      success: false,
      message: 'Request validation failed',
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        statusCode: 422,
        requestId: 'req-1',
        errors: [
          { field: 'to[1].email', code: 'invalid_string', message: 'to[1].email must be an email address', received: 'x' },
          { field: 'subject', message: 'subject is required' },
        ],
        suggestion: 'Fix the fields named',
      },
    };
    const result = apiErrorResult(errorFromResponse('POST', '/v1/send', 422, envelope, JSON.stringify(envelope)));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      [
        'Mailroom refused the request: Request validation failed (VALIDATION_ERROR, HTTP 422)',
        '- to[1].email: to[1].email must be an email address [invalid_string]',
        '- subject: subject is required',
        'Suggestion: Fix the fields named',
        'Request id: req-1',
      ].join('\n'),
    );
  });

  it('renders a short { error } body and a body that is not JSON', () => {
    expect(textOf(apiErrorResult(errorFromResponse('POST', '/segments', 400, { error: 'condition is required' }, '')))).toBe('Mailroom refused the request: condition is required (HTTP_400, HTTP 400)');
    expect(textOf(apiErrorResult(errorFromResponse('GET', '/contacts', 502, 'Bad Gateway', 'Bad Gateway')))).toBe(
      'Mailroom refused the request: GET /contacts answered HTTP 502: Bad Gateway (HTTP_502, HTTP 502)',
    );
  });

  it('turns API errors into tool errors and lets other errors through', async () => {
    const refused = await guarded(() => Promise.reject(new MailroomApiError('GET /x: Mailroom did not answer within 1 s', null, 'TIMEOUT')));
    expect(refused).toEqual({ content: [{ type: 'text', text: 'Mailroom refused the request: GET /x: Mailroom did not answer within 1 s (TIMEOUT)' }], isError: true });
    await expect(guarded(() => Promise.reject(new TypeError('bug')))).rejects.toThrow('bug');
  });
});
