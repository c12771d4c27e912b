import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { OpenAPI3 } from 'openapi-typescript';
import { AppModule } from '../src/app.module';
import { loadConfig } from '../src/config/config';
import { buildOpenApiDocument } from '../src/platform/http/openapi';

/**
 * `npm run api:types`: writes the dashboard's API types (web/src/api/schema.d.ts) from the
 * service's OpenAPI document, the one `/docs/openapi.json` serves. The app is created in Nest's
 * preview mode: modules and controllers are read, no provider runs, no database or queue is
 * reached. `--check` (a step of `npm run lint`) fails when the committed file is stale.
 */
const TARGET = join(__dirname, '..', 'web', 'src', 'api', 'schema.d.ts');

async function openApiDocument(): Promise<OpenAPI3> {
  // Defaults only, so the document does not depend on the shell that runs this.
  const config = loadConfig({});
  const app = await NestFactory.create(AppModule.forRoot({ config, databaseUrl: 'postgres://preview.invalid/none' }), { preview: true, logger: false, abortOnError: false });
  try {
    return buildOpenApiDocument(app, config) as OpenAPI3;
  } finally {
    await app.close();
  }
}

async function generate(): Promise<string> {
  const { default: openapiTS, astToString, COMMENT_HEADER } = await import('openapi-typescript');
  const nodes = await openapiTS(await openApiDocument(), { silent: true });
  return `${COMMENT_HEADER}// Regenerate with \`npm run api:types\` after changing a controller or a DTO.\n\n${astToString(nodes)}`;
}

async function main(): Promise<void> {
  const types = await generate();
  if (!process.argv.includes('--check')) {
    writeFileSync(TARGET, types);
    console.log(`API types written: ${TARGET}`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(TARGET, 'utf8');
  } catch {}
  if (committed !== types) {
    console.error(`${TARGET} is stale: the OpenAPI document changed. Run \`npm run api:types\` and commit the result.`);
    process.exit(1);
  }
  console.log('API types are current');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
