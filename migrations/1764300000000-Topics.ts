import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Consent, part 1 (docs/extensions.md, section 3): a project's topics, a contact's explicit topic
 * choices (`contacts.topics`, `{<slug>: boolean}`) and snooze (`contacts.snoozed_until`), and a
 * campaign's topic. Effective membership is computed, never stored (docs/topics.md).
 */
export class Topics1764300000000 implements MigrationInterface {
  name = 'Topics1764300000000';

  async up(q: QueryRunner): Promise<void> {
    // subscription_default values are persisted: 'opt_out' | 'opt_in'.
    await q.query(`
      CREATE TABLE topics (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        name text NOT NULL,
        slug text NOT NULL,
        description text,
        subscription_default text NOT NULL,
        public boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT topics_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE,
        CONSTRAINT topics_project_slug_key UNIQUE (project_id, slug),
        CONSTRAINT topics_subscription_default_check CHECK (subscription_default IN ('opt_out', 'opt_in'))
      )`);
    await q.query(`ALTER TABLE contacts ADD COLUMN topics jsonb NOT NULL DEFAULT '{}'::jsonb`);
    await q.query(`ALTER TABLE contacts ADD COLUMN snoozed_until timestamptz`);
    // Topic filters and audiences test `topics @> '{"<slug>": true|false}'`.
    await q.query(`CREATE INDEX contacts_topics_gin_idx ON contacts USING gin (topics jsonb_path_ops)`);
    await q.query(`ALTER TABLE campaigns ADD COLUMN topic_id uuid`);
    // Deleting a topic is refused while a SCHEDULED or SENDING campaign names it; other campaigns lose it.
    await q.query(`ALTER TABLE campaigns ADD CONSTRAINT campaigns_topic_id_fkey FOREIGN KEY (topic_id) REFERENCES topics(id) ON DELETE SET NULL`);
    // A campaign's content row names its topic: the pipeline's List-Unsubscribe leaves that topic.
    await q.query(`ALTER TABLE email_contents ADD COLUMN topic_id uuid`);
    await q.query(`ALTER TABLE email_contents ADD CONSTRAINT email_contents_topic_id_fkey FOREIGN KEY (topic_id) REFERENCES topics(id) ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_contents DROP COLUMN topic_id`);
    await q.query(`ALTER TABLE campaigns DROP COLUMN topic_id`);
    await q.query(`DROP INDEX IF EXISTS contacts_topics_gin_idx`);
    await q.query(`ALTER TABLE contacts DROP COLUMN snoozed_until`);
    await q.query(`ALTER TABLE contacts DROP COLUMN topics`);
    await q.query(`DROP TABLE topics`);
  }
}
