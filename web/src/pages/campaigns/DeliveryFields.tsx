import type { components } from '../../api/schema';
import { CheckboxField, TextField } from '../../components/Fields';
import { fieldError } from '../../lib/forms';

export type Delivery = components['schemas']['DeliverySchema'];
type Window = components['schemas']['DeliveryWindowSchema'];

const DAYS: Array<[Window['days'][number], string]> = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
];
const DEFAULT_WINDOW = (): Window => ({ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '18:00', timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' });

/** The delivery settings as the API takes them: null when neither waves nor a window is chosen. */
export function deliveryInput(d: Delivery | null): Delivery | null {
  if (!d || (d.batchSize === undefined && !d.window)) return null;
  return d;
}

/**
 * The "Delivery" part of the campaign composer: waves (batchSize every intervalMinutes) and a
 * sending window (days, hours, time zone). The server checks every field (one message each).
 */
export function DeliveryFields({ value, onChange, error }: { value: Delivery | null; onChange: (d: Delivery | null) => void; error: unknown }) {
  const d = value ?? {};
  const set = (patch: Partial<Delivery>) => onChange({ ...d, ...patch });
  const waves = d.batchSize !== undefined;
  const w = d.window;
  const setWindow = (patch: Partial<Window>) => set({ window: { ...(w ?? DEFAULT_WINDOW()), ...patch } });
  const num = (v: string) => (v === '' ? undefined : Number(v));
  return (
    <>
      <CheckboxField
        label="Send in waves"
        checked={waves}
        onChange={(e) => set(e.target.checked ? { batchSize: 1000, intervalMinutes: 60 } : { batchSize: undefined, intervalMinutes: undefined })}
        hint="A batch of recipients at a time, with a pause between batches."
      />
      {waves && (
        <div className="toolbar">
          <TextField label="Recipients per wave" type="number" min={1} value={d.batchSize ?? ''} onChange={(e) => set({ batchSize: num(e.target.value) })} error={fieldError(error, 'delivery.batchSize')} />
          <TextField label="Minutes between waves" type="number" min={1} max={10080} value={d.intervalMinutes ?? ''} onChange={(e) => set({ intervalMinutes: num(e.target.value) })} error={fieldError(error, 'delivery.intervalMinutes')} />
        </div>
      )}
      <CheckboxField
        label="Only inside a sending window"
        checked={!!w}
        onChange={(e) => set({ window: e.target.checked ? DEFAULT_WINDOW() : undefined })}
        hint="No wave starts outside these days and hours; it waits for the next window."
      />
      {w && (
        <>
          <fieldset className="toolbar" aria-label="Window days">
            {DAYS.map(([day, label]) => (
              <label key={day}>
                <input
                  type="checkbox"
                  checked={w.days.includes(day)}
                  onChange={(e) => setWindow({ days: e.target.checked ? [...w.days, day] : w.days.filter((x) => x !== day) })}
                />{' '}
                {label}
              </label>
            ))}
          </fieldset>
          {fieldError(error, 'delivery.window.days') && <p className="field-error">{fieldError(error, 'delivery.window.days')}</p>}
          <div className="toolbar">
            <TextField label="From" type="time" value={w.from} onChange={(e) => setWindow({ from: e.target.value })} error={fieldError(error, 'delivery.window.from')} />
            <TextField label="To" value={w.to} onChange={(e) => setWindow({ to: e.target.value })} placeholder="18:00" error={fieldError(error, 'delivery.window.to')} hint="HH:MM, up to 24:00" />
            <TextField label="Window time zone" value={w.timezone} onChange={(e) => setWindow({ timezone: e.target.value })} error={fieldError(error, 'delivery.window.timezone')} />
          </div>
        </>
      )}
    </>
  );
}
