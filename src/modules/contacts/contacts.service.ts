import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ContactsRepository } from './contacts.repository';
import { ErasuresRepository } from './erasure/erasures.repository';
import { ContactDirectory, EventsService, EventRow, fromEventRow, StoredEvent, CONTACT_SNOOZED, CONTACT_SUBSCRIBED, CONTACT_TOPIC_SUBSCRIBED, CONTACT_TOPIC_UNSUBSCRIBED, CONTACT_UNSUBSCRIBED, isContactId } from '../events';
import type { ContactSource, PatchContactInput, UpsertContactInput, UpsertContactResult } from './contacts.types';
import { TopicsService, isTopicMember, TopicRule } from '../topics';
import { compileTopicsPatch } from './data/topics-patch';
import { snoozeInPast } from './contacts.errors';
import { ContactFieldsService } from './contact-fields.service';
import { contactEmailTaken, contactNotFound, contactStillReferenced, dataNotStorable, isUnstorableText } from './contacts.errors';
import { applyDataPatch, CompiledDataPatch, compileDataPatch, JsonObject, templateVariables } from './data/data-patch';
import { ContactRow, fromContactRow } from './contacts.rows';
import type { Contact } from './entities/contact.entity';
import { buildUpsertStatement, UpsertStatementInput } from './sql/upsert-contact.sql';
import { Batcher } from '../../platform/batching/batcher';
import { buildUpsertBatchParams, rowsByItem, UPSERT_CONTACTS_BATCH_SQL, upsertKey } from './sql/upsert-contacts-batch.sql';
import { isForeignKeyViolation, isRetryableConflict, isUniqueViolation, retryOnConflict } from '../../platform/database/pg-errors';

export type { ContactSource, PatchContactInput, UpsertContactInput, UpsertContactResult } from './contacts.types';

/** The topic part of an upsert statement (`UpsertStatementInput.topics`). */
type TopicsStatement = NonNullable<UpsertStatementInput['topics']>;

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();


type UpsertRow = ContactRow & { inserted: boolean; changed: boolean; flips: EventRow[]; event: EventRow | null };

