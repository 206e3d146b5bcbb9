import type pg from 'pg';
import { requireOptionalPeer } from '../peers/peer-check';

/**
 * `pg`, an optional peer loaded when a `postgres://` store opens; a project without it gets the
 * command to install it instead of a module error.
 */
export function pgPackage(): typeof pg {
  const loaded = requireOptionalPeer<typeof pg & { default?: typeof pg }>('pg', 'A postgres:// conversation store');
  return loaded.default ?? loaded;
}
