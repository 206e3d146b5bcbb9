import fs from 'node:fs';
import path from 'node:path';

/** The four services of a Temporal server, in the order they start. */
export const clusterServices = ['history', 'matching', 'frontend', 'worker'] as const;
export type ClusterService = (typeof clusterServices)[number];

/** The ports the cluster listens on. */
export interface ClusterPorts {
  frontend: number;
  frontendHttp: number;
  history: number;
  matching: number;
  worker: number;
  postgres: number;
  ui: number;
}

/** Offsets from the frontend's port (`CADRE_CLUSTER_PORT`, default 7333), clear of the dev server's 7233. */
const offsets = { frontendHttp: 10, history: 1, matching: 2, worker: 6 } as const;
/** Each service's membership port is its gRPC port plus this. */
export const membershipOffset = 100;
/** Each service's metrics port, by its index in {@link clusterServices}. */
const metricsBase = 9101;

/** The ports from the environment: `CADRE_CLUSTER_PORT` (the frontend) and `CADRE_CLUSTER_PG_PORT`. */
export function clusterPorts(env: NodeJS.ProcessEnv): ClusterPorts {
  const frontend = Number(env.CADRE_CLUSTER_PORT || 7333);
  const postgres = Number(env.CADRE_CLUSTER_PG_PORT || 5433);
  for (const [name, value] of [
    ['CADRE_CLUSTER_PORT', frontend],
    ['CADRE_CLUSTER_PG_PORT', postgres],
  ] as const) {
    if (!Number.isInteger(value) || value < 1024 || value > 65000) {
      throw new Error(`${name} must be a port between 1024 and 65000; got ${env[name]}.`);
    }
  }
  return {
    frontend,
    frontendHttp: frontend + offsets.frontendHttp,
    history: frontend + offsets.history,
    matching: frontend + offsets.matching,
    worker: frontend + offsets.worker,
    postgres,
    ui: frontend + 1000,
  };
}

const composeDynamicConfig = path.resolve(__dirname, '..', '..', 'docker', 'temporal', 'dynamicconfig.yaml');

/**
 * The cluster's dynamic config: the compose's file as it is, then the keys this run sets on top
 * (`CADRE_CLUSTER_EAGER=1` turns on eager activity dispatch, off in the server's defaults).
 */
export function clusterDynamicConfig(env: NodeJS.ProcessEnv): string {
  const base = fs.readFileSync(composeDynamicConfig, 'utf8');
  if (env.CADRE_CLUSTER_EAGER !== '1') return base;
  return `${base.trimEnd()}\n# Set by CADRE_CLUSTER_EAGER=1 (npm run cluster -- up)\nsystem.enableActivityEagerExecution:\n  - value: true\n`;
}

/**
 * Temporal UI's config (`base.yaml` of its config folder): the cluster's frontend, and the codec
 * endpoint from `CADRE_CLUSTER_CODEC_ENDPOINT` (for example `cadre dev`'s codec server) when set.
 */
export function uiConfig(ports: ClusterPorts, env: NodeJS.ProcessEnv): string {
  const codec = env.CADRE_CLUSTER_CODEC_ENDPOINT ?? '';
  return `# Made by scripts/cluster (npm run cluster -- up).
temporalGrpcAddress: 127.0.0.1:${ports.frontend}
port: ${ports.ui}
enableUi: true
defaultNamespace: default
refreshInterval: 1m
cors:
  cookieInsecure: true
  allowOrigins:
    - http://localhost:${ports.ui}
codec:
  endpoint: ${codec}
  passAccessToken: false
`;
}

/**
 * One service's config, from the server module's `config/development-postgres12.yaml`: PostgreSQL
 * for both stores, every service's ports (each process learns the others through membership),
 * and this service's own metrics port.
 */
export function serviceConfig(
  service: ClusterService,
  ports: ClusterPorts,
  database: { user: string; password: string },
  dynamicConfigFile: string,
): string {
  const store = (name: string, maxConns: number) => `    ${name}:
      sql:
        pluginName: "postgres12"
        databaseName: "${name === 'postgres-default' ? 'temporal' : 'temporal_visibility'}"
        connectAddr: "127.0.0.1:${ports.postgres}"
        connectProtocol: "tcp"
        user: "${database.user}"
        password: "${database.password}"
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: "1h"`;
  const rpc = (name: ClusterService) => {
    const grpc = ports[name];
    return `  ${name}:
    rpc:
      grpcPort: ${grpc}
      membershipPort: ${grpc + membershipOffset}
      bindOnLocalHost: true${name === 'frontend' ? `\n      httpPort: ${ports.frontendHttp}` : ''}`;
  };
  return `# Made by scripts/cluster (npm run cluster -- up) for the ${service} service.
log:
  stdout: true
  level: warn

persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: 4
  datastores:
${store('postgres-default', 20)}
${store('postgres-visibility', 4)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
  metrics:
    prometheus:
      framework: "tally"
      timerType: "histogram"
      listenAddress: "127.0.0.1:${metricsBase + clusterServices.indexOf(service)}"

services:
${clusterServices.map(rpc).join('\n')}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:${ports.frontend}"

dcRedirectionPolicy:
  policy: "noop"

dynamicConfigClient:
  filepath: "${dynamicConfigFile}"
  pollInterval: "10s"
`;
}