@Injectable()
export class ContactsService implements OnModuleInit {
  /** Upserts without a caller's transaction: concurrent calls share one statement (README, performance notes). */
  private readonly batcher = new Batcher<UpsertStatementInput, UpsertRow>({
    keys: (item) => [upsertKey(item)],
    max: 100,
    maxInFlight: 2,
    runBatch: async (items) => rowsByItem(await this.runUpsert<UpsertRow & { i: number }>(UPSERT_CONTACTS_BATCH_SQL, buildUpsertBatchParams(items)), items.length),
    runOne: (item) => this.upsertOne(item),
    retryable: isRetryableConflict,
  });

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: EventsService,
    private readonly fields: ContactFieldsService,
    private readonly repository: ContactsRepository,
    private readonly directory: ContactDirectory,
    private readonly topics: TopicsService,
    private readonly erased: ErasuresRepository,
  ) {}

  /** The lookups the event list makes of contacts (the events module does not read this table). */
  onModuleInit(): void {
    this.directory.register({
      exists: async (projectId, contactId) => (await this.findById(projectId, contactId)) !== null,
      emailsOf: async (projectId, ids) => {
        const rows = await this.repository.emailsOf(projectId, ids.filter(isContactId));
        return new Map(rows.map((r) => [r.id, r.email]));
      },
    });
    // A deleted topic's slug leaves every contact's choices with it.
    this.topics.onRemove((projectId, slug, em) => this.repository.removeTopicChoice(projectId, slug, em));
  }

  /** A call's `topics` checked against the project's topics (422 naming unknown slugs), with the rules the statement needs. */
  private async topicsStatement(projectId: string, patch: JsonObject | undefined, manager?: EntityManager): Promise<TopicsStatement | undefined> {
    const compiled = compileTopicsPatch(patch);
    if (!compiled || compiled.slugs.length === 0) return undefined;
    const rules = await this.topics.rulesOf(projectId, compiled.slugs, 'topics', manager);
    return { set: compiled.set, unset: compiled.unset, rules: [...rules.values()] };
  }

  async upsert(projectId: string, input: UpsertContactInput, manager?: EntityManager): Promise<UpsertContactResult> {
    const { event: _event, ...result } = await this.upsertWithEvent(projectId, input, undefined, manager);
    return result;
  }

  /**
   * The upsert plus, optionally, a tracked event stored in the same statement (`/v1/track`).
   * Event data is what the call sent for this event: stored values and one-off values.
   */
  async upsertWithEvent(
    projectId: string,
    input: UpsertContactInput,
    event: { name: string } | undefined,
    manager?: EntityManager,
  ): Promise<UpsertContactResult & { event: StoredEvent | null }> {
    const topics = await this.topicsStatement(projectId, input.topics, manager);
    const { patch, fieldTypes, statement } = this.prepareUpsert(projectId, input, event, topics);
    // Inside a caller's transaction: its own statement on that transaction's connection. Topic
    // writes take the single statement too (the batch statement leaves topics alone).
    const row = manager || topics ? await this.upsertOne(statement, manager) : await this.batcher.run(statement);
    this.fields.cache.remember(
      projectId,
      fieldTypes.map(([key]) => key),
    );
    const tracked = row.event ? fromEventRow(row.event) : null;
    return { ...this.upserted(row, patch), event: tracked };
  }

  /**
   * Many upserts inside a caller's transaction (`manager`) as one multi-row statement (the
   * batch statement of the upsert batcher), e.g. the contacts of several `/v1/send` requests
   * that share a transaction. Per item the effect and result are `upsert(projectId, input, manager)`'s;
   * results come in input order. The caller keeps every (projectId, email) once per call
   * (`upsertKey` of the normalized email); an item left without a row by a concurrent insert
   * runs the single statement in the same transaction. A failed statement fails the caller's
   * transaction (data the database cannot store is `dataNotStorable`, as for `upsert`).
   * Unlike `upsert`, the field types written are remembered only when the caller runs
   * `afterCommit()`: a batch transaction that rolls back (and re-runs its requests one by one)
   * must not leave keys remembered whose type rows it never committed.
   */
  async upsertBatchIn(
    items: Array<{ projectId: string; input: UpsertContactInput }>,
    manager: EntityManager,
  ): Promise<{ results: UpsertContactResult[]; afterCommit: () => void }> {
    const prepared: Array<ReturnType<ContactsService['prepareUpsert']>> = [];
    for (const { projectId, input } of items) prepared.push(this.prepareUpsert(projectId, input, undefined, await this.topicsStatement(projectId, input.topics, manager)));
    const afterCommit = () => {
      for (const { statement, fieldTypes } of prepared) {
        this.fields.cache.remember(
          statement.projectId,
          fieldTypes.map(([key]) => key),
        );
      }
    };
    if (prepared.length === 0) return { results: [], afterCommit };
    const statements = prepared.map((p) => p.statement);
    // Items that write topics run the single statement (below), like items the batch left without a row.
    const batched = statements.map((s, i) => ({ s, i })).filter(({ s }) => !s.topics);
    const rows = new Array<UpsertRow | undefined>(statements.length).fill(undefined);
    if (batched.length > 0) {
      const batchRows = rowsByItem(await this.runUpsert<UpsertRow & { i: number }>(UPSERT_CONTACTS_BATCH_SQL, buildUpsertBatchParams(batched.map((b) => b.s)), manager), batched.length);
      batched.forEach(({ i }, k) => (rows[i] = batchRows[k]));
    }
    for (let i = 0; i < rows.length; i++) rows[i] ??= await this.upsertOne(statements[i], manager);
    return { results: prepared.map(({ patch }, i) => this.upserted(rows[i]!, patch)), afterCommit };
  }

  /** The statement input of one upsert, with the data patch and the field types it registers. */
  private prepareUpsert(projectId: string, input: UpsertContactInput, event?: { name: string }, topics?: TopicsStatement) {
    const patch = compileDataPatch(input.data);
    const defaults = input.dataDefaults ?? {};
    const fieldTypes = this.fields.pendingTypes(projectId, { ...defaults, ...patch.set });
    const statement: UpsertStatementInput = {
      projectId,
      email: normalizeEmail(input.email),
      subscribed: input.subscribed ?? null,
      defaultSubscribed: input.defaultSubscribed,
      set: patch.set,
      unset: patch.unset,
      defaults,
      flipData: { source: input.source },
      event: event ? { name: event.name, data: { ...patch.set, ...patch.transient } } : undefined,
      fieldTypes,
      topics,
      confirm: input.confirm ?? null,
    };
    return { patch, fieldTypes, statement };
  }

  /** An upsert's result (its events reach consumers through the event outbox once committed). */
  private upserted(row: UpsertRow, patch: CompiledDataPatch): UpsertContactResult {
    const contact = fromContactRow(row);
    return { contact, isNew: row.inserted, changed: row.changed, variables: templateVariables(contact.data, patch.transient) };
  }

  /** The single-statement upsert (also what a batch falls back to, item by item). */
  private async upsertOne(input: UpsertStatementInput, manager?: EntityManager): Promise<UpsertRow> {
    const { sql, params } = buildUpsertStatement(input);
    let rows: UpsertRow[] = [];
    for (let attempt = 0; attempt < 3 && rows.length === 0; attempt++) rows = await this.runUpsert<UpsertRow>(sql, params, manager);
    if (rows.length === 0) throw new Error('contact upsert returned no row');
    return rows[0];
  }

  /** Data the database cannot store (U+0000 in jsonb) is the caller's 422 on `data`. */
  private async runUpsert<R>(sql: string, params: unknown[], manager?: EntityManager): Promise<R[]> {
    try {
      return await this.repository.runUpsert<R>(sql, params, manager);
    } catch (error) {
      if (isUnstorableText(error)) throw dataNotStorable();
      throw error;
    }
  }

  /** Null when absent (also for a malformed id or another project's id). */
  async findById(projectId: string, id: string, manager?: EntityManager): Promise<Contact | null> {
    if (!isContactId(id)) return null;
    const row = await this.repository.findById(projectId, id, manager);
    return row ? fromContactRow(row) : null;
  }

  async getById(projectId: string, id: string): Promise<Contact> {
    const contact = await this.findById(projectId, id);
    if (!contact) throw contactNotFound();
    return contact;
  }

  async findByEmail(projectId: string, email: string, manager?: EntityManager): Promise<Contact | null> {
    const row = await this.repository.findByEmail(projectId, normalizeEmail(email), manager);
    return row ? fromContactRow(row) : null;
  }

  /** Sets the flag; a flip stores `contact.subscribed`/`contact.unsubscribed` in the same statement. 404 when absent. */
  async setSubscribed(projectId: string, contactId: string, subscribed: boolean, reason?: string, manager?: EntityManager): Promise<boolean> {
    if (!isContactId(contactId)) throw contactNotFound();
    // With a reason the caller is the service itself (bounce, complaint, hosted page), not the API.
    const result = await this.setSubscribedMany(projectId, [contactId], subscribed, { reason, source: reason ? 'system' : 'api' }, manager);
    if (result.notFound.length > 0) throw contactNotFound();
    // The person's own choice (the preference centre) or the API's: an erased address becomes mailable again.
    if (subscribed) await this.liftErasure(projectId, contactId, manager);
    return result.flipped.length > 0;
  }

  /**
   * Set-based subscription change for many contacts (bulk jobs): one statement updates the
   * contacts whose state differs and stores one event per flip. Ids of other projects or
   * malformed ids come back in `notFound` and are never touched.
   */
  async setSubscribedMany(
    projectId: string,
    contactIds: string[],
    subscribed: boolean,
    meta: { reason?: string; source?: ContactSource } = {},
    manager?: EntityManager,
  ): Promise<{ flipped: string[]; unchanged: string[]; notFound: string[] }> {
    const ids = [...new Set(contactIds.filter(isContactId))];
    const data: JsonObject = { source: meta.source ?? 'api' };
    if (meta.reason) data.reason = meta.reason;
    const row = await this.repository.setSubscribedMany(
      projectId,
      ids,
      subscribed,
      { name: subscribed ? CONTACT_SUBSCRIBED : CONTACT_UNSUBSCRIBED, data },
      manager,
    );
    const found = new Set(row.found ?? []);
    const flipped = new Set(row.flipped ?? []);
    const unique = [...new Set(contactIds)];
    return {
      flipped: unique.filter((id) => flipped.has(id)),
      unchanged: unique.filter((id) => found.has(id) && !flipped.has(id)),
      notFound: unique.filter((id) => !found.has(id)),
    };
  }

  /** PATCH /contacts/:id: data rules, email change (409 when taken), subscription flip, topic and snooze events. */
  async patch(projectId: string, id: string, input: PatchContactInput, meta: { source: ContactSource; reason?: string } = { source: 'api' }): Promise<Contact> {
    if (!isContactId(id)) throw contactNotFound();
    if (input.snoozedUntil && input.snoozedUntil.getTime() <= Date.now()) throw snoozeInPast(input.snoozedUntil);
    try {
      return await this.dataSource.transaction(async (em) => {
        const row = await this.repository.findForUpdate(projectId, id, em);
        if (!row) throw contactNotFound();
        const current = fromContactRow(row);
        const email = input.email === undefined ? current.email : normalizeEmail(input.email);
        if (email !== current.email) {
          if (await this.repository.emailTaken(projectId, email, em)) throw contactEmailTaken(email);
        }
        const { data, changedKeys } = applyDataPatch(current.data, input.data);
        const topicsPatch = await this.topicsStatement(projectId, input.topics, em);
        // Checked above (values and slugs); the data rules apply as they are.
        const { data: topics, changedKeys: changedTopics } = applyDataPatch(current.topics, topicsPatch ? input.topics : undefined);
        const subscribed = input.subscribed ?? current.subscribed;
        const snoozedUntil = input.snoozedUntil === undefined ? current.snoozedUntil : input.snoozedUntil;
        const snoozeChanged = (snoozedUntil?.getTime() ?? null) !== (current.snoozedUntil?.getTime() ?? null);
        const changed = email !== current.email || subscribed !== current.subscribed || changedKeys.length > 0 || changedTopics.length > 0 || snoozeChanged;
        // An explicit subscription lifts an erased address's hold on marketing mail, even for a contact already subscribed.
        if (input.subscribed === true) await this.erased.liftErasedAddress(projectId, email, em);
        if (!changed) return current;
        await this.fields.register(projectId, [compileDataPatch(input.data).set], em);
        const updated = await this.repository.update(projectId, id, { email, subscribed, data, topics: topics as Record<string, boolean>, snoozedUntil }, em);
        if (subscribed !== current.subscribed) {
          await this.events.record(projectId, { contactId: id, name: subscribed ? CONTACT_SUBSCRIBED : CONTACT_UNSUBSCRIBED, data: { source: 'api' } }, em);
        }
        for (const event of topicEvents(current.topics, topics as Record<string, boolean>, topicsPatch?.rules ?? [])) {
          await this.events.record(projectId, { contactId: id, name: event.name, data: { topic: event.topic, ...meta } }, em);
        }
        if (snoozeChanged) {
          await this.events.record(projectId, { contactId: id, name: CONTACT_SNOOZED, data: { until: snoozedUntil ? snoozedUntil.toISOString() : null, ...meta } }, em);
        }
        return fromContactRow(updated);
      });
    } catch (error) {
      // Two concurrent PATCHes racing to the same email: the unique index decides.
      if (isUniqueViolation(error)) throw contactEmailTaken(input.email ?? '');
      if (isUnstorableText(error)) throw dataNotStorable();
      throw error;
    }
  }

  /**
   * Takes the contact's address off the project's erased list: it subscribed explicitly (PATCH,
   * the preference centre, a double opt-in confirmation), so marketing mail reaches it again.
   */
  async liftErasure(projectId: string, contactId: string, manager?: EntityManager): Promise<void> {
    const contact = await this.repository.findById(projectId, contactId, manager);
    if (contact) await this.erased.liftErasedAddress(projectId, contact.email, manager);
  }

  async remove(projectId: string, id: string): Promise<void> {
    if (!isContactId(id)) throw contactNotFound();
    let removed: number;
    try {
      // Its cascade (emails' contact set to NULL) can meet a sent record of the contact's email in
      // the other lock order; the database aborts one of the two, and the delete runs again.
      removed = await retryOnConflict(() => this.repository.remove(projectId, id));
    } catch (error) {
      // A table added later that references contacts without ON DELETE: a clear 409, not a 500.
      if (isForeignKeyViolation(error)) throw contactStillReferenced((error as { table?: string }).table);
      throw error;
    }
    if (!removed) throw contactNotFound();
  }

  /** The project's contacts with these addresses (already normalized), in one statement; addresses without a contact are absent. */
  async idsByEmail(projectId: string, emails: string[], manager?: EntityManager): Promise<Array<{ id: string; email: string }>> {
    return this.repository.idsByEmail(projectId, emails, manager);
  }

  /** Case-insensitive existence check; found and notFound echo the caller's strings in order (Plunk's clients read plain strings). */
  async lookup(projectId: string, emails: string[]): Promise<{ found: string[]; notFound: string[] }> {
    const rows = await this.idsByEmail(projectId, [...new Set(emails.map(normalizeEmail))]);
    const existing = new Set(rows.map((row) => row.email));
    const found: string[] = [];
    const notFound: string[] = [];
    const seen = new Set<string>();
    for (const email of emails) {
      const key = normalizeEmail(email);
      if (seen.has(key)) continue;
      seen.add(key);
      (existing.has(key) ? found : notFound).push(email);
    }
    return { found, notFound };
  }
}

/** The membership events of a change of topic choices (only the topics named by the change can move). */
function topicEvents(before: Record<string, boolean>, after: Record<string, boolean>, rules: TopicRule[]): Array<{ name: string; topic: string }> {
  return rules
    .filter((rule) => isTopicMember(before, rule) !== isTopicMember(after, rule))
    .map((rule) => ({ name: isTopicMember(after, rule) ? CONTACT_TOPIC_SUBSCRIBED : CONTACT_TOPIC_UNSUBSCRIBED, topic: rule.slug }));
}
