import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

/**
 * The repository seam (docs/architecture.md, "Where SQL lives"): a module's SQL and its TypeORM
 * repositories live only in its `*.repository.ts` / `*.store.ts` files, the `*.sql.ts`
 * fragments it exports and its `sql/` statement builders; `platform/database/` holds the mechanism itself (migrations, advisory
 * locks, the statement runner). This walks `src/` and names every other file that runs a query,
 * holds a statement or reaches for a TypeORM repository.
 */
const SRC = join(__dirname, '..', '..');
const ALLOWED_FILE = /(\.(repository|store|sql)\.ts|\/sql\/[^/]+\.ts)$/;
const ALLOWED_DIR = 'platform/database/';
/** The recipient rule is one file holding it in TS and in SQL side by side, with one spec proving both agree. */
const ALLOWED_EXCEPTIONS = new Set(['modules/emails/recipient-policy.ts']);
/** A statement in a string or template literal (our SQL is written in upper case). */
const STATEMENT = /\b(SELECT\b[\s\S]*?\bFROM\b|INSERT\s+INTO\b|UPDATE\s+[a-z_."]+\s+(?:[a-z_]+\s+)?SET\b|DELETE\s+FROM\b|ON\s+CONFLICT\b|pg_(?:try_)?advisory)/;
/** Data access that bypasses a repository: raw queries, TypeORM repositories and query builders. */
const ACCESS_CALLS = new Set(['query', 'getRepository', 'createQueryBuilder']);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

export function findings(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const line = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (STATEMENT.test(node.text)) found.push(`${line(node)}: SQL statement`);
    } else if (ts.isTemplateExpression(node)) {
      // A statement split around interpolations: test the literal parts joined.
      const joined = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ? ');
      if (STATEMENT.test(joined) && !STATEMENT.test(node.head.text) && !node.templateSpans.some((s) => STATEMENT.test(s.literal.text))) {
        found.push(`${line(node)}: SQL statement`);
      }
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ACCESS_CALLS.has(node.expression.name.text)) {
      found.push(`${line(node)}: .${node.expression.name.text}()`);
    } else if (ts.isDecorator(node) && ts.isCallExpression(node.expression) && ts.isIdentifier(node.expression.expression) && node.expression.expression.text === 'InjectRepository') {
      found.push(`${line(node)}: @InjectRepository`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** A module's data seam: its repositories, stores and statement builders. */
const SEAM_FILE = /\.(repository|store|sql)\.ts$/;
/** What runs a statement: a raw query, the statement runner, a transaction, or holding a manager or data source to do so. */
const RUN_CALLS = new Set(['query', 'run', 'transaction', 'getRepository', 'createQueryBuilder']);
const RUNNERS = new Set(['DataSource', 'EntityManager', 'StatementRunner', 'QueryRunner']);

/** Line numbers of imports of a `dto/` folder (rows are not wire: a repository returns its own row types). */
export function dtoImports(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  return file.statements
    .filter((s): s is ts.ImportDeclaration | ts.ExportDeclaration => ts.isImportDeclaration(s) || ts.isExportDeclaration(s))
    .filter((s) => s.moduleSpecifier && ts.isStringLiteral(s.moduleSpecifier) && /(^|\/)dto\//.test(s.moduleSpecifier.text))
    .map((s) => String(file.getLineAndCharacterOfPosition(s.getStart()).line + 1));
}

/** Where a file runs a statement or takes what runs one (a `*.sql.ts` file only builds statements). */
export function statementRuns(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const line = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && RUN_CALLS.has(node.expression.name.text)) {
      found.push(`${line(node)}: .${node.expression.name.text}()`);
    } else if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && RUNNERS.has(node.typeName.text)) {
      found.push(`${line(node)}: ${node.typeName.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('SQL placement', () => {
  it('recognises statements, raw queries and TypeORM repositories (and not prose)', () => {
    const sample = [
      "const a = 'SELECT id FROM contacts WHERE project_id = $1';",
      'const b = `INSERT INTO emails (id) VALUES (${x})`;',
      'const c = `UPDATE emails e SET status = $1`;',
      'await this.dataSource.query(x);',
      'const r = manager.getRepository(Contact);',
      '// SELECT id FROM contacts in a comment is prose',
      "const d = 'select an option from the list';",
    ].join('\n');
    expect(findings('x.ts', sample).map((f) => f.split(': ')[0])).toEqual(['1', '2', '3', '4', '5']);
  });

  it('recognises a dto/ import and a statement run', () => {
    const sample = [
      "import { EmailRow } from './dto/email.response';",
      "import type { X } from '../contacts/dto/contact.response';",
      "import { EmailRow } from './emails.rows';",
      'await manager.query(text, values);',
      'await this.statements.run(SQL, [], em);',
      'function insert(em: EntityManager) {}',
      "const dtoNote = 'dto/ is the wire';",
    ].join('\n');
    expect(dtoImports('x.ts', sample)).toEqual(['1', '2']);
    expect(statementRuns('x.ts', sample)).toEqual(['4: .query()', '5: .run()', '6: EntityManager']);
  });

  it('keeps repositories, stores and sql files off the wire: none imports dto/', () => {
    const offenders = walk(join(SRC, 'modules'))
      .filter((path) => SEAM_FILE.test(path))
      .flatMap((path) => dtoImports(path, readFileSync(path, 'utf8')).map((l) => `${relative(SRC, path).split('\\').join('/')}:${l}`));
    expect(offenders).toEqual([]);
  });

  it('keeps *.sql.ts files to building statements: none runs one', () => {
    const offenders = walk(join(SRC, 'modules'))
      .filter((path) => path.endsWith('.sql.ts'))
      .flatMap((path) => statementRuns(path, readFileSync(path, 'utf8')).map((f) => `${relative(SRC, path).split('\\').join('/')}:${f}`));
    expect(offenders).toEqual([]);
  });

  it('keeps SQL and repositories in *.repository.ts, *.store.ts and *.sql.ts files only', () => {
    const offenders = walk(SRC)
      .map((path) => ({ path: relative(SRC, path).split('\\').join('/'), path_: path }))
      .filter(({ path }) => !ALLOWED_FILE.test(path) && !path.startsWith(ALLOWED_DIR) && !ALLOWED_EXCEPTIONS.has(path))
      .flatMap(({ path, path_ }) => findings(path, readFileSync(path_, 'utf8')).map((f) => `${path}:${f}`));
    expect(offenders).toEqual([]);
  });
});
