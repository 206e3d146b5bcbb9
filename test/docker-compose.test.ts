import fs from 'node:fs';
import path from 'node:path';
// ajv 6 comes with eslint; it speaks draft-07, the compose schema's dialect.
import Ajv from 'ajv';
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
  init?: boolean;
}

const root = path.resolve(__dirname, '..');
// Compose resolves YAML merge keys (`<<: *anchor`), so the test reads the file the same way.
const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');

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

/** The host file or folder behind a bind mount with container path `target`. */
function mountedSource(name: string, target: string): string {
  const mount = (service(name).volumes ?? []).map((volume) => volume.split(':')).find(([, to]) => to === target);
  if (!mount?.[0]) throw new Error(`service '${name}' mounts nothing at ${target}`);
  return path.resolve(root, mount[0]);
}

/** The file a one-shot job runs: its entrypoint's script, read from the folder mounted into the job. */
function jobScript(name: string): string {
  const entrypoint = [service(name).entrypoint].flat().join(' ');
  const script = entrypoint.split(' ').find((word) => word.endsWith('.sh'));
  if (!script) throw new Error(`service '${name}' runs no .sh script: ${entrypoint}`);
  return fs.readFileSync(mountedSource(name, script), 'utf8');
}

/** Container ports published on the host, as `host:container` (the bind address dropped). */
function publishedPorts(name: string): string[] {
  return (service(name).ports ?? []).map((mapping) => mapping.split(':').slice(-2).join(':'));
}

