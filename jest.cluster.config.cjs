/**
 * `npm run test:cluster`: the cluster's fault tests (`*.cluster.ts`) and the suites named on the
 * command line, on the four-service cluster that scripts/cluster/test-cluster.ts brings up.
 */
const base = require('./jest.config.cjs');

module.exports = { ...base, testMatch: ['**/*.cluster.ts', '**/*.test.ts'] };
