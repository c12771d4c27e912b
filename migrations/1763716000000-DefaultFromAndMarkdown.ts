import { MigrationInterface, QueryRunner } from 'typeorm';

export class DefaultFromAndMarkdown1763716000000 implements MigrationInterface {
  name = 'DefaultFromAndMarkdown1763716000000';

  async up(q: QueryRunner): Promise<void> {
    // The sender of a send that names none, neither itself nor through its template (Plunk's SDK
    // sends no `from`); set with PATCH /users/@me/projects/:id {defaultFrom}, null when unset.
    await q.query(`ALTER TABLE projects ADD COLUMN default_from_address text, ADD COLUMN default_from_name text`);
    // A `/v1/send` with `type: "markdown"`: its body is converted to HTML after its Liquid is rendered.
    await q.query(`ALTER TABLE email_contents ADD COLUMN markdown boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_contents DROP COLUMN markdown`);
    await q.query(`ALTER TABLE projects DROP COLUMN default_from_name, DROP COLUMN default_from_address`);
  }
}
