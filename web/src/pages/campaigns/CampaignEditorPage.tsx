import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type AudienceType, type Campaign, type CampaignInput, useCampaign } from '../../api/campaigns';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { useSegments } from '../../api/segments';
import { useTopics } from '../../api/topics';
import { EMAIL_TYPES, useTemplateList } from '../../api/templates';
import type { EmailType } from '../../api/types';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { type Delivery, DeliveryFields, deliveryInput } from './DeliveryFields';
import { SelectField, TextField } from '../../components/Fields';
import { Loading, Notice, PageHeader } from '../../components/Feedback';
import { UnsavedChangesPrompt } from '../../components/UnsavedChangesPrompt';
import { fieldError, useApiMutation } from '../../lib/forms';
import { formatNumber } from '../../lib/format';
import { KEY_SYNTAX_HINT } from '../../lib/liquid-keys';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { FilterBuilder, useFieldChoices } from '../segments/FilterBuilder';
import { emptyTree, type FilterTree, fromApiTree, problems, toApiTree } from '../segments/filterTree';
import { LiveCountView } from '../segments/SegmentEditorPage';
import { useLiveCount } from '../segments/useLiveCount';
import { AsContactPanel } from '../../components/previews/AsContact';
import { abDraftOf, abTestInput, AbTestFields } from './AbTestFields';

/** CodeMirror is large: loaded when the composer opens, not with the campaigns list. */
const HtmlLiquidEditor = lazy(() => import('../../components/HtmlLiquidEditor'));

const FIELDS = ['name', 'description', 'subject', 'body', 'from', 'fromName', 'replyTo', 'type', 'audienceType', 'segmentId', 'audienceCondition', 'topicId', 'abTest', 'delivery'];

/** A filter tree narrowed to a topic's members (what the audience count must show for a campaign with a topic). */
function withTopic<T extends object>(tree: T, slug: string | undefined): T {
  if (!slug) return tree;
  return { logic: 'AND', groups: [{ filters: [{ field: `topics.${slug}`, operator: 'equals', value: true }], conditions: tree }] } as unknown as T;
}

export default function CampaignEditorPage() {
  const { campaignId } = useParams();
  const existing = useCampaign(campaignId);
  if (campaignId && existing.isPending) return <Loading label="Loading the campaign…" />;
  if (campaignId && existing.isError) return <ErrorMessage error={existing.error} title="Could not load the campaign" />;
  return <Editor key={campaignId ?? 'new'} campaign={existing.data} />;
}

interface Content {
  subject: string;
  body: string;
  from: string;
  fromName: string;
  replyTo: string;
  type: EmailType;
}

