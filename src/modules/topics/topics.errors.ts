import { conflict, FieldError, notFound, validationError } from '../../platform/http/app-error';

export const topicNotFound = () => notFound('Topic');
export const topicSlugTaken = (slug: string) => conflict(`Another topic of the project has the slug "${slug}"`, { details: { slug } });
export const slugImmutable = (received: unknown) =>
  validationError([{ field: 'slug', code: 'immutable', message: "a topic's slug cannot change (contacts' choices and filters name the topic by it)", received }]);
export const topicNameWithoutSlug = (name: string) =>
  validationError([{ field: 'name', code: 'invalid_string', message: 'name has no letters or digits to derive a slug from; send a slug', received: name }]);
export const topicInUse = (campaigns: Array<{ id: string; name: string | null }>) =>
  conflict('The topic is targeted by a scheduled or sending campaign: cancel it or change its topic first', { details: { campaigns } });
/** One 422 item per unknown slug, at `<field>.<slug>` (`topics.news`). */
export const unknownTopics = (slugs: string[], field = 'topics') =>
  validationError(slugs.map((slug): FieldError => ({ field: `${field}.${slug}`, code: 'unknown_topic', message: `no topic with the slug "${slug}" in this project`, received: slug })));
export const topicChoiceNotBoolean = (slug: string, received: unknown, field = 'topics') =>
  validationError([{ field: `${field}.${slug}`, code: 'invalid_type', message: 'a topic choice is true, false or null (null removes the choice)', received }]);
export const unknownTopicId = (received: unknown, field = 'topicId') =>
  validationError([{ field, code: 'unknown_topic', message: 'no topic with this id in this project', received }]);
