import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { qk } from '../../api/queryKeys';
import { data } from '../../api/client';
import type { components } from '../../api/schema';
import { type Segment, type SegmentType, useSegment } from '../../api/segments';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/Fields';
import { Loading, PageHeader } from '../../components/Feedback';
import { fieldError, useApiMutation } from '../../lib/forms';
import { formatNumber } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { FilterBuilder, useFieldChoices } from './FilterBuilder';
import { emptyTree, type FilterTree, fromApiTree, problems, toApiTree } from './filterTree';
import { type LiveCount, liveCountMessage, useLiveCount } from './useLiveCount';

type CreateSegmentDto = components['schemas']['CreateSegmentDto'];

export function LiveCountView({ count, what = 'contacts match' }: { count: LiveCount; what?: string }) {
  return (
    <div className="live-count" role="status" aria-live="polite" aria-label="Matching contacts">
      {count.state === 'idle' && <span className="muted">Complete the filters to see how many contacts match.</span>}
      {count.state === 'counting' && (
        <span>
          Counting…{count.last !== undefined && <span className="muted"> (was {formatNumber(count.last)})</span>}
        </span>
      )}
      {count.state === 'done' && (
        <span>
          <strong>{formatNumber(count.count)}</strong> {what} now
        </span>
      )}
      {count.state === 'error' && <span className="field-error">Cannot count: {liveCountMessage(count)}</span>}
    </div>
  );
}

export default function SegmentEditorPage() {
  const { segmentId } = useParams();
  const existing = useSegment(segmentId);
  if (segmentId && existing.isPending) return <Loading label="Loading the segment…" />;
  if (segmentId && existing.isError) return <ErrorMessage error={existing.error} title="Could not load the segment" />;
  return <Editor key={segmentId ?? 'new'} segment={existing.data} />;
}

function Editor({ segment }: { segment?: Segment }) {
  const projectId = useProjectId();
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [type, setType] = useState<SegmentType>(segment?.type ?? 'DYNAMIC');
  const [tree, setTree] = useState<FilterTree>(() => (segment?.condition ? fromApiTree(segment.condition) : emptyTree()));
  const choices = useFieldChoices(segment?.id);
  const ready = type === 'DYNAMIC' && problems(tree).length === 0;
  const count = useLiveCount(ready ? toApiTree(tree, choices.types) : null);
  const save = useApiMutation({
    mutationFn: (body: CreateSegmentDto) => (segment ? data(api.PATCH('/segments/{id}', { params: { path: { id: segment.id } }, body })) : data(api.POST('/segments', { body }))),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'segments') });
      navigate(projectPath(projectId, 'segments', saved.id));
    },
  });
  useEffect(() => {
    document.title = segment ? `Edit ${segment.name} · Segments` : 'New segment · Segments';
  }, [segment]);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const body: CreateSegmentDto = { name: String(form.get('name') ?? '').trim(), description: String(form.get('description') ?? '').trim() || undefined };
    if (!segment) body.type = type;
    if (type === 'DYNAMIC') {
      body.condition = toApiTree(tree, choices.types);
      body.trackMembership = form.get('trackMembership') === 'on';
    }
    void save.submit(body);
  };
  const problemCount = type === 'DYNAMIC' ? problems(tree).length : 0;
  return (
    <>
      <PageHeader
        title={segment ? `Edit ${segment.name}` : 'New segment'}
        description={type === 'DYNAMIC' ? 'Contacts that match the filters, evaluated live.' : 'A list you fill by hand or by pasting addresses.'}
        actions={
          <Link className="btn" to={projectPath(projectId, 'segments', ...(segment ? [segment.id] : []))}>
            Cancel
          </Link>
        }
      />
      <form className="panel" onSubmit={onSubmit} noValidate>
        <TextField label="Name" name="name" defaultValue={segment?.name} required maxLength={100} error={fieldError(save.error, 'name') ?? (save.error?.status === 400 && !save.error.field ? save.error.message : undefined)} />
        <TextAreaField label="Description" name="description" defaultValue={segment?.description ?? ''} maxLength={500} rows={2} error={fieldError(save.error, 'description')} />
        {!segment && (
          <SelectField label="Type" name="type" value={type} onChange={(e) => setType(e.target.value as SegmentType)} hint="The type cannot change later.">
            <option value="DYNAMIC">Dynamic: chosen by filters</option>
            <option value="STATIC">Static: members added by hand</option>
          </SelectField>
        )}
        {type === 'DYNAMIC' && (
          <>
            <CheckboxField label="Emit entry and exit events (segment.<slug>.entry / .exit) when membership is computed" name="trackMembership" defaultChecked={segment?.trackMembership ?? false} />
            <h2>Filters</h2>
            <FilterBuilder tree={tree} onChange={setTree} choices={choices} apiError={fieldError(save.error, 'condition')} />
            <LiveCountView count={count} />
          </>
        )}
        <ErrorMessage error={save.error} fields={['name', 'description', 'condition']} title="Could not save the segment" />
        <div className="button-row">
          <Button type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…" disabled={problemCount > 0}>
            {segment ? 'Save segment' : 'Create segment'}
          </Button>
          {problemCount > 0 && <span className="muted">Fix the {problemCount === 1 ? 'filter' : `${problemCount} filters`} marked above to save.</span>}
        </div>
      </form>
    </>
  );
}
