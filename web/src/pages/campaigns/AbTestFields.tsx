import { lazy, Suspense } from 'react';
import type { Campaign, CampaignInput } from '../../api/campaigns';
import { SelectField, TextField } from '../../components/Fields';
import { Loading } from '../../components/Feedback';
import { fieldError } from '../../lib/forms';

const HtmlLiquidEditor = lazy(() => import('../../components/HtmlLiquidEditor'));

/** A variant as edited: its subject, and its own sender name and body, each optional (empty: variant A's). */
export interface VariantDraft {
  subject: string;
  fromName: string;
  /** Whether the variant has a body of its own (off: it is sent variant A's body). */
  ownBody: boolean;
  body: string;
}

/** The composer's A/B test as edited: `enabled` off saves `abTest: null`. */
export interface AbTestDraft {
  enabled: boolean;
  variants: VariantDraft[];
  testPercent: string;
  metric: 'opens' | 'clicks';
  waitMinutes: string;
}

export const MAX_VARIANTS = 4;
const LETTERS = ['B', 'C', 'D', 'E'];
const EMPTY_VARIANT: VariantDraft = { subject: '', fromName: '', ownBody: false, body: '' };

export function abDraftOf(campaign?: Campaign): AbTestDraft {
  const ab = campaign?.abTest;
  return {
    enabled: Boolean(ab),
    variants: ab ? ab.variants.map((v) => ({ subject: v.subject, fromName: v.fromName ?? '', ownBody: Boolean(v.body), body: v.body ?? '' })) : [EMPTY_VARIANT],
    testPercent: String(ab?.testPercent ?? 20),
    metric: ab?.metric ?? 'opens',
    waitMinutes: String(ab?.waitMinutes ?? 240),
  };
}

/** The body's `abTest` (numbers as typed: the service names a bad one in its 422); an unset sender name or body is variant A's. */
export function abTestInput(d: AbTestDraft): CampaignInput['abTest'] {
  if (!d.enabled) return null;
  return {
    variants: d.variants.map((v) => ({ subject: v.subject, fromName: v.fromName.trim() || null, body: v.ownBody && v.body.trim() ? v.body : null })),
    testPercent: Number(d.testPercent),
    metric: d.metric,
    waitMinutes: Number(d.waitMinutes),
  };
}

/**
 * The A/B test of the composer's Delivery step: the other variants ("B", "C", …; the campaign's
 * own content is "A"), each a subject with, optionally, its own sender name and body; the share
 * of the audience tested, the metric and the wait (docs/delivery-control.md).
 */
export function AbTestFields({ value, onChange, error, readOnly = false }: { value: AbTestDraft; onChange: (next: AbTestDraft) => void; error: unknown; readOnly?: boolean }) {
  const set = (patch: Partial<AbTestDraft>) => onChange({ ...value, ...patch });
  const setVariant = (i: number, patch: Partial<VariantDraft>) => set({ variants: value.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) });
  return (
    <div className="ab-test-fields">
      <label className="checkbox">
        <input type="checkbox" checked={value.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> A/B test the subject, sender name or body
      </label>
      {fieldError(error, 'abTest') && !value.enabled && <p className="field-error">{fieldError(error, 'abTest')}</p>}
      {value.enabled && (
        <>
          <p className="muted">
            The content above is variant A. A share of the audience gets the variants, split evenly; after the wait, the variant with the best rate goes to everyone else (or pick it yourself on the campaign page).
          </p>
          {value.variants.map((variant, i) => (
            <div key={i} className="ab-variant" role="group" aria-label={`Variant ${LETTERS[i]}`}>
              <div className="two-columns">
                <TextField
                  label={`Subject ${LETTERS[i]}`}
                  value={variant.subject}
                  onChange={(e) => setVariant(i, { subject: e.target.value })}
                  error={fieldError(error, `abTest.variants[${i}].subject`)}
                />
                <TextField
                  label={`Sender name ${LETTERS[i]}`}
                  value={variant.fromName}
                  onChange={(e) => setVariant(i, { fromName: e.target.value })}
                  error={fieldError(error, `abTest.variants[${i}].fromName`)}
                  hint="Empty: variant A's."
                />
              </div>
              <label className="checkbox">
                <input type="checkbox" checked={variant.ownBody} onChange={(e) => setVariant(i, { ownBody: e.target.checked })} /> A body of its own for {LETTERS[i]}
              </label>
              {variant.ownBody && (
                <div className={fieldError(error, `abTest.variants[${i}].body`) ? 'field field-invalid' : 'field'}>
                  <Suspense fallback={<Loading />}>
                    <HtmlLiquidEditor value={variant.body} onChange={(body) => setVariant(i, { body })} label={`Body ${LETTERS[i]}`} height="200px" readOnly={readOnly} imageUpload />
                  </Suspense>
                  {fieldError(error, `abTest.variants[${i}].body`) && (
                    <p className="field-error" role="alert">
                      {fieldError(error, `abTest.variants[${i}].body`)}
                    </p>
                  )}
                </div>
              )}
              {value.variants.length > 1 && (
                <button type="button" className="btn" onClick={() => set({ variants: value.variants.filter((_, j) => j !== i) })} aria-label={`Remove variant ${LETTERS[i]}`}>
                  Remove variant {LETTERS[i]}
                </button>
              )}
            </div>
          ))}
          {fieldError(error, 'abTest.variants') && <p className="field-error">{fieldError(error, 'abTest.variants')}</p>}
          {value.variants.length < MAX_VARIANTS && (
            <button type="button" className="btn" onClick={() => set({ variants: [...value.variants, EMPTY_VARIANT] })}>
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
