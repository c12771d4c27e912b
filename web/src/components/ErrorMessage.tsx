import { ApiError } from '../api/errors';
import { isShownAtField } from '../lib/forms';

export interface ErrorMessageProps {
  error: unknown;
  /** Fields the form shows errors at: an error naming one of them is not repeated here. */
  fields?: readonly string[];
  /** Words before the API's message, e.g. "Could not save the template". */
  title?: string;
}

/**
 * The API's error in words, next to what caused it: put it under the form or action that sent
 * the request. Shows the message, the suggestion and the request id (for support).
 */
export function ErrorMessage({ error, fields = [], title }: ErrorMessageProps) {
  if (!error || isShownAtField(error, fields)) return null;
  const api = error instanceof ApiError ? error : null;
  const message = error instanceof Error ? error.message : String(error);
  const unshown = api?.fieldErrors.filter((e) => !fields.some((f) => e.field === f || e.field.startsWith(`${f}.`))) ?? [];
  return (
    <div className="error-message" role="alert">
      <p>
        {title && <strong>{title}: </strong>}
        {message}
      </p>
      {unshown.length > 0 && (
        <ul>
          {unshown.map((e) => (
            <li key={`${e.field}:${e.message}`}>
              {e.field ? <code>{e.field}</code> : null} {e.message}
            </li>
          ))}
        </ul>
      )}
      {api?.suggestion && <p className="error-suggestion">{api.suggestion}</p>}
      {api?.requestId && <p className="error-request-id">Request id: {api.requestId}</p>}
    </div>
  );
}
