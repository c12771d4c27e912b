import { type FormEvent, useState } from 'react';
import { data } from '../../api/client';
import { useEventNames } from '../../api/segments';
import { useTemplateList } from '../../api/templates';
import { type StepConfig, type TransitionBody, useWorkflowFields, type WorkflowStep } from '../../api/workflows';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SelectField, TextAreaField, TextField } from '../../components/Fields';
import { fieldError, parseJsonObject, useApiMutation } from '../../lib/forms';
import { useApi } from '../../lib/project';
import { stepLabel } from './graph';

type CreatableType = Exclude<WorkflowStep['type'], 'TRIGGER'>;

const CONDITION_OPERATORS = ['equals', 'notEquals', 'contains', 'notContains', 'greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual', 'exists', 'notExists'];

/** "true" → true, "42" → 42, anything else stays text. */
export function parseValue(text: string): unknown {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (t !== '' && Number.isFinite(Number(t))) return Number(t);
  return text;
}

const SHOWN = ['eventName', ...['eventName', 'timeout', 'templateId', 'amount', 'unit', 'field', 'operator', 'value', 'updates', 'subscriptionAction', 'url', 'method', 'headers', 'body', 'reason'].map((k) => `config.${k}`)];

type Built = { config: Record<string, unknown> } | { error: string; field: string };

function build(step: WorkflowStep, f: FormData): Built {
  const s = (k: string) => String(f.get(k) ?? '').trim();
  switch (step.type) {
    case 'TRIGGER':
      return { config: { eventName: s('eventName') } };
    case 'SEND_EMAIL':
      return { config: { templateId: s('templateId') } };
    case 'DELAY':
      return { config: { amount: Number(s('amount')), unit: s('unit') } };
    case 'WAIT_FOR_EVENT':
      return { config: { eventName: s('eventName'), ...(s('timeout') ? { timeout: Number(s('timeout')) } : {}) } };
    case 'CONDITION': {
      const op = s('operator');
      return { config: { field: s('field'), operator: op, ...(op === 'exists' || op === 'notExists' ? {} : { value: parseValue(String(f.get('value') ?? '')) }) } };
    }
    case 'UPDATE_CONTACT': {
      const updates = parseJsonObject(String(f.get('updates') ?? ''));
      if ('error' in updates) return { error: updates.error, field: 'updates' };
      return { config: { updates: updates.value, subscriptionAction: s('subscriptionAction') } };
    }
    case 'WEBHOOK': {
      const headers = parseJsonObject(String(f.get('headers') ?? ''));
      if ('error' in headers) return { error: headers.error, field: 'headers' };
      const bodyText = String(f.get('body') ?? '');
      let body: unknown = undefined;
      if (bodyText.trim()) {
        try {
          body = JSON.parse(bodyText);
        } catch {
          body = bodyText;
        }
      }
      return { config: { url: s('url'), method: s('method'), ...(Object.keys(headers.value).length ? { headers: headers.value } : {}), ...(body !== undefined ? { body } : {}) } };
    }
    case 'EXIT':
      return { config: s('reason') ? { reason: s('reason') } : {} };
  }
}

/**
 * The config form of one step; saves with PATCH …/steps/:id (the trigger: PATCH the workflow's
 * event name). With `createAt` it adds a new step there (POST …/steps), then connects it with the
 * transition `linkNew` answers for it (POST …/transitions), if any.
 */
