import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { cadreSearchAttributes } from '../src/protocol/search-attributes';

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  depends_on?: string[] | Record<string, { condition?: string }>;
  environment?: Record<string, string | null> | string[];
  ports?: string[];
  volumes?: string[];
  entrypoint?: string | string[];
  command?: string | string[];
}

const root = path.resolve(__dirname, '..');
const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, ComposeService>;
};

/** The type names `temporal operator search-attribute create --type` accepts. */
const cliTypeNames: Record<string, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

function service(name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service '${name}'`);
  return found;
}

function environment(name: string): Record<string, string | null> {
  const value = service(name).environment ?? {};
  if (!Array.isArray(value)) return value;
  return Object.fromEntries(
    value.map((entry) => [entry.split('=')[0], entry.includes('=') ? entry.slice(entry.indexOf('=') + 1) : null]),
  );
}

function dependencies(name: string): Record<string, string | undefined> {
  const value = service(name).depends_on ?? {};
  if (Array.isArray(value)) return Object.fromEntries(value.map((dependency) => [dependency, undefined]));
  return Object.fromEntries(Object.entries(value).map(([dependency, settings]) => [dependency, settings.condition]));
}

/** Container ports published on the host, as `host:container` (the bind address dropped). */
function publishedPorts(name: string): string[] {
  return (service(name).ports ?? []).map((mapping) => mapping.split(':').slice(-2).join(':'));
}

describe('docker-compose.yml', () => {
  test('runs PostgreSQL, Temporal, Temporal UI, the search attribute job and the Cadre worker', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['cadre-search-attributes', 'cadre-worker', 'postgresql', 'temporal', 'temporal-ui'].sort(),
    );
    expect(service('postgresql').image).toMatch(/^postgres:/);
    expect(service('temporal').image).toMatch(/^temporalio\/auto-setup:/);
    expect(service('temporal-ui').image).toMatch(/^temporalio\/ui:/);
    expect(service('cadre-search-attributes').image).toMatch(/^temporalio\/admin-tools:/);
  });

  test('stores Temporal state in PostgreSQL once it is healthy', () => {
    expect(environment('temporal')).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
    expect(dependencies('temporal')).toEqual({ postgresql: 'service_healthy' });
  });

  test('publishes the Temporal frontend on 7233 and the UI on 8080', () => {
    expect(publishedPorts('temporal')).toContain('7233:7233');
    expect(publishedPorts('temporal-ui')).toContain('8080:8080');
    expect(environment('temporal-ui').TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  test('creates every Cadre search attribute with its type after the server is healthy', () => {
    const job = service('cadre-search-attributes');
    expect(dependencies('cadre-search-attributes')).toEqual({ temporal: 'service_healthy' });
    const script = [job.entrypoint, job.command].flat().join('\n');
    expect(script).toContain('temporal operator search-attribute create');
    const declared = String(environment('cadre-search-attributes').CADRE_SEARCH_ATTRIBUTES).trim().split(/\s+/);
    const expected = cadreSearchAttributes.map((key) => `${key.name}=${cliTypeNames[key.type]}`);
    expect(declared.sort()).toEqual(expected.sort());
  });

  test('starts the worker after PostgreSQL and Temporal are healthy and the search attributes exist', () => {
    expect(dependencies('cadre-worker')).toEqual({
      postgresql: 'service_healthy',
      temporal: 'service_healthy',
      'cadre-search-attributes': 'service_completed_successfully',
    });
    expect(environment('cadre-worker').TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  test('gives the worker a conversation store in the cadre database that PostgreSQL creates on first start', () => {
    const url = new URL(String(environment('cadre-worker').CADRE_STORE_URL));
    expect(url.protocol).toBe('postgres:');
    expect(`${url.hostname}:${url.port}${url.pathname}`).toBe('postgresql:5432/cadre');
    expect(url.username).toBe(environment('postgresql').POSTGRES_USER);
    const initFolder = (service('postgresql').volumes ?? [])
      .map((volume) => volume.split(':'))
      .find(([, target]) => target === '/docker-entrypoint-initdb.d')?.[0];
    expect(initFolder).toBeDefined();
    const scripts = fs.readdirSync(path.resolve(root, String(initFolder)));
    const sql = scripts.map((name) => fs.readFileSync(path.resolve(root, String(initFolder), name), 'utf8')).join('\n');
    expect(sql).toMatch(/CREATE DATABASE cadre\b/i);
  });

  test('passes the model provider settings through to the worker', () => {
    const worker = environment('cadre-worker');
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'CADRE_MODEL']) {
      expect(worker).toHaveProperty(name, null);
    }
  });

  test('builds the worker from a Dockerfile that exists and runs `cadre worker`', () => {
    const build = service('cadre-worker').build;
    const context = typeof build === 'string' ? build : (build?.context ?? '.');
    const dockerfile = typeof build === 'string' ? 'Dockerfile' : (build?.dockerfile ?? 'Dockerfile');
    const dockerfilePath = path.resolve(root, context, dockerfile);
    expect(fs.existsSync(dockerfilePath)).toBe(true);
    const contents = fs.readFileSync(dockerfilePath, 'utf8');
    expect(contents).toMatch(/^FROM node:24/m);
    expect(contents).toMatch(/npm ci/);
    expect(contents).toMatch(/CMD \["node", "--import", "tsx", "src\/cli\/main.ts", "worker"\]/);
  });
});
