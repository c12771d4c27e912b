import { Injectable, OnModuleInit } from '@nestjs/common';
import { CONTACT_CONFIRMED, CONTACT_SNOOZED, CONTACT_SUBSCRIBED, CONTACT_TOPIC_SUBSCRIBED, CONTACT_TOPIC_UNSUBSCRIBED, CONTACT_UNSUBSCRIBED, EventPageFilter, EventsQueriesService, EventsService, toEventResponse } from '../../events';
import { isTopicMember, TopicsService } from '../../topics';
import { ContactsService } from '../contacts.service';
import { DataSubject, keysetBatches, PersonalDataRegistry } from './personal-data.registry';

/** The events that record a contact's consent: its subscription, double opt-in confirmation, snoozes and topic choices. */
export const CONSENT_EVENTS = [CONTACT_SUBSCRIBED, CONTACT_UNSUBSCRIBED, CONTACT_CONFIRMED, CONTACT_SNOOZED, CONTACT_TOPIC_SUBSCRIBED, CONTACT_TOPIC_UNSUBSCRIBED];

/** Events per batch: the event list's largest page. */
const EVENTS_BATCH = 100;

/**
 * The sections contacts registers itself: its consent history, and those of the modules below it
 * (topics, events), which cannot register on a registry of contacts (contacts imports them).
 */
@Injectable()
export class ContactSections implements OnModuleInit {
  constructor(
    private readonly registry: PersonalDataRegistry,
    private readonly contacts: ContactsService,
    private readonly topics: TopicsService,
    private readonly events: EventsQueriesService,
    private readonly eventRows: EventsService,
  ) {}

  onModuleInit(): void {
    // Topic choices are the contact's own columns and consent records are events: they go with the contact and the `events` section.
    this.registry.register({ name: 'topics', export: (projectId, subject) => this.topicsOf(projectId, subject), erase: async () => {} });
    this.registry.register({ name: 'consent', export: (projectId, subject) => this.eventsOf(projectId, { contactId: subject.id, names: { anyOf: CONSENT_EVENTS } }), erase: async () => {} });
    this.registry.register({
      name: 'events',
      export: (projectId, subject) => this.eventsOf(projectId, { contactId: subject.id }),
      erase: (projectId, subject, manager) => this.eventRows.removeOfContact(projectId, subject.id, manager),
    });
  }

  /** Every topic of the project as the topic list shows it, with the contact's choice (null: none) and whether it is a member. */
  private async *topicsOf(projectId: string, subject: DataSubject): AsyncGenerator<unknown[]> {
    const choices = (await this.contacts.findById(projectId, subject.id))?.topics ?? {};
    const topics = await this.topics.list(projectId);
    yield topics.map((topic) => ({ ...topic, choice: choices[topic.slug] ?? null, member: isTopicMember(choices, topic) }));
  }

  /** The contact's events as the event list pages them, newest first. */
  private eventsOf(projectId: string, filter: EventPageFilter): AsyncGenerator<unknown[]> {
    return keysetBatches<unknown, string>(async (cursor) => {
      const page = await this.events.page(projectId, filter, { cursor: cursor ?? undefined, limit: EVENTS_BATCH }, toEventResponse, false);
      return { items: page.data, next: page.hasMore ? page.cursor : null };
    });
  }
}
