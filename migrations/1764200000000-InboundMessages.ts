import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mail received on SMTP_INBOUND_PORT (docs/extensions.md, "Inbound mail and bounces"): one row
 * per (message, project owning a recipient's domain); the raw bytes live in storage under
 * `storage_key`. Rows go with their project; a deleted contact leaves its messages unlinked.
 */
export class InboundMessages1764200000000 implements MigrationInterface {
  name = 'InboundMessages1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE inbound_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        contact_id text,
        storage_key text NOT NULL,
        size integer NOT NULL,
        mail_from text,
        recipients text[] NOT NULL,
        from_address text,
        subject text,
        message_id text,
        spf text NOT NULL,
        dkim text NOT NULL,
        dmarc text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT inbound_messages_project_id_fkey FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE,
        CONSTRAINT inbound_messages_contact_id_fkey FOREIGN KEY (contact_id) REFERENCES contacts(id) ON DELETE SET NULL
      )`);
    await q.query(`CREATE INDEX inbound_messages_project_received_idx ON inbound_messages (project_id, received_at)`);
    await q.query(`CREATE INDEX inbound_messages_contact_idx ON inbound_messages (contact_id) WHERE contact_id IS NOT NULL`);
    await q.query(`CREATE INDEX inbound_messages_received_idx ON inbound_messages (received_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE inbound_messages`);
  }
}
