import fs from 'node:fs';
import path from 'node:path';
import { temporalServerVersion, temporalUiVersion } from '../../scripts/cluster/cluster-build';
import { composeSearchAttributes } from '../../scripts/cluster/cluster';
import {
  clusterDynamicConfig,
  clusterPorts,
  clusterServices,
  serviceConfig,
  uiConfig,
} from '../../scripts/cluster/cluster-config';
import { cadreSearchAttributes } from '../../src/protocol/search-attributes';

const root = path.join(__dirname, '..', '..');
const compose = fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
const composeDynamicConfig = fs.readFileSync(path.join(root, 'docker', 'temporal', 'dynamicconfig.yaml'), 'utf8');

describe('the cluster the scripts run and the compose users deploy', () => {
  it('run the same Temporal server version', () => {
    const images = [...compose.matchAll(/image: temporalio\/(server|admin-tools):(\S+)/g)].map((match) => match[2]);
    expect(images.length).toBe(3);
    for (const version of images) expect(version).toBe(temporalServerVersion);
  });

  it('run the same Temporal UI version', () => {
    const ui = [...compose.matchAll(/image: temporalio\/ui:(\S+)/g)].map((match) => match[1]);
    expect(ui).toEqual([temporalUiVersion]);
  });

  it("run the compose's dynamic config, which bounds ids to PostgreSQL's 255 characters; eager dispatch only on request", () => {
    expect(clusterDynamicConfig({})).toBe(composeDynamicConfig);
    expect(composeDynamicConfig).toMatch(/limit\.maxIDLength:\n {2}- value: 255/);
    const eager = clusterDynamicConfig({ CADRE_CLUSTER_EAGER: '1' });
    expect(eager.startsWith(composeDynamicConfig.trimEnd())).toBe(true);
    expect(eager).toMatch(/system\.enableActivityEagerExecution:\n {2}- value: true/);
  });

  it("create Cadre's search attributes, each one Cadre sets", () => {
    const pairs = composeSearchAttributes().split(/\s+/);
    const declared = cadreSearchAttributes.map(({ name, type }) => `${name}=${type === 'KEYWORD' ? 'Keyword' : 'Int'}`);
    expect(pairs.sort()).toEqual(declared.sort());
  });

  it('give each service its own ports, and every service the others', () => {
    const ports = clusterPorts({});
    expect(ports).toMatchObject({ frontend: 7333, postgres: 5433 });
    const configs = clusterServices.map((service) =>
      serviceConfig(service, ports, { user: 'temporal', password: 'temporal' }, '/tmp/dc.yaml'),
    );
    const metrics = configs.map((config) => /listenAddress: "127\.0\.0\.1:(\d+)"/.exec(config)?.[1]);
    expect(new Set(metrics).size).toBe(4);
    for (const config of configs) {
      for (const service of clusterServices) expect(config).toContain(`grpcPort: ${ports[service]}`);
      expect(config).toContain(`connectAddr: "127.0.0.1:${ports.postgres}"`);
      expect(config).toContain('filepath: "/tmp/dc.yaml"');
    }
    const all = [...new Set(Object.values(ports))];
    expect(all).toHaveLength(Object.values(ports).length);
  });

  it("point Temporal UI at the cluster's frontend, with a codec endpoint only when one is given", () => {
    const ports = clusterPorts({});
    expect(uiConfig(ports, {})).toContain('temporalGrpcAddress: 127.0.0.1:7333\nport: 8333\n');
    expect(uiConfig(ports, {})).toMatch(/codec:\n {2}endpoint: \n/);
    expect(uiConfig(ports, { CADRE_CLUSTER_CODEC_ENDPOINT: 'http://127.0.0.1:8234' })).toContain(
      'endpoint: http://127.0.0.1:8234',
    );
  });

  it('refuse a port that is not one, naming the variable', () => {
    expect(() => clusterPorts({ CADRE_CLUSTER_PORT: 'x' })).toThrow(
      'CADRE_CLUSTER_PORT must be a port between 1024 and 65000; got x.',
    );
  });
});
