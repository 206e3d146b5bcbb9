/** Jest runs the TypeScript tests as CommonJS; `ai` (ESM-only) loads through require(esm) on Node 24. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }] },
  setupFiles: ['<rootDir>/test/setup/quiet-logs.ts'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 120000,
  // `npm test` runs one file at a time in one worker (`--maxWorkers=1`, not `--runInBand`), which Jest
  // replaces once its heap passes this: Jest loads the modules again for each file and the heap kept
  // about 50 MB of each, until the last files' workers ran slow enough to pass their tests' timeouts.
  workerIdleMemoryLimit: '1GB',
};
