import { TOPIC_DEFAULT_LABELS, type Topic, type TopicDefault } from '../../api/topics';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/Fields';
import { fieldError } from '../../lib/forms';

export const TOPIC_FIELDS = ['name', 'slug', 'description', 'default', 'public'] as const;

/** The fields a topic's create and edit forms share; the slug only when creating (it is fixed afterwards). */
export function TopicFields({ topic, error, withSlug }: { topic?: Topic; error: unknown; withSlug: boolean }) {
  return (
    <>
      <TextField label="Name" name="name" defaultValue={topic?.name} maxLength={100} required error={fieldError(error, 'name')} />
      {withSlug && (
        <TextField
          label="Slug (optional)"
          name="slug"
          maxLength={100}
          hint="Names the topic in the API (contacts' topics, filters topics.<slug>). Derived from the name when empty; it cannot change later."
          error={fieldError(error, 'slug')}
        />
      )}
      <TextAreaField label="Description" name="description" rows={2} maxLength={500} defaultValue={topic?.description ?? ''} error={fieldError(error, 'description')} />
      <SelectField label="Members" name="default" defaultValue={topic?.default ?? 'opt_out'} error={fieldError(error, 'default')}>
        {(Object.keys(TOPIC_DEFAULT_LABELS) as TopicDefault[]).map((d) => (
          <option key={d} value={d}>
            {TOPIC_DEFAULT_LABELS[d]}
          </option>
        ))}
      </SelectField>
      <CheckboxField label="Shown on the preference page" name="public" defaultChecked={topic?.public ?? true} error={fieldError(error, 'public')} />
    </>
  );
}

/** The form's values as the API's body fields. */
export function topicBody(v: Record<string, string>) {
  return {
    name: (v.name ?? '').trim(),
    description: (v.description ?? '').trim() || null,
    default: (v.default ?? 'opt_out') as TopicDefault,
    public: v.public === 'on',
  };
}
