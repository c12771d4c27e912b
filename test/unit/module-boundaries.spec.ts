import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The `mailroom/module-boundaries` lint rule (scripts/eslint/module-boundaries.mjs), run by ESLint
 * itself over probe sources: another module's file is importable only when its index.ts lists it,
 * and platform/ does not import modules/ (but platform/mail).
 */
const ROOT = join(__dirname, '..', '..');

function lint(filename: string, source: string): string[] {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--stdin', '--stdin-filename', filename, '--format', 'json'], {
    cwd: ROOT,
    input: source,
    encoding: 'utf8',
  });
  const [report] = JSON.parse(result.stdout) as Array<{ messages: Array<{ ruleId: string | null; line: number; message: string }> }>;
  return report.messages.filter((m) => m.ruleId === 'mailroom/module-boundaries').map((m) => `${m.line}: ${m.message.split(':')[0]}`);
}

describe('mailroom/module-boundaries', () => {
  it('allows what an index lists, refuses the rest of another module and modules/ from platform/', () => {
    const probe = [
      "import { EmailQueueFacade } from '../emails/email-queue.facade';", // listed by emails/index.ts
      "import { EmailPipeline } from '../emails/engine/email-pipeline';", // emails' internals
      "import { EmailsModule } from '../emails';", // the index itself
      "import { CampaignsRepository } from './campaigns.repository';", // its own module
      'export const used = [EmailQueueFacade, EmailPipeline, EmailsModule, CampaignsRepository];',
    ].join('\n');
    expect(lint('src/modules/campaigns/probe.ts', probe)).toEqual(["2: '../emails/engine/email-pipeline' reaches into module 'emails'"]);

    const platform = "import { EmailsModule } from '../../modules/emails/emails.module';\nexport const used = EmailsModule;\n";
    expect(lint('src/platform/http/probe.ts', platform)).toHaveLength(1);
    expect(lint('src/platform/mail/probe.ts', platform)).toEqual([]);
  });
});
