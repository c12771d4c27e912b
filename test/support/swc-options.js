// SWC's options for our TypeScript, shared by Jest (jest.config.js) and by the e2e tests that
// spawn the service from its sources (ts-register.js).
module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs', ignoreDynamic: true },
  sourceMaps: 'inline',
};
