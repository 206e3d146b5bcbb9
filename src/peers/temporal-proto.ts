import type * as Proto from '@temporalio/proto';
import { createRequire } from 'node:module';

/**
 * The Temporal API's protobuf classes, from the `@temporalio/proto` that the project's own
 * `@temporalio/client` loads. That package is not one Cadre takes from the project: the client
 * depends on it at its own version, and npm may nest that copy under it, so Cadre reads the same one.
 */
export const temporal: typeof Proto.temporal = (
  createRequire(require.resolve('@temporalio/client'))('@temporalio/proto') as typeof Proto
).temporal;
