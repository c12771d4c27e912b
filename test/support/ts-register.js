// `node -r ./test/support/ts-register.js src/main.ts`: runs the service from its TypeScript
// sources (compiled on load by SWC, like Jest does), so e2e tests can spawn the real process
// without depending on a build in dist/.
const { transformSync } = require('@swc/core');
const { readFileSync } = require('node:fs');
const swcOptions = require('./swc-options');

require.extensions['.ts'] = function compileTs(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { filename, ...swcOptions });
  module._compile(code, filename);
};
