/**
 * Unit specs sit beside the code; e2e suites drive the real app over HTTP.
 * NestJS 12, TypeORM 1 and BullMQ 6 ship as ES modules, so SWC compiles both our TypeScript and
 * those packages to CommonJS for Jest's module system (type checking is `npm run lint`'s job).
 */
const swc = ['@swc/jest', require('./test/support/swc-options')];
const shared = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|typeorm|bullmq|uuid|file-type|strtok3|token-types|peek-readable|@tokenizer|load-esm|@borewit|uint8array-extras|marked)/)'],
};
module.exports = {
  projects: [
    { ...shared, displayName: 'unit', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts'] },
    { ...shared, displayName: 'e2e', rootDir: __dirname, testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
  // Long enough for an app to start while another suite runs beside it on a loaded two-core machine.
  testTimeout: 120_000,
  // Two suites at a time even on two cores (Jest's default would be one): e2e suites mostly wait on
  // sockets and timers, so the whole run takes about half as long; each suite has its own app,
  // database and ports.
  maxWorkers: 2,
  // A worker keeps what each suite's app leaves behind (module registries, PGlite's buffers): past
  // 1 GB of heap after a suite it is replaced by a fresh one, instead of growing towards V8's heap
  // limit, where collections run back to back and every later suite slows down.
  workerIdleMemoryLimit: '1GB',
};
