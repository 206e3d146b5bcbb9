import fs from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import { loadClientConfigProfile, toClientOptions, type ClientConfigProfile } from '@temporalio/envconfig';
import { ConfigurationError } from '../errors';

/** The address used when no option, variable or profile names one: a local dev server. */
export const defaultTemporalAddress = '127.0.0.1:7233';

/** The namespace used when no option, variable or profile names one. */
export const defaultTemporalNamespace = 'default';

/** Explicit connection settings; each one set here wins over the environment and the profile file. */
export interface TemporalConnectionSettings {
  /** Temporal frontend address, `host:port`. */
  address?: string;
  /** The Temporal namespace. */
  namespace?: string;
  /**
   * Profile of the TOML config file.
   * @default `TEMPORAL_PROFILE`, else `default`
   */
  profile?: string;
  /**
   * Path of the TOML config file.
   * @default `TEMPORAL_CONFIG_FILE`, else `temporalio/temporal.toml` in the user's config folder
   */
  configFile?: string;
  /** Variables to read instead of `process.env` (tests, or a caller that keeps its own). */
  environment?: Record<string, string | undefined>;
}

/** Options that both `Connection.connect` (client) and `NativeConnection.connect` (worker) accept. */
export interface TemporalConnectionOptions {
  /** Temporal frontend address, `host:port`. */
  address: string;
  /** `true` for TLS with the system roots, a config for mTLS or a custom CA, `false` to force plain text. */
  tls?: TLSConfig | boolean;
  /** Sent as a bearer token (Temporal Cloud API keys); implies TLS unless TLS is disabled. */
  apiKey?: string;
  /** gRPC headers sent with every request (`TEMPORAL_GRPC_META_*`, `grpc_meta` in a profile). */
  metadata?: Record<string, string>;
}

/** A resolved Temporal connection: what to pass to `connect`, the namespace, and where the address came from. */
export interface TemporalConnectionConfig {
  connectionOptions: TemporalConnectionOptions;
  namespace: string;
  /** Where the address came from, for error messages: `the address option`, `TEMPORAL_ADDRESS`, a profile, or `the default`. */
  addressSource: string;
}

/**
 * Resolves Temporal connection options the way Temporal's SDKs and CLI do (`@temporalio/envconfig`):
 * a profile of the TOML config file, then `TEMPORAL_*` variables over it, then explicit settings over both.
 * @example
 * const { connectionOptions, namespace } = resolveTemporalConnection({ namespace: 'agents' });
 * const connection = await Connection.connect(connectionOptions);
 */
export function resolveTemporalConnection(settings: TemporalConnectionSettings = {}): TemporalConnectionConfig {
  const environment = definedValues(settings.environment ?? process.env);
  const configFile = settings.configFile ?? environment.TEMPORAL_CONFIG_FILE;
  const profileName = settings.profile ?? environment.TEMPORAL_PROFILE;
  const fileDescription = configFile ? `config file ${configFile}` : 'the Temporal config file';
  if (configFile !== undefined && !fs.existsSync(configFile)) {
    const from = settings.configFile !== undefined ? 'The configFile option' : 'TEMPORAL_CONFIG_FILE';
    throw new ConfigurationError(
      `${from} names ${configFile}, which does not exist. Create the file (see "Connecting to Temporal" in the README) or point ${from === 'TEMPORAL_CONFIG_FILE' ? 'the variable' : 'the option'} at an existing one.`,
    );
  }

  let profile: ClientConfigProfile;
  let connectConfig: ReturnType<typeof toClientOptions>;
  try {
    profile = loadClientConfigProfile({
      profile: profileName,
      configSource: configFile !== undefined ? { path: configFile } : undefined,
      overrideEnvVars: environment,
    });
    connectConfig = toClientOptions(profile);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigurationError(
      `Cannot load the Temporal connection settings (profile '${profileName ?? 'default'}' of ${fileDescription}, and the TEMPORAL_* variables): ${reason}. ` +
        'Fix the profile, or set TEMPORAL_PROFILE to one that exists; a TLS file named by a *_PATH setting must be readable.',
    );
  }

  const { address, tls, apiKey, metadata } = connectConfig.connectionOptions;
  const connectionOptions: TemporalConnectionOptions = {
    address: settings.address ?? address ?? defaultTemporalAddress,
  };
  if (tls !== undefined && tls !== null) connectionOptions.tls = tls;
  if (apiKey !== undefined) connectionOptions.apiKey = apiKey;
  if (metadata !== undefined && Object.keys(metadata).length > 0) {
    connectionOptions.metadata = metadata as Record<string, string>;
  }
  return {
    connectionOptions,
    namespace: settings.namespace ?? connectConfig.namespace ?? defaultTemporalNamespace,
    addressSource: addressSource(settings, environment, profile, profileName, fileDescription),
  };
}

function addressSource(
  settings: TemporalConnectionSettings,
  environment: Record<string, string>,
  profile: ClientConfigProfile,
  profileName: string | undefined,
  fileDescription: string,
): string {
  if (settings.address !== undefined) return 'the address option';
  if (environment.TEMPORAL_ADDRESS !== undefined) return 'TEMPORAL_ADDRESS';
  if (profile.address !== undefined) return `profile '${profileName ?? 'default'}' of ${fileDescription}`;
  return 'the default';
}

/**
 * envconfig reads variables from a string map. An empty variable counts as unset (compose passes
 * `TEMPORAL_API_KEY:` through empty when the host has none), except `TEMPORAL_GRPC_META_*`, where
 * empty removes a header.
 */
function definedValues(environment: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && (entry[1] !== '' || entry[0].startsWith('TEMPORAL_GRPC_META_')),
    ),
  );
}
