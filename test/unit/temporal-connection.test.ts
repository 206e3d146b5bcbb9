import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../../src/client/agent-client';
import { refuseCallsAfterClose } from '../../src/client/closed-connection';
import { resolveTemporalConnection } from '../../src/client/temporal-connection';
import { ConfigurationError } from '../../src/errors';
import { defineAgent } from '../../src/agents/define-agent';
import { createAgentWorker } from '../../src/worker/create-agent-worker';
import { scriptedModel } from '../helpers/scripted-model';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-envconfig-'));
const configFile = path.join(folder, 'temporal.toml');
const certFile = path.join(folder, 'client.pem');
const keyFile = path.join(folder, 'client.key');
fs.writeFileSync(certFile, 'CERTIFICATE');
fs.writeFileSync(keyFile, 'PRIVATE KEY');
fs.writeFileSync(
  configFile,
  [
    '[profile.default]',
    'address = "localhost:7233"',
    '',
    '[profile.cloud]',
    'address = "agents.a1b2c.tmprl.cloud:7233"',
    'namespace = "agents.a1b2c"',
    'api_key = "profile-api-key"',
    '',
    '[profile.cloud.tls]',
    'server_name = "agents.a1b2c.tmprl.cloud"',
    '',
    '[profile.mtls]',
    'address = "agents.a1b2c.tmprl.cloud:7233"',
    '',
    '[profile.mtls.tls]',
    `client_cert_path = "${certFile}"`,
    `client_key_path = "${keyFile}"`,
  ].join('\n'),
);

afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** The variables the tests set; everything else (HOME included) is left out, so no user file is read. */
const cloudProfile = { TEMPORAL_CONFIG_FILE: configFile, TEMPORAL_PROFILE: 'cloud' };

describe('resolveTemporalConnection', () => {
  test('connects to 127.0.0.1:7233, namespace default, without TLS when nothing is configured', () => {
    expect(resolveTemporalConnection({ environment: {} })).toEqual({
      connectionOptions: { address: '127.0.0.1:7233' },
      namespace: 'default',
      addressSource: 'the default',
    });
  });

  test("takes a profile's address, namespace, API key and TLS server name from the config file", () => {
    const resolved = resolveTemporalConnection({ environment: cloudProfile });
    expect(resolved.namespace).toBe('agents.a1b2c');
    expect(resolved.addressSource).toBe(`profile 'cloud' of config file ${configFile}`);
    expect(resolved.connectionOptions).toEqual({
      address: 'agents.a1b2c.tmprl.cloud:7233',
      apiKey: 'profile-api-key',
      tls: expect.objectContaining({ serverNameOverride: 'agents.a1b2c.tmprl.cloud' }),
    });
  });

  test('reads the default profile when TEMPORAL_PROFILE is unset', () => {
    const resolved = resolveTemporalConnection({ environment: { TEMPORAL_CONFIG_FILE: configFile } });
    expect(resolved.connectionOptions).toEqual({ address: 'localhost:7233' });
  });

  test('TEMPORAL_* variables override the profile, and TLS variables combine with its TLS table', () => {
    const resolved = resolveTemporalConnection({
      environment: {
        ...cloudProfile,
        TEMPORAL_ADDRESS: 'us-east-1.aws.api.temporal.io:7233',
        TEMPORAL_NAMESPACE: 'other.a1b2c',
        TEMPORAL_API_KEY: 'variable-api-key',
        TEMPORAL_TLS_SERVER_CA_CERT_DATA: 'CA CERTIFICATE',
        TEMPORAL_GRPC_META_TEMPORAL_NAMESPACE: 'other.a1b2c',
      },
    });
    expect(resolved.addressSource).toBe('TEMPORAL_ADDRESS');
    expect(resolved.namespace).toBe('other.a1b2c');
    expect(resolved.connectionOptions).toMatchObject({
      address: 'us-east-1.aws.api.temporal.io:7233',
      apiKey: 'variable-api-key',
      metadata: { 'temporal-namespace': 'other.a1b2c' },
    });
    const tls = resolved.connectionOptions.tls as { serverNameOverride?: string; serverRootCACertificate?: Buffer };
    expect(tls.serverNameOverride).toBe('agents.a1b2c.tmprl.cloud');
    expect(Buffer.from(tls.serverRootCACertificate ?? []).toString()).toBe('CA CERTIFICATE');
  });

  test('an API key alone turns TLS on, and TEMPORAL_TLS=false turns it off', () => {
    expect(resolveTemporalConnection({ environment: { TEMPORAL_API_KEY: 'k' } }).connectionOptions).toEqual({
      address: '127.0.0.1:7233',
      apiKey: 'k',
      tls: true,
    });
    const plain = resolveTemporalConnection({ environment: { TEMPORAL_API_KEY: 'k', TEMPORAL_TLS: 'false' } });
    expect(plain.connectionOptions.tls).toBe(false);
  });

  test('client certificate and key paths become an mTLS certificate pair', () => {
    const resolved = resolveTemporalConnection({ configFile, profile: 'mtls', environment: {} });
    const tls = resolved.connectionOptions.tls as { clientCertPair?: { crt: Buffer; key: Buffer } };
    expect(Buffer.from(tls.clientCertPair?.crt ?? []).toString()).toBe('CERTIFICATE');
    expect(Buffer.from(tls.clientCertPair?.key ?? []).toString()).toBe('PRIVATE KEY');
  });

  test('explicit address and namespace win over the variables and the profile, which still give TLS and the key', () => {
    const resolved = resolveTemporalConnection({
      address: 'temporal.internal:7233',
      namespace: 'agents',
      environment: { ...cloudProfile, TEMPORAL_ADDRESS: 'ignored:7233', TEMPORAL_NAMESPACE: 'ignored' },
    });
    expect(resolved).toMatchObject({
      connectionOptions: { address: 'temporal.internal:7233', apiKey: 'profile-api-key' },
      namespace: 'agents',
      addressSource: 'the address option',
    });
  });

  test('treats empty variables as unset, as compose passes them through', () => {
    const resolved = resolveTemporalConnection({ environment: { TEMPORAL_ADDRESS: '', TEMPORAL_API_KEY: '' } });
    expect(resolved.connectionOptions).toEqual({ address: '127.0.0.1:7233' });
  });

  test('an unknown profile is a ConfigurationError that names it', () => {
    const resolve = () => resolveTemporalConnection({ environment: { ...cloudProfile, TEMPORAL_PROFILE: 'nosuch' } });
    expect(resolve).toThrow(ConfigurationError);
    expect(resolve).toThrow(/profile 'nosuch'.*set TEMPORAL_PROFILE to one that exists/s);
  });

  test('a TEMPORAL_CONFIG_FILE that does not exist is a ConfigurationError that names the file', () => {
    const missing = path.join(folder, 'missing.toml');
    expect(() => resolveTemporalConnection({ environment: { TEMPORAL_CONFIG_FILE: missing } })).toThrow(
      `TEMPORAL_CONFIG_FILE names ${missing}, which does not exist.`,
    );
  });
});

