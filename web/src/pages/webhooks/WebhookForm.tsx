import { type FormEvent, useState } from 'react';
import { useEventNames } from '../../api/segments';
import type { CreateWebhookBody } from '../../api/webhooks';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { CheckboxField, TextField } from '../../components/Fields';
import { fieldError } from '../../lib/forms';
import { EventPicker } from './EventPicker';
import { minimalEvents } from './events';

/**
 * An endpoint's URL, description and events (and, on creation, whether it starts enabled). The
 * API validates each (422 per field: scheme, length, empty or malformed events), shown beside it.
 */
export function WebhookForm({
  initial,
  creating,
  error,
  pending,
  submitLabel,
  pendingLabel,
  onSubmit,
}: {
  initial?: { url: string; description: string | null; events: string[] };
  creating: boolean;
  error: unknown;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  onSubmit: (body: CreateWebhookBody) => void;
}) {
  const names = useEventNames();
  const [events, setEvents] = useState<string[]>(initial?.events ?? []);
  const [localError, setLocalError] = useState<string>();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const chosen = minimalEvents(events);
    if (chosen.length === 0) return setLocalError('Pick at least one event.');
    setLocalError(undefined);
    const description = String(f.get('description') ?? '').trim();
    onSubmit({
      url: String(f.get('url') ?? '').trim(),
      events: chosen,
      description: description || (creating ? undefined : null),
      ...(creating ? { enabled: f.get('enabled') === 'on' } : {}),
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={creating ? 'New endpoint' : 'Endpoint settings'}>
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        required
        defaultValue={initial?.url}
        placeholder="https://example.com/webhooks/mailroom"
        hint="Where we POST each event as JSON. Any 2xx answer counts as received."
        error={fieldError(error, 'url')}
      />
      <TextField label="Description (optional)" name="description" defaultValue={initial?.description ?? ''} placeholder="CRM sync" error={fieldError(error, 'description')} />
      <EventPicker value={events} onChange={setEvents} projectNames={names.data ?? []} error={localError ?? fieldError(error, 'events')} />
      {creating && <CheckboxField label="Start sending right away" name="enabled" defaultChecked hint="Leave it off to turn it on later." />}
      <ErrorMessage error={error} fields={['url', 'description', 'events']} title={creating ? 'Could not add the endpoint' : 'Could not save'} />
      <Button type="submit" variant="primary" pending={pending} pendingLabel={pendingLabel}>
        {submitLabel}
      </Button>
    </form>
  );
}
