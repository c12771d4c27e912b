import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The `mailroom/module-boundaries` lint rule (scripts/eslint/module-boundaries.mjs), run by ESLint
 * itself over probe sources: imports go down the layers of scripts/module-layers.mjs, and another
 * module is imported through its index.ts; and the module graph has no cycle.
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
  it('allows a module through its index, refuses its other files, and asks for the index over a listed file', () => {
    const probe = [
      "import { EmailQueueFacade } from '../emails/email-queue.facade';", // listed by emails/index.ts, but not the index
      "import { EmailPipeline } from '../emails/engine/email-pipeline';", // emails' internals
      "import { EmailsModule } from '../emails';", // the index itself
      "import { CampaignsRepository } from './campaigns.repository';", // its own module
      'export const used = [EmailQueueFacade, EmailPipeline, EmailsModule, CampaignsRepository];',
    ].join('\n');
    expect(lint('src/modules/workflows/probe.ts', probe)).toEqual([
      "1: '../emails/email-queue.facade'",
      "2: '../emails/engine/email-pipeline' reaches into module 'emails'",
    ]);
  });

  it('refuses an import up the layers, from platform/ too, but lets the app assembly bind a module', () => {
    expect(lint('src/modules/contacts/probe.ts', "import { CampaignsService } from '../campaigns';\nexport const used = CampaignsService;\n")).toEqual(["1: '../campaigns'"]);
    const platform = "import { EmailsModule } from '../../modules/emails';\nexport const used = EmailsModule;\n";
    expect(lint('src/platform/http/probe.ts', platform)).toEqual(["1: '../../modules/emails'"]);
    expect(lint('src/platform/mail/probe.ts', platform)).toEqual(["1: '../../modules/emails'"]);
    expect(lint('src/platform/mail/system-mail.module.ts', platform)).toEqual([]);
  });

  it("finds no cycle in src/'s module graph, and the one an import from events back to contacts would close", () => {
    // npm run lint:modules fails on any cycle of this graph; PENDING (imports allowed to close one) is empty.
    const script = `
      import { cyclesOf, PENDING, unitGraph } from './scripts/module-layers.mjs';
      const edges = unitGraph('src');
      const withBackEdge = new Map(edges).set('modules/events -> modules/contacts', { from: 'modules/events', to: 'modules/contacts', files: [] });
      console.log(JSON.stringify({ pending: PENDING, cycles: cyclesOf(edges), withBackEdge: cyclesOf(withBackEdge) }));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    const graph = JSON.parse(result.stdout) as { pending: string[]; cycles: string[][]; withBackEdge: string[][] };
    expect(graph.pending).toEqual([]);
    expect(graph.cycles).toEqual([]);
    expect(graph.withBackEdge).toEqual([['modules/contacts', 'modules/events']]);
  });
});
