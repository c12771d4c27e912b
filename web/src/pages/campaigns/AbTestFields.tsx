import type { Campaign, CampaignInput } from '../../api/campaigns';
import { SelectField, TextField } from '../../components/Fields';
import { fieldError } from '../../lib/forms';

/** The composer's A/B test as edited: `enabled` off saves `abTest: null`. */
export interface AbTestDraft {
  enabled: boolean;
  subjects: string[];
  testPercent: string;
  metric: 'opens' | 'clicks';
  waitMinutes: string;
  /** A variant's body and sender name set through the API, kept as they are (the composer edits subjects). */
  extras: Array<{ body?: string | null; fromName?: string | null }>;
}

export const MAX_VARIANTS = 4;
const LETTERS = ['B', 'C', 'D', 'E'];

export function abDraftOf(campaign?: Campaign): AbTestDraft {
  const ab = campaign?.abTest;
  return {
    enabled: Boolean(ab),
    subjects: ab ? ab.variants.map((v) => v.subject) : [''],
    testPercent: String(ab?.testPercent ?? 20),
    metric: ab?.metric ?? 'opens',
    waitMinutes: String(ab?.waitMinutes ?? 240),
    extras: ab ? ab.variants.map((v) => ({ body: v.body, fromName: v.fromName })) : [],
  };
}

/** The body's `abTest` (numbers as typed: the service names a bad one in its 422). */
export function abTestInput(d: AbTestDraft): CampaignInput['abTest'] {
  if (!d.enabled) return null;
  return { variants: d.subjects.map((subject, i) => ({ ...d.extras[i], subject })), testPercent: Number(d.testPercent), metric: d.metric, waitMinutes: Number(d.waitMinutes) };
}

/**
 * The A/B test of the composer's Delivery step: the other subjects ("B", "C", …; the campaign's
 * own is "A"), the share of the audience tested, the metric and the wait (docs/delivery-control.md).
 */
export function AbTestFields({ value, onChange, error }: { value: AbTestDraft; onChange: (next: AbTestDraft) => void; error: unknown }) {
  const set = (patch: Partial<AbTestDraft>) => onChange({ ...value, ...patch });
  return (
    <div className="ab-test-fields">
      <label className="checkbox">
        <input type="checkbox" checked={value.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> A/B test the subject
      </label>
      {fieldError(error, 'abTest') && !value.enabled && <p className="field-error">{fieldError(error, 'abTest')}</p>}
      {value.enabled && (
        <>
          <p className="muted">
            The subject above is variant A. A share of the audience gets the variants, split evenly; after the wait, the variant with the best rate goes to everyone else (or pick it yourself on the campaign page).
          </p>
          {value.subjects.map((subject, i) => (
            <div key={i} className="button-row">
              <TextField
                label={`Subject ${LETTERS[i]}`}
                value={subject}
                onChange={(e) => set({ subjects: value.subjects.map((s, j) => (j === i ? e.target.value : s)) })}
                error={fieldError(error, `abTest.variants[${i}].subject`)}
              />
              {value.subjects.length > 1 && (
                <button type="button" className="btn" onClick={() => set({ subjects: value.subjects.filter((_, j) => j !== i), extras: value.extras.filter((_, j) => j !== i) })} aria-label={`Remove subject ${LETTERS[i]}`}>
                  Remove
                </button>
              )}
            </div>
          ))}
          {fieldError(error, 'abTest.variants') && <p className="field-error">{fieldError(error, 'abTest.variants')}</p>}
          {value.subjects.length < MAX_VARIANTS && (
            <button type="button" className="btn" onClick={() => set({ subjects: [...value.subjects, ''] })}>
              Add a variant
            </button>
          )}
          <div className="two-columns">
            <TextField
              label="Test share (%)"
              type="number"
              min={5}
              max={50}
              value={value.testPercent}
              onChange={(e) => set({ testPercent: e.target.value })}
              error={fieldError(error, 'abTest.testPercent')}
              hint="5 to 50% of the audience, split evenly among the variants."
            />
            <SelectField label="Winner by" value={value.metric} onChange={(e) => set({ metric: e.target.value as AbTestDraft['metric'] })} error={fieldError(error, 'abTest.metric')}>
              <option value="opens">Open rate</option>
              <option value="clicks">Click rate</option>
            </SelectField>
            <TextField
              label="Wait (minutes)"
              type="number"
              min={30}
              max={10080}
              value={value.waitMinutes}
              onChange={(e) => set({ waitMinutes: e.target.value })}
              error={fieldError(error, 'abTest.waitMinutes')}
              hint="30 minutes to 7 days after the test share is sent."
            />
          </div>
        </>
      )}
    </div>
  );
}
