import path from 'node:path';
import { ConfigurationError } from '../errors';
import { cadrePaths } from '../server/paths';

/** A parsed CADRE_STORE_URL: a SQLite file (or `:memory:`), or a PostgreSQL connection string. */
export type StoreLocation = { kind: 'sqlite'; file: string } | { kind: 'postgres'; connectionString: string };

/**
 * The SQLite file used when CADRE_STORE_URL is unset: `data/cadre.db` of the Cadre home (the
 * project's `.cadre/`, or CADRE_HOME), beside the dev server's database.
 */
export function defaultStoreFile(): string {
  return path.join(cadrePaths().dataDir, 'cadre.db');
}

/** The store URL to open: `url`, else CADRE_STORE_URL, else `sqlite:` plus {@link defaultStoreFile}. */
export function resolveStoreUrl(url?: string): string {
  return url ?? (process.env.CADRE_STORE_URL || `sqlite:${defaultStoreFile()}`);
}

/**
 * Parses `sqlite:<path>`, `sqlite::memory:`, `postgres://...` or `postgresql://...`; a relative
 * SQLite path is resolved against the working directory. Anything else is a ConfigurationError.
 */
export function parseStoreUrl(url: string): StoreLocation {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw badUrl(url, 'the SQLite path is empty');
    return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
  }
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    try {
      new URL(url);
    } catch {
      throw badUrl(url, 'it is not a valid URL');
    }
    return { kind: 'postgres', connectionString: url };
  }
  throw badUrl(url, 'the scheme is not supported');
}

/** `url` with any password replaced by `***`, safe to print in messages and logs. */
export function describeStoreUrl(url: string): string {
  if (url.startsWith('sqlite:') || !url.includes('://')) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    parsed.searchParams.forEach((_value, key) => {
      if (key.toLowerCase() === 'password') parsed.searchParams.set(key, '***');
    });
    return parsed.toString();
  } catch {
    // Unparseable: drop everything between the scheme and the host rather than risk leaking a password.
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

function badUrl(url: string, reason: string): ConfigurationError {
  return new ConfigurationError(
    `CADRE_STORE_URL must start with sqlite: (e.g. sqlite:.cadre/data/cadre.db or sqlite::memory:) or ` +
      `postgres:// (e.g. postgres://user:password@host:5432/cadre); got '${describeStoreUrl(url)}' (${reason}).`,
  );
}
