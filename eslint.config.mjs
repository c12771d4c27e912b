// Flat config: typescript-eslint's recommended rules without type information (fast; `tsc --noEmit`
// in `npm run lint` does the type checking). Kept permissive where helpers' styles differ.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import mailroom from './scripts/eslint/module-boundaries.mjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'bench/results/**', '.exp/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-empty-function': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-namespace': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'prefer-const': 'warn',
    },
  },
  // A module is imported only through what its index.ts declares public (docs/architecture.md).
  {
    files: ['src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    plugins: { mailroom },
    rules: { 'mailroom/module-boundaries': 'error' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // The dashboard (web/): the rules of hooks on top of the same TypeScript rules.
  { files: ['web/src/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
