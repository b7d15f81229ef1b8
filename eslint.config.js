// Flat ESLint config: JS recommended + typescript-eslint type-checked rules,
// React hooks rules for components. Run with `npm run lint`; see docs/development.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'src/schema/generated/**', 'data/**', '.tmp/**', 'coverage/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // `_name` marks a binding kept on purpose (omitted by rest destructuring, unused parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Fastify plugins and hooks, and interface methods, are async by contract; dropping
      // `async` would change how Fastify calls them (it expects a `done` callback then).
      '@typescript-eslint/require-await': 'off',
      // Interfaces here declare closures with method syntax (objects are built from closures,
      // not classes), so passing `obj.method` around is safe; the rule cannot see that.
      '@typescript-eslint/unbound-method': 'off',
      // Rows are Record<string, unknown>; `String(v ?? '')` after null checks types `v` as `{}`,
      // which the rule reads as a plain object. Values are scalars by then.
      '@typescript-eslint/no-base-to-string': 'off',
      // React event props take async handlers; they catch their own errors (feedback.message).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { ...globals.node },
    },
  },
);
