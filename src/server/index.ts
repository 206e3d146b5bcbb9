/** Finding or starting a Temporal server: the embedded dev server, the time-skipping test server, paths. */
export { startDevServer, type DevServer, type DevServerOptions } from './dev-server';
export {
  registerSearchAttributes,
  listCustomSearchAttributes,
  type RegisterSearchAttributesOptions,
  type SearchAttributeDefinition,
} from './search-attribute-registration';
export { createTimeSkippingEnvironment, type TimeSkippingEnvironmentOptions } from './test-server';
export {
  cadreHome,
  cadrePaths,
  findProjectRoot,
  findTemporalCli,
  findTestServer,
  findOnPath,
  type CadrePaths,
} from './paths';
export { cadreCommand, commandContext, type CommandContext } from './command-hints';
export { findFreePort, isPortFree } from './free-port';
export { connectWhenReady, type ConnectWhenReadyOptions } from './wait-for-server';
