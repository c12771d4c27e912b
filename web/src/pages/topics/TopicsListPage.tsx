import { useQueryClient } from '@tanstack/react-query';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { useTopics, type CreateTopicBody } from '../../api/topics';
import { Button } from '../../components/Button';
import { DataTable, NameCell } from '../../components/DataTable';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Badge, EmptyState, PageHeader } from '../../components/Feedback';
import { QueryView } from '../../components/QueryView';
import { formValues, useApiMutation } from '../../lib/forms';
import { projectPath, useApi, useProjectId } from '../../lib/project';
import { TOPIC_FIELDS, TopicFields, topicBody } from './TopicFields';

function NewTopic() {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const create = useApiMutation({
    mutationFn: (body: CreateTopicBody) => data(api.POST('/topics', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'topics') }),
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const v = formValues(form);
        const slug = (v.slug ?? '').trim();
        void create.submit({ ...topicBody(v), ...(slug ? { slug } : {}) }).then((ok) => ok && form.reset());
      }}
      noValidate
    >
      <TopicFields error={create.error} withSlug />
      <ErrorMessage error={create.error} fields={TOPIC_FIELDS} title="Could not create the topic" />
      <Button type="submit" variant="primary" pending={create.isPending} pendingLabel="Creating…">
        Create topic
      </Button>
    </form>
  );
}

export default function TopicsListPage() {
  const projectId = useProjectId();
  const list = useTopics();
  return (
    <>
      <PageHeader
        title="Topics"
        description="What contacts can subscribe to or leave one by one (product news, events, tips) instead of everything. A campaign with a topic goes to its members only, and its unsubscribe link leaves just that topic."
      />
      <div className="two-columns">
        <section className="panel" aria-labelledby="topics-heading">
          <h2 id="topics-heading">Topics</h2>
          <QueryView query={list} title="Could not load the topics" loadingLabel="Loading topics…">
            {(topics) =>
              topics.length === 0 ? (
                <EmptyState title="No topics yet">
                  <p>Create one beside: contacts then choose it with topics: {'{"<slug>": true}'} in the API, and segments filter on topics.&lt;slug&gt;.</p>
                </EmptyState>
              ) : (
                <DataTable caption="Topics" columns={['Topic', 'Slug', 'Members', 'Preference page']}>
                  {topics.map((t) => (
                    <tr key={t.id}>
                      <NameCell to={projectPath(projectId, 'topics', t.id)} name={t.name} detail={t.description} />
                      <td>
                        <code>{t.slug}</code>
                      </td>
                      <td>{t.default === 'opt_in' ? 'Opt-in' : 'Opt-out'}</td>
                      <td>{t.public ? <Badge tone="good">Shown</Badge> : <Badge>Hidden</Badge>}</td>
                    </tr>
                  ))}
                </DataTable>
              )
            }
          </QueryView>
        </section>
        <section className="panel" aria-labelledby="new-topic-heading">
          <h2 id="new-topic-heading">New topic</h2>
          <NewTopic />
        </section>
      </div>
    </>
  );
}
