// @ts-check
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const nodeBuiltins = ['fs', 'path', 'os', 'crypto', 'child_process', 'http', 'https', 'net', 'util', 'stream', 'events', 'worker_threads'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cadre/**', 'coverage/**', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    rules: {
      // A forgotten await on a Temporal API is a real bug.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-require-imports': 'off',
      'import-x/no-cycle': 'error',
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no user code, activities by type only.
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.flatMap((name) => [
            { name, message: 'Workflow code runs in the sandbox: do I/O in an activity.' },
            { name: `node:${name}`, message: 'Workflow code runs in the sandbox: do I/O in an activity.' },
          ]),
          patterns: [
            { group: ['../activities/*'], allowTypeImports: true, message: 'Import activities with `import type` only.' },
            { group: ['ai', '@ai-sdk/*'], allowTypeImports: true, message: 'The workflow imports the AI SDK for types only.' },
            { group: ['../agents/*'], allowTypeImports: true, message: 'Agent definitions hold user code; the workflow imports their types only.' },
          ],
        },
      ],
    },
  },
);
