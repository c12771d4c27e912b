import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { data } from '../../api/client';
import { qk } from '../../api/queryKeys';
import { isTopicMember, useTopics } from '../../api/topics';
import type { Contact } from '../../api/types';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Badge, Notice } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Fields';
import { QueryView } from '../../components/QueryView';
import { fieldError, formValues, useApiMutation } from '../../lib/forms';
import { formatDate } from '../../lib/format';
import { projectPath, useApi, useProjectId } from '../../lib/project';

type Choice = 'default' | 'in' | 'out';
const choiceOf = (choices: Record<string, boolean>, slug: string): Choice => (choices[slug] === true ? 'in' : choices[slug] === false ? 'out' : 'default');
const CHOICE_VALUE: Record<Choice, boolean | null> = { default: null, in: true, out: false };

/** `datetime-local` text (the browser's time zone) for an ISO instant, and back. */
const toLocalInput = (iso: string | null | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** A contact's topic choices (one select per topic) and snooze, saved with one PATCH. */
export function ContactConsent({ contact }: { contact: Contact }) {
  const api = useApi();
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const topics = useTopics();
  const choices = contact.topics ?? {};
  // The page's moment of reading: a snooze that ended since shows as ended on the next load.
  const [now] = useState(() => Date.now());
  const snoozed = contact.snoozedUntil && new Date(contact.snoozedUntil).getTime() > now;
  const save = useApiMutation({
    mutationFn: (body: { topics?: Record<string, boolean | null>; snoozedUntil?: string | null }) => data(api.PATCH('/contacts/{id}', { params: { path: { id: contact.id } }, body })),
    onSuccess: (updated) => {
      queryClient.setQueryData(qk.p(projectId, 'contacts', 'one', contact.id), updated);
      void queryClient.invalidateQueries({ queryKey: qk.p(projectId, 'contacts') });
    },
  });
  return (
    <QueryView query={topics} title="Could not load the topics" loadingLabel="Loading topics…">
      {(list) => (
        <form
          key={contact.updatedAt}
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            const body: { topics?: Record<string, boolean | null>; snoozedUntil?: string | null } = {};
            const patch: Record<string, boolean | null> = {};
            for (const t of list) {
              const next = (v[`topic-${t.slug}`] ?? 'default') as Choice;
              if (next !== choiceOf(choices, t.slug)) patch[t.slug] = CHOICE_VALUE[next];
            }
            if (Object.keys(patch).length) body.topics = patch;
            const until = v.snoozedUntil ? new Date(v.snoozedUntil).toISOString() : null;
            if ((until ?? null) !== (snoozed ? contact.snoozedUntil : null)) body.snoozedUntil = until;
            void save.submit(body);
          }}
          noValidate
        >
          {list.length === 0 ? (
            <p className="muted">
              No topics in this project yet: <Link to={projectPath(projectId, 'topics')}>create one</Link>.
            </p>
          ) : (
            list.map((t) => (
              <SelectField
                key={t.id}
                label={
                  <>
                    {t.name} {isTopicMember(choices, t) ? <Badge tone="good">Member</Badge> : <Badge>Not a member</Badge>}
                  </>
                }
                name={`topic-${t.slug}`}
                defaultValue={choiceOf(choices, t.slug)}
                error={fieldError(save.error, `topics.${t.slug}`)}
              >
                <option value="default">No choice ({t.default === 'opt_in' ? 'not a member' : 'member'} by default)</option>
                <option value="in">Subscribed</option>
                <option value="out">Left</option>
              </SelectField>
            ))
          )}
          <TextField
            label="Snoozed until"
            name="snoozedUntil"
            type="datetime-local"
            defaultValue={snoozed ? toLocalInput(contact.snoozedUntil) : ''}
            hint={snoozed ? `No marketing email until ${formatDate(contact.snoozedUntil!)}. Clear the field to end the snooze.` : 'No marketing email until then; transactional email still goes. It ends by itself.'}
            error={fieldError(save.error, 'snoozedUntil')}
          />
          <ErrorMessage error={save.error} fields={['snoozedUntil', ...list.map((t) => `topics.${t.slug}`)]} title="Could not save" />
          {save.isSuccess && !save.isPending && <Notice>Saved.</Notice>}
          <Button type="submit" variant="primary" pending={save.isPending} pendingLabel="Saving…">
            Save topics and snooze
          </Button>
        </form>
      )}
    </QueryView>
  );
}