export function StepConfigForm({
  workflowId,
  step,
  onSaved,
  createAt,
  linkNew,
}: {
  workflowId: string;
  step: WorkflowStep;
  onSaved: (created?: WorkflowStep) => void;
  createAt?: { x: number; y: number };
  linkNew?: (created: WorkflowStep) => TransitionBody | null;
}) {
  const api = useApi();
  const [local, setLocal] = useState<{ field: string; error: string } | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const templates = useTemplateList({ page: 1, sort: 'updatedAt', dir: 'desc' });
  const events = useEventNames();
  const fields = useWorkflowFields();
  const save = useApiMutation({
    // The config is sent as the form typed it: the API validates it (422 per field, shown beside each input).
    mutationFn: async (body: { name: string; config: Record<string, unknown> }): Promise<WorkflowStep | undefined> => {
      const path = { id: workflowId };
      const config = body.config as StepConfig;
      if (createAt) {
        const created = await data(api.POST('/workflows/{id}/steps', { params: { path }, body: { type: step.type as CreatableType, name: body.name || undefined, config, position: createAt } }));
        const link = linkNew?.(created);
        setLinkError(null);
        if (link) {
          // The step exists whatever happens here: a refused arrow is said, and the step is still shown.
          await data(api.POST('/workflows/{id}/transitions', { params: { path }, body: link })).catch((err: unknown) =>
            setLinkError(`The step was added but not connected: ${err instanceof Error ? err.message : String(err)}`),
          );
        }
        return created;
      }
      if (step.type === 'TRIGGER') await data(api.PATCH('/workflows/{id}', { params: { path }, body: { eventName: String(body.config.eventName ?? '') } }));
      else await data(api.PATCH('/workflows/{id}/steps/{stepId}', { params: { path: { ...path, stepId: step.id } }, body: { name: body.name || null, config } }));
      return undefined;
    },
    onSuccess: (created) => onSaved(created),
  });
  const c: Record<string, unknown> = step.config;
  const err = (k: string) => (local?.field === k ? local.error : (fieldError(save.error, `config.${k}`) ?? fieldError(save.error, k)));
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const built = build(step, f);
    if ('error' in built) return setLocal({ field: built.field, error: built.error });
    setLocal(null);
    void save.submit({ name: String(f.get('stepName') ?? '').trim(), config: built.config });
  };
  const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  return (
    <form onSubmit={onSubmit} noValidate aria-label={createAt ? 'New step' : `${stepLabel(step.type)} settings`}>
      {step.type !== 'TRIGGER' && <TextField label="Step name" name="stepName" defaultValue={step.name ?? ''} placeholder={stepLabel(step.type)} />}
      {(step.type === 'TRIGGER' || step.type === 'WAIT_FOR_EVENT') && (
        <>
          <TextField label="Event name" name="eventName" defaultValue={str(c.eventName)} list={`wf-event-names-${step.id || "new"}`} required error={err('eventName')} hint={step.type === 'TRIGGER' ? 'Every contact that triggers this event (POST /v1/track, or emitted ones like contact.subscribed) enters the workflow.' : 'Goes on along "event" when the contact triggers it.'} />
          <datalist id={`wf-event-names-${step.id || "new"}`}>
            {(events.data ?? []).map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        </>
      )}
      {step.type === 'WAIT_FOR_EVENT' && <TextField label="Timeout (seconds)" name="timeout" type="number" min={1} defaultValue={str(c.timeout)} error={err('timeout')} hint='Goes on along "timeout" after this long. Empty: waits forever.' />}
      {step.type === 'SEND_EMAIL' && (
        <SelectField label="Template" name="templateId" defaultValue={str(c.templateId)} error={err('templateId')} hint={templates.data?.data.length === 0 ? 'No templates yet: create one in Templates first.' : 'Variables: the contact data, {{event.<key>}} and {{workflow.<key>}}.'}>
          <option value="">Choose a template…</option>
          {templates.data?.data.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.type.toLowerCase()})
            </option>
          ))}
        </SelectField>
      )}
      {step.type === 'DELAY' && (
        <div className="two-columns">
          <TextField label="Wait for" name="amount" type="number" min={1} defaultValue={str(c.amount ?? 1)} error={err('amount')} />
          <SelectField label="Unit" name="unit" defaultValue={str(c.unit ?? 'days')} error={err('unit')}>
            <option value="minutes">minutes</option>
            <option value="hours">hours</option>
            <option value="days">days</option>
          </SelectField>
        </div>
      )}
      {step.type === 'CONDITION' && (
        <>
          <TextField label="Field" name="field" defaultValue={str(c.field)} list={`wf-fields-${step.id || "new"}`} error={err('field')} hint="contact.email, contact.subscribed, data.<key>, event.<key> (the trigger's data) or workflow.<key>." />
          <datalist id={`wf-fields-${step.id || "new"}`}>
            {(fields.data?.fields ?? []).map((x) => (
              <option key={x.field} value={x.field}>
                {x.source} · {x.type}
              </option>
            ))}
          </datalist>
          <SelectField label="Operator" name="operator" defaultValue={str(c.operator ?? 'equals')} error={err('operator')}>
            {CONDITION_OPERATORS.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </SelectField>
          <TextField label="Value" name="value" defaultValue={str(c.value)} error={err('value')} hint="true, false and numbers are sent as such." />
        </>
      )}
      {step.type === 'UPDATE_CONTACT' && (
        <>
          <TextAreaField label="Data to set (JSON)" name="updates" rows={4} defaultValue={JSON.stringify(c.updates ?? {}, null, 2)} error={err('updates')} hint='e.g. {"plan": "trial"}; null removes a key.' />
          <SelectField label="Subscription" name="subscriptionAction" defaultValue={str(c.subscriptionAction ?? 'none')} error={err('subscriptionAction')}>
            <option value="none">leave as is</option>
            <option value="subscribe">subscribe</option>
            <option value="unsubscribe">unsubscribe</option>
          </SelectField>
        </>
      )}
      {step.type === 'WEBHOOK' && (
        <>
          <TextField label="URL" name="url" type="url" defaultValue={str(c.url)} error={err('url')} hint="{{variables}} are filled in. Signed with X-Signature (your webhook secret)." />
          <SelectField label="Method" name="method" defaultValue={str(c.method ?? 'POST')} error={err('method')}>
            {['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => (
              <option key={m}>{m}</option>
            ))}
          </SelectField>
          <TextAreaField label="Headers (JSON)" name="headers" rows={2} defaultValue={c.headers ? JSON.stringify(c.headers, null, 2) : ''} error={err('headers')} />
          <TextAreaField label="Body" name="body" rows={4} defaultValue={c.body === undefined ? '' : typeof c.body === 'string' ? c.body : JSON.stringify(c.body, null, 2)} error={err('body')} hint="Empty: {contact, workflow, execution, event}." />
        </>
      )}
      {step.type === 'EXIT' && <TextField label="Exit reason" name="reason" defaultValue={str(c.reason)} error={err('reason')} />}
      <ErrorMessage error={save.error} fields={SHOWN} title={createAt ? 'Could not add the step' : 'Could not save the step'} />
      {linkError && (
        <p className="field-error" role="alert">
          {linkError}
        </p>
      )}
      <Button type="submit" variant="primary" pending={save.isPending} pendingLabel={createAt ? 'Adding…' : 'Saving…'}>
        {createAt ? 'Add step' : 'Save step'}
      </Button>
      {!createAt && save.isSuccess && !save.isPending && <span role="status"> Saved.</span>}
    </form>
  );
}