function Editor({ campaign }: { campaign?: Campaign }) {
  const projectId = useProjectId();
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const templates = useTemplateList({ page: 1, sort: 'updatedAt', dir: 'desc' });
  const segments = useSegments();
  const choices = useFieldChoices();
  const [content, setContent] = useState<Content>({
    subject: campaign?.subject ?? '',
    body: campaign?.body ?? '',
    from: campaign?.from ?? '',
    fromName: campaign?.fromName ?? '',
    replyTo: campaign?.replyTo ?? '',
    type: campaign?.type ?? 'MARKETING',
  });
  const [audienceType, setAudienceType] = useState<AudienceType>(campaign?.audienceType ?? 'ALL');
  const [segmentId, setSegmentId] = useState(campaign?.segmentId ?? '');
  const topics = useTopics();
  const [topicId, setTopicId] = useState(campaign?.topicId ?? '');
  const [delivery, setDelivery] = useState<Delivery | null>(campaign?.delivery ?? null);
  const chosenTopic = topics.data?.find((t) => t.id === topicId);
  const [tree, setTree] = useState<FilterTree>(() => (campaign?.audienceCondition ? fromApiTree(campaign.audienceCondition) : emptyTree()));
  const treeReady = audienceType === 'FILTERED' && problems(tree).length === 0;
  // The live count is the audience narrowed to the topic's members, as sending narrows it.
  const count = useLiveCount(treeReady ? withTopic(toApiTree(tree, choices.types), chosenTopic?.slug) : null);
  const editable = !campaign || campaign.status === 'DRAFT' || campaign.status === 'SCHEDULED';
  // Any edit marks the form: native fields by their bubbling change events, the body editor and
  // the filter builder through their setters.
  const [touched, setTouched] = useState(false);
  const [abTest, setAbTest] = useState(() => abDraftOf(campaign));

  useEffect(() => {
    document.title = campaign ? `Edit ${campaign.name} · Campaigns` : 'New campaign · Campaigns';
  }, [campaign]);

  const save = useApiMutation({
    mutationFn: async (body: CampaignInput) => (campaign ? data(api.PUT('/campaigns/{id}', { params: { path: { id: campaign.id } }, body })) : (await data(api.POST('/campaigns', { body }))).data),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'campaigns') });
      navigate(projectPath(projectId, 'campaigns', saved.id));
    },
  });
  const set = (k: keyof Content) => (e: { target: { value: string } }) => setContent((c) => ({ ...c, [k]: e.target.value }));
  const applyTemplate = (id: string) => {
    const t = templates.data?.data.find((x) => x.id === id);
    if (t) setContent({ subject: t.subject, body: t.body, from: t.from, fromName: t.fromName ?? '', replyTo: t.replyTo ?? '', type: t.type });
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    void save.submit({
      name: String(form.get('name') ?? '').trim(),
      description: String(form.get('description') ?? '').trim() || undefined,
      subject: content.subject,
      body: content.body,
      from: content.from.trim(),
      fromName: content.fromName.trim() || undefined,
      replyTo: content.replyTo.trim() || undefined,
      type: content.type,
      audienceType,
      segmentId: audienceType === 'SEGMENT' ? segmentId || null : null,
      audienceCondition: audienceType === 'FILTERED' ? toApiTree(tree, choices.types) : null,
      topicId: topicId || null,
      abTest: abTestInput(abTest),
      delivery: deliveryInput(delivery),
    });
  };
  const fromError = save.error?.code === 'DOMAIN_NOT_VERIFIED' ? save.error.message : fieldError(save.error, 'from');
  const chosenSegment = segments.data?.find((s) => s.id === segmentId);
  return (
    <>
      <PageHeader
        title={campaign ? `Edit ${campaign.name}` : 'New campaign'}
        description="One email to an audience, sent now or at a time you choose. It stays a draft until you send it."
        actions={
          <Link className="btn" to={projectPath(projectId, 'campaigns', ...(campaign ? [campaign.id] : []))}>
            Cancel
          </Link>
        }
      />
      {!editable && <Notice>This campaign is {campaign?.status.toLowerCase()}: it cannot be changed. Duplicate it to send a new version.</Notice>}
      <UnsavedChangesPrompt when={touched && editable && !save.isPending} />
      <form onSubmit={onSubmit} onChange={() => setTouched(true)} noValidate>
        <fieldset className="panel" disabled={!editable}>
          <legend>Campaign</legend>
          <TextField label="Campaign name" name="name" defaultValue={campaign?.name} required error={fieldError(save.error, 'name')} hint="Only you see it." />
          <TextField label="Description" name="description" defaultValue={campaign?.description ?? ''} error={fieldError(save.error, 'description')} />
        </fieldset>
        <fieldset className="panel" disabled={!editable}>
          <legend>Content</legend>
          <SelectField label="Start from a template" value="" onChange={(e) => applyTemplate(e.target.value)} hint={templates.data?.data.length === 0 ? 'No templates yet: write the email here, or create a template first.' : 'Copies its subject, body, sender and type; you can change them here.'}>
            <option value="">Choose a template to copy…</option>
            {templates.data?.data.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </SelectField>
          <TextField label="Subject" value={content.subject} onChange={set('subject')} required error={fieldError(save.error, 'subject')} />
          <div className={fieldError(save.error, 'body') ? 'field field-invalid' : 'field'}>
            <span className="field-label">
              <strong>Body (HTML with {'{{variables}}'})</strong>
            </span>
            <Suspense fallback={<Loading />}>
              <HtmlLiquidEditor value={content.body} onChange={(body) => {
                  setTouched(true);
                  setContent((c) => ({ ...c, body }));
                }} label="Body (HTML with {{variables}})" height="300px" readOnly={!editable} imageUpload />
            </Suspense>
            <p className="field-hint">{KEY_SYNTAX_HINT} Also {'{{email}}'}, {'{{unsubscribeUrl}}'}, {"{% if plan == 'pro' %}…{% endif %}"}.</p>
            {fieldError(save.error, 'body') && (
              <p className="field-error" role="alert">
                {fieldError(save.error, 'body')}
              </p>
            )}
          </div>
          <div className="two-columns">
            <TextField label="From address" type="email" value={content.from} onChange={set('from')} required placeholder="news@your-domain.com" error={fromError} hint="An address at a verified domain of the project." />
            <TextField label="From name" value={content.fromName} onChange={set('fromName')} error={fieldError(save.error, 'fromName')} />
            <TextField label="Reply-to" type="email" value={content.replyTo} onChange={set('replyTo')} error={fieldError(save.error, 'replyTo')} />
            <SelectField label="Email type" value={content.type} onChange={(e) => setContent((c) => ({ ...c, type: e.target.value as EmailType }))} hint={EMAIL_TYPES.find((t) => t.value === content.type)?.help} error={fieldError(save.error, 'type')}>
              {EMAIL_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </SelectField>
          </div>
        </fieldset>
        <fieldset className="panel" disabled={!editable}>
          <legend>Audience</legend>
          <div role="radiogroup" aria-label="Audience" className="button-row">
            {(
              [
                ['ALL', 'All contacts'],
                ['SEGMENT', 'A segment'],
                ['FILTERED', 'Contacts matching filters'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="radio">
                <input type="radio" name="audienceType" value={value} checked={audienceType === value} onChange={() => setAudienceType(value)} /> {label}
              </label>
            ))}
          </div>
          {fieldError(save.error, 'audienceType') && <p className="field-error">{fieldError(save.error, 'audienceType')}</p>}
          {audienceType === 'SEGMENT' && (
            <SelectField label="Segment" value={segmentId} onChange={(e) => setSegmentId(e.target.value)} error={fieldError(save.error, 'segmentId')} hint={segments.data?.length === 0 ? 'No segments yet: create one in Segments, or choose filters here.' : chosenSegment ? `${formatNumber(chosenSegment.memberCount)} members at the last count.` : undefined}>
              <option value="">Choose a segment…</option>
              {segments.data?.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({formatNumber(s.memberCount)})
                </option>
              ))}
            </SelectField>
          )}
          {audienceType === 'FILTERED' && (
            <>
              <FilterBuilder
                tree={tree}
                onChange={(next) => {
                  setTouched(true);
                  setTree(next);
                }} choices={choices} apiError={fieldError(save.error, 'audienceCondition')} />
              <LiveCountView count={count} />
            </>
          )}
          <SelectField
            label="Topic"
            value={topicId}
            onChange={(e) => setTopicId(e.target.value)}
            error={fieldError(save.error, 'topicId')}
            hint={chosenTopic ? `Only members of ${chosenTopic.name} get it (the others are skipped), and its unsubscribe link leaves just this topic.` : 'Optional: send to the members of a topic only.'}
          >
            <option value="">No topic</option>
            {topics.data?.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </SelectField>
          <p className="muted">
            {content.type === 'TRANSACTIONAL' ? 'Transactional: every contact of the audience gets it, subscribed or not.' : 'Unsubscribed and suppressed contacts are skipped. After saving, the campaign page shows who will be skipped and why.'}
          </p>
        </fieldset>
        <fieldset className="panel" disabled={!editable}>
          <legend>Delivery</legend>
          <DeliveryFields value={delivery} onChange={(d) => { setTouched(true); setDelivery(d); }} error={save.error} />
          <AbTestFields value={abTest} onChange={(v) => { setTouched(true); setAbTest(v); }} error={save.error} readOnly={!editable} />
        </fieldset>
        <ErrorMessage error={save.error} fields={FIELDS} title="Could not save the campaign" />
        {editable && (
          <div className="button-row">
            <Button type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…">
              {campaign ? 'Save campaign' : 'Save draft'}
            </Button>
          </div>
        )}
      </form>
      {campaign && <AsContactPanel target={{ kind: 'campaigns', id: campaign.id, version: campaign.updatedAt }} />}
    </>
  );
}
