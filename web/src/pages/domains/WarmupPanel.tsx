import { useQueryClient } from '@tanstack/react-query';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import type { Domain } from '../../api/types';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { CheckboxField, TextField } from '../../components/Fields';
import { Badge } from '../../components/Feedback';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { useApi, useProjectId } from '../../lib/project';

type WarmupBody = { enabled: boolean; startPerDay?: number; growthPercent?: number; maxPerDay?: number | null };

const FIELDS = ['warmup', 'warmup.enabled', 'warmup.startPerDay', 'warmup.growthPercent', 'warmup.maxPerDay'];

/** A number field as the API reads it: left out when blank (kept), else the number typed (the API names what is wrong with it). */
const numberOrKeep = (value: string | undefined): number | undefined => (value === undefined || value.trim() === '' ? undefined : Number(value));

/**
 * Warm-up of one domain (docs/delivery-control.md, "Domain warm-up"): the settings, today's count
 * against the cap, and the schedule of the next two weeks as the API computes it.
 */
export function WarmupPanel({ domain }: { domain: Domain }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const w = domain.warmup;
  const save = useApiMutation({
    mutationFn: (warmup: WarmupBody) => data(api.PATCH('/domains/{id}', { params: { path: { id: domain.id } }, body: { warmup } })),
    onSuccess: (next) => queryClient.setQueryData<Domain[]>(qk.p(projectId, 'domains'), (list) => (list ?? []).map((d) => (d.id === next.id ? next : d))),
  });
  return (
    <section className="warmup" style={{ marginTop: '1.5rem' }} aria-label={`Warm-up of ${domain.domain}`}>
      <h3>
        Warm-up {w.enabled ? <Badge tone="good">On</Badge> : <Badge>Off</Badge>}
      </h3>
      <p className="muted">
        A new domain earns its reputation slowly: campaign and workflow email from it is capped per UTC day, and what is over the cap waits for the next day. Transactional email is never
        held, but it counts.
      </p>
      {w.enabled && w.day !== null && (
        <p role="status">
          Day {w.day}: {w.sentToday} of {w.capToday} sent today.{' '}
          {w.completeAt ? `The warm-up reaches its ceiling on ${formatDate(w.completeAt)}.` : 'Without a ceiling the cap keeps growing.'}
        </p>
      )}
      <form
        className="inline-form"
        key={`${domain.id}-${w.enabled}-${w.startPerDay}-${w.growthPercent}-${w.maxPerDay ?? ''}`}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          const max = v.maxPerDay?.trim() ?? '';
          void save.submit({ enabled: v.enabled === 'on', startPerDay: numberOrKeep(v.startPerDay), growthPercent: numberOrKeep(v.growthPercent), maxPerDay: max === '' ? null : Number(max) });
        }}
      >
        <CheckboxField label="Warm up this domain" name="enabled" defaultChecked={w.enabled} error={fieldError(save.error, 'warmup.enabled')} />
        <TextField label="Emails on day 0" name="startPerDay" type="number" min={1} defaultValue={w.startPerDay} error={fieldError(save.error, 'warmup.startPerDay')} />
        <TextField label="Daily growth (%)" name="growthPercent" type="number" min={1} max={100} defaultValue={w.growthPercent} error={fieldError(save.error, 'warmup.growthPercent')} />
        <TextField
          label="Daily ceiling"
          name="maxPerDay"
          type="number"
          min={1}
          defaultValue={w.maxPerDay ?? ''}
          hint="Leave empty for no ceiling."
          error={fieldError(save.error, 'warmup.maxPerDay')}
        />
        <Button type="submit" pending={save.isPending} pendingLabel="Saving…">
          Save warm-up
        </Button>
      </form>
      <ErrorMessage error={save.error} fields={FIELDS} title="Could not save the warm-up" />
      <div className="table-wrap">
        <table>
          <caption className={w.enabled ? 'visually-hidden' : 'muted'}>
            {w.enabled ? `Warm-up schedule of ${domain.domain}` : `Warm-up schedule of ${domain.domain} if it started today`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Date (UTC)</th>
              <th scope="col">Daily cap</th>
            </tr>
          </thead>
          <tbody>
            {w.schedule.slice(0, 7).map((d) => (
              <tr key={d.day} aria-current={w.enabled && d.day === w.day ? 'date' : undefined}>
                <td>{d.day}</td>
                <td>{d.date}</td>
                <td>{d.cap.toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