describe('docker-compose.yml', () => {
  test('validates against the Compose Specification schema', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, 'unit/fixtures/compose-spec.json'), 'utf8')) as {
      $schema?: string;
    };
    // ajv 6 knows draft-07 as http://json-schema.org/draft-07/schema#; the schema names it over https.
    delete schema.$schema;
    const ajv = new Ajv({ allErrors: true });
    const valid = ajv.validate(schema, compose);
    expect(ajv.errorsText(ajv.errors, { dataVar: 'compose' })).toBe('No errors');
    expect(valid).toBe(true);
  });

  test('runs PostgreSQL, the Temporal schema job, Temporal, the namespace job, Temporal UI and the Cadre worker', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['cadre-worker', 'postgresql', 'temporal', 'temporal-namespace', 'temporal-schema', 'temporal-ui'].sort(),
    );
    expect(service('postgresql').image).toMatch(/^postgres:/);
    expect(service('temporal').image).toMatch(/^temporalio\/server:/);
    expect(service('temporal-ui').image).toMatch(/^temporalio\/ui:/);
    expect(service('temporal-schema').image).toMatch(/^temporalio\/admin-tools:/);
    expect(service('temporal-namespace').image).toMatch(/^temporalio\/admin-tools:/);
  });

  test('uses no deprecated Temporal image', () => {
    for (const [name, { image }] of Object.entries(compose.services)) {
      expect([name, image]).not.toEqual([
        name,
        expect.stringMatching(/^temporalio\/(auto-setup|admin-tools:.*-tctl-)/),
      ]);
    }
  });

  test("sets up Temporal's schemas in PostgreSQL before the server starts, and starts it with the same database", () => {
    expect(dependencies('temporal-schema')).toEqual({ postgresql: 'service_healthy' });
    expect(dependencies('temporal')).toEqual({ 'temporal-schema': 'service_completed_successfully' });
    const database = { DB: 'postgres12', POSTGRES_SEEDS: 'postgresql', POSTGRES_USER: 'temporal' };
    expect(environment('temporal-schema')).toMatchObject(database);
    expect(environment('temporal')).toMatchObject(database);
    const script = jobScript('temporal-schema');
    for (const database of ['temporal', 'temporal_visibility']) expect(script).toMatch(new RegExp(`\\b${database}\\b`));
    expect(script).toContain('setup-schema');
    expect(script).toContain('update-schema');
    expect(fs.existsSync(mountedSource('temporal', '/etc/temporal/config/dynamicconfig/cadre.yaml'))).toBe(true);
  });

  test('publishes the Temporal frontend on 7233 and the UI on 8080', () => {
    expect(publishedPorts('temporal')).toContain('7233:7233');
    expect(publishedPorts('temporal-ui')).toContain('8080:8080');
    expect(environment('temporal-ui').TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  test('creates the namespace and every Cadre search attribute with its type after the server is healthy', () => {
    expect(dependencies('temporal-namespace')).toEqual({ temporal: 'service_healthy' });
    const script = jobScript('temporal-namespace');
    expect(script).toContain('temporal operator namespace create');
    expect(script).toContain('temporal operator search-attribute create');
    expect(environment('temporal-namespace').TEMPORAL_NAMESPACE).toBe(environment('cadre-worker').TEMPORAL_NAMESPACE);
    const declared = String(environment('temporal-namespace').CADRE_SEARCH_ATTRIBUTES).trim().split(/\s+/);
    const expected = cadreSearchAttributes.map((key) => `${key.name}=${cliTypeNames[key.type]}`);
    expect(declared.sort()).toEqual(expected.sort());
  });

  test('starts the worker after PostgreSQL and Temporal are healthy and the search attributes exist', () => {
    expect(dependencies('cadre-worker')).toEqual({
      postgresql: 'service_healthy',
      temporal: 'service_healthy',
      'temporal-namespace': 'service_completed_successfully',
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

  test('passes the model provider settings and the approval secrets through to the worker', () => {
    const worker = environment('cadre-worker');
    for (const name of [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'CADRE_MODEL',
      'CADRE_APPROVAL_SECRET',
      'CADRE_APPROVAL_SECRET_PREVIOUS',
    ]) {
      expect(worker).toHaveProperty(name, null);
    }
  });

  test('passes the Worker Deployment and the build id through to the worker, for rolling deploys', () => {
    const worker = environment('cadre-worker');
    for (const name of ['CADRE_DEPLOYMENT', 'CADRE_BUILD_ID']) expect(worker).toHaveProperty(name, null);
  });

  test('serves the agents module named by CADRE_AGENTS from the folder mounted at /app/agents', () => {
    const agentsModule = String(environment('cadre-worker').CADRE_AGENTS);
    // `${CADRE_AGENTS:-/app/agents/agents.cjs}`: the host's CADRE_AGENTS, else the starter module.
    const defaultModule = /^\$\{CADRE_AGENTS:-(.+)\}$/.exec(agentsModule)?.[1];
    expect(defaultModule).toMatch(/^\/app\/agents\//);
    const mount = (service('cadre-worker').volumes ?? []).find((volume) => volume.endsWith(':/app/agents:ro'));
    const folder = /^\$\{CADRE_AGENTS_DIR:-(.+)\}$/.exec(mount?.slice(0, -':/app/agents:ro'.length) ?? '')?.[1];
    expect(folder).toBeDefined();
    const starter = path.resolve(root, String(folder), path.basename(String(defaultModule)));
    expect(fs.readFileSync(starter, 'utf8')).toMatch(/exports\.agents = \[/);
  });

  test('builds the worker image from a multi-stage Dockerfile: compiled JavaScript, production dependencies, non-root, with a HEALTHCHECK', () => {
    const build = service('cadre-worker').build;
    const context = typeof build === 'string' ? build : (build?.context ?? '.');
    const file = typeof build === 'string' ? 'Dockerfile' : (build?.dockerfile ?? 'Dockerfile');
    expect(path.resolve(root, context, file)).toBe(path.join(root, 'Dockerfile'));
    expect(service('cadre-worker').init).toBe(true);

    const stages = dockerfile.split(/^FROM /m).slice(1);
    expect(stages).toHaveLength(2);
    const [buildStage = '', runtimeStage = ''] = stages;
    expect(buildStage).toMatch(/^node:24\S* AS build/);
    expect(buildStage).toMatch(/npm ci --no-audit/);
    expect(buildStage).toMatch(/RUN npm run build/);
    expect(runtimeStage).toMatch(/^node:24\S* AS runtime/);
    expect(runtimeStage).toMatch(/npm ci --omit=dev/);
    expect(runtimeStage).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
    expect(runtimeStage).not.toMatch(/COPY (\S+ )?src\b/);
    expect(runtimeStage).toMatch(/^USER node$/m);
    expect(runtimeStage).toMatch(/^HEALTHCHECK .*\\\n\s+CMD \["node", "docker\/healthcheck.cjs"\]/m);
    expect(runtimeStage).toMatch(/^CMD \["node", "dist\/src\/cli\/main.js", "worker"\]$/m);
    expect(fs.existsSync(path.join(root, 'docker/healthcheck.cjs'))).toBe(true);
  });

  test('runs the CLI that the build compiles', () => {
    // tsconfig.build.json compiles src/ to dist/src/, so src/cli/main.ts becomes dist/src/cli/main.js.
    const buildConfig = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8')) as {
      compilerOptions: { rootDir: string; outDir: string };
    };
    expect(buildConfig.compilerOptions).toMatchObject({ rootDir: '.', outDir: 'dist' });
    expect(fs.existsSync(path.join(root, 'src/cli/main.ts'))).toBe(true);
  });
});
