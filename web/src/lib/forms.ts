import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { ApiError } from '../api/errors';

/** The form's fields as strings (checkboxes: 'on' when checked, absent otherwise). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  new FormData(form).forEach((value, key) => {
    if (typeof value === 'string') values[key] = value;
  });
  return values;
}

/** The API's message for one field of a form, when the error names that field. */
export function fieldError(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.messageFor(field) : undefined;
}

/**
 * True when the error is shown beside one of the form's own fields, so the form-level
 * message would only repeat it.
 */
export function isShownAtField(error: unknown, fields: readonly string[]): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.fieldErrors.length > 0) return error.fieldErrors.every((e) => fields.some((f) => e.field === f || e.field.startsWith(`${f}.`) || e.field.startsWith(`${f}[`)));
  return error.field !== undefined && fields.includes(error.field);
}

/**
 * useMutation plus `submit(vars)`: ignores calls while one is in flight (a double click sends
 * once, even before React re-renders the disabled button), and never throws — the error is
 * `mutation.error`, shown by the form. Resolves to the data, or undefined when it failed.
 */
export function useApiMutation<TData, TVars = void>(options: UseMutationOptions<TData, ApiError, TVars>) {
  const mutation = useMutation<TData, ApiError, TVars>(options);
  const inFlight = useRef(false);
  const { mutateAsync } = mutation;
  const submit = useCallback(
    async (vars: TVars): Promise<TData | undefined> => {
      if (inFlight.current) return undefined;
      inFlight.current = true;
      try {
        return await mutateAsync(vars);
      } catch {
        return undefined;
      } finally {
        inFlight.current = false;
      }
    },
    [mutateAsync],
  );
  return { ...mutation, submit };
}

/** Parses a `data` editor's JSON text: an object, or a message saying what is wrong. */
export function parseJsonObject(text: string): { value: Record<string, unknown> } | { error: string } {
  if (text.trim() === '') return { value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { error: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: 'Must be a JSON object, like {"plan": "pro"}' };
  return { value: parsed as Record<string, unknown> };
}

/**
 * The `data` patch that turns `before` into `after` under the API's rules: changed and new keys
 * are sent, removed keys are sent as null (which deletes them), unchanged keys are left out.
 */
export function dataPatch(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) patch[key] = value;
  }
  for (const key of Object.keys(before)) if (!(key in after)) patch[key] = null;
  return patch;
}
