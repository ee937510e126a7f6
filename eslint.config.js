// ESLint 9 flat config: `npm run lint` (eslint .).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments';

export default tseslint.config(
  // Only the TypeScript sources are linted; build output, data and Next's generated files are not.
  // The consumer test's app templates import the packed library, not the sources (test/consumer/run.ts).
  {
    ignores: [
      'dist/',
      'docs/.vitepress/dist/',
      'docs/.vitepress/cache/',
      'docs/public/api-reference/',
      'coverage/',
      'bench/.data/',
      'bench/.profiles/',
      '**/.next/',
      '**/next-env.d.ts',
      '.tmp/',
      'data/',
      'test/consumer/apps/',
    ],
  },
  {
    files: ['{src,adapters,examples,test,bench,scripts}/**/*.{ts,tsx}', 'docs/.vitepress/config.ts', '*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    // Type information for the promise rules and the unnecessary-cast rule only (the whole run stays well under a minute).
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // A cast the types already make true hides nothing but may hide a later change of type.
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // Inline `type` markers, as the sources already write them.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // A leading `_` marks a binding kept on purpose (an unused argument, a key left out of a rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: 'error',
      'no-console': 'error',
      // The text sanitizers match NUL and other control characters on purpose, as PHP's do.
      'no-control-regex': 'off',
    },
  },
  // Examples and benchmarks are scripts: printing is their output.
  { files: ['examples/**', 'bench/**', 'scripts/**'], rules: { 'no-console': 'off' } },
  // Every eslint-disable says why after ` -- `: a disable comment is the allow-list of the rules below.
  {
    plugins: { '@eslint-community/eslint-comments': eslintComments },
    rules: { '@eslint-community/eslint-comments/require-description': 'error' },
  },
  // In the library, a non-null `!` or a cast through `unknown` turns the type checker off at that spot: each one that stays
  // carries an eslint-disable-next-line saying why it holds.
  {
    files: ['src/**/*.{ts,tsx}', 'adapters/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      'no-restricted-syntax': [
        'error',
        {
          // `x as unknown as T`, and the same written with angle brackets (`<T>(<unknown>x)`).
          selector: ":matches(TSAsExpression, TSTypeAssertion) > :matches(TSAsExpression, TSTypeAssertion).expression[typeAnnotation.type='TSUnknownKeyword']",
          message:
            "A cast through 'unknown' ('x as unknown as T') accepts any type: type the value instead, or say why it holds in an eslint-disable-next-line comment.",
        },
      ],
    },
  },
);
