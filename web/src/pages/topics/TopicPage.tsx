import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { data } from '../../api/client';
import { ApiError } from '../../api/errors';
import { qk } from '../../api/queryKeys';
import { useTopic, type UpdateTopicBody } from '../../api/topics';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/Dialogs';
import { ErrorMessage } from '../../components/ErrorMessage';
import { EmptyState, Loading, Notice, PageHeader } from '../../components/Feedback';
import { formValues, useApiMutation } from '../../lib/forms';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { TOPIC_FIELDS, TopicFields, topicBody } from './TopicFields';

export default function TopicPage() {
  const { topicId = '' } = useParams();
  const projectId = useProjectId();
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const topic = useTopic(topicId);
  const save = useApiMutation({
    mutationFn: (body: UpdateTopicBody) => data(api.PATCH('/topics/{id}', { params: { path: { id: topicId } }, body })),
    onSuccess: (updated) => {
      queryClient.setQueryData(qk.p(projectId, 'topics', 'one', topicId), updated);
      void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'topics', 'list') });
    },
  });
  const back = (
    <Link to={projectPath(projectId, 'topics')} className="btn btn-ghost">
      ← All topics
    </Link>
  );
  if (topic.isPending) return <Loading label="Loading the topic…" />;
  if (topic.isError) {
    const missing = topic.error instanceof ApiError && topic.error.status === 404;
    return (
      <>
        {back}
        {missing ? <EmptyState title="Topic not found">It was deleted, or the link is wrong.</EmptyState> : <ErrorMessage error={topic.error} title="Could not load the topic" />}
      </>
    );
  }
  const t = topic.data;
  return (
    <>
      {back}
      <PageHeader
        title={t.name}
        description={
          <>
            Slug <code>{t.slug}</code>: contacts choose it with <code>topics.{t.slug}</code>, segments filter on <code>topics.{t.slug}</code>.
          </>
        }
        actions={
          <ConfirmButton
            label="Delete topic"
            title={`Delete ${t.name}?`}
            description="Contacts' choices of this topic are removed with it. Refused while a scheduled or sending campaign targets it."
            confirmLabel="Delete"
            onConfirm={async () => {
              await data(api.DELETE('/topics/{id}', { params: { path: { id: t.id } } }));
              queryClient.removeQueries({ queryKey: qk.p(projectId, 'topics', 'one', t.id) });
              await queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'topics') });
              navigate(projectPath(projectId, 'topics'));
            }}
          />
        }
      />
      <section className="panel" aria-labelledby="topic-edit-heading">
        <h2 id="topic-edit-heading">Details</h2>
        <form
          key={t.updatedAt}
          onSubmit={(e) => {
            e.preventDefault();
            void save.submit(topicBody(formValues(e.currentTarget)));
          }}
          noValidate
        >
          <TopicFields topic={t} error={save.error} withSlug={false} />
          <ErrorMessage error={save.error} fields={TOPIC_FIELDS} title="Could not save" />
          {save.isSuccess && !save.isPending && <Notice>Saved.</Notice>}
          <Button type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…">
            Save changes
          </Button>
        </form>
      </section>
    </>
  );
}
