/** Address (`host:port`) of the Temporal server that jest's global setup started for this run. */
export function testAddress(): string {
  const address = process.env.CADRE_TEST_TEMPORAL_ADDRESS;
  if (!address) {
    throw new Error(
      'CADRE_TEST_TEMPORAL_ADDRESS is not set: run tests through jest (its globalSetup test/setup/global-setup.ts starts the server).',
    );
  }
  return address;
}

/** Namespace of the shared test server (`default` unless TEMPORAL_NAMESPACE says otherwise). */
export function testNamespace(): string {
  return process.env.CADRE_TEST_TEMPORAL_NAMESPACE ?? 'default';
}