describe('connections opened from a profile', () => {
  const savedEnvironment = { ...process.env };
  const fakeConnection = { close: jest.fn(async () => undefined) } as unknown as Connection;

  beforeEach(() => {
    for (const name of Object.keys(process.env)) if (name.startsWith('TEMPORAL_')) delete process.env[name];
    Object.assign(process.env, cloudProfile);
  });

  afterEach(() => {
    jest.restoreAllMocks();
    for (const name of Object.keys(process.env)) if (!(name in savedEnvironment)) delete process.env[name];
    Object.assign(process.env, savedEnvironment);
  });

  const expectedOptions = {
    address: 'agents.a1b2c.tmprl.cloud:7233',
    apiKey: 'profile-api-key',
    tls: expect.objectContaining({ serverNameOverride: 'agents.a1b2c.tmprl.cloud' }),
  };

  /** Temporal's retries, then the guard that fails a retry of a closed connection's call. */
  const closableInterceptors = [expect.any(Function), refuseCallsAfterClose];

  test("AgentClient.connect passes the profile's API key and TLS setting to Connection.connect", async () => {
    const connect = jest.spyOn(Connection, 'connect').mockResolvedValue(fakeConnection);
    const agents = await AgentClient.connect();
    expect(connect).toHaveBeenCalledWith({ ...expectedOptions, interceptors: closableInterceptors });
    expect(agents.client.options.namespace).toBe('agents.a1b2c');
    await agents.close();
  });

  test("createAgentWorker passes the profile's API key and TLS setting to both of its connections", async () => {
    const clientConnect = jest.spyOn(Connection, 'connect').mockResolvedValue(fakeConnection);
    const stopHere = new Error('stop before the worker is created');
    const nativeConnect = jest.spyOn(NativeConnection, 'connect').mockRejectedValue(stopHere);
    const assistant = defineAgent({ name: 'assistant', model: scriptedModel([]), instructions: 'Answer.' });
    await expect(createAgentWorker({ agents: [assistant], store: 'sqlite::memory:' })).rejects.toThrow(
      stopHere.message,
    );
    expect(clientConnect).toHaveBeenCalledWith({ ...expectedOptions, interceptors: closableInterceptors });
    expect(nativeConnect).toHaveBeenCalledWith(expectedOptions);
  });
});
