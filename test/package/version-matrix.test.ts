import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import packageJson from '../../package.json';
import { typescriptExamples } from '../docs/markdown-pages';
import { testAddress, testNamespace } from '../helpers/temporal';
import { requiredPeers } from './required-peers';

/**
 * The version matrix: Cadre's packed package in a user's project at the lowest and at the newest
 * versions its peer ranges allow. `CADRE_MATRIX=newest` (or `lowest`) runs one end only.
 */
const root = path.join(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const peers: Record<string, string> = packageJson.peerDependencies;
const devVersions: Record<string, string> = packageJson.devDependencies;

/** What a user installs beside Cadre: the required peers, and the optional ones the docs' examples import. */
const userPackages = [
  ...requiredPeers,
  '@ai-sdk/openai',
  '@ai-sdk/mcp',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/node',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
];
/**
 * The packages of which a project must hold one copy. (`@ai-sdk/provider` is not among them: the AI
 * SDK's own packages pin it at exact versions that can differ, e.g. `@ai-sdk/mcp` behind `ai`.)
 */
const single = [
  'ai',
  'zod',
  '@temporalio/client',
  '@temporalio/common',
  '@temporalio/proto',
  '@temporalio/worker',
  '@temporalio/workflow',
];
/** The user's own tools, at this checkout's versions. */
const tools = ['typescript', '@types/node', '@types/jest'].map((name) => `${name}@${devVersions[name]}`);

type End = 'lowest' | 'newest';

/** The lowest version of a `^x.y.z` range. */
function lowest(range: string): string {
  const match = /^\^(\d+\.\d+\.\d+)$/.exec(range);
  if (!match?.[1]) throw new Error(`Peer range '${range}' is not ^x.y.z: teach the matrix its lowest version.`);
  return match[1];
}

/** The newest version the registry serves inside `range`. */
function newest(name: string, range: string): string {
  const answer = execFileSync(npm, ['view', `${name}@${range}`, 'version', '--json'], { encoding: 'utf8' });
  const versions = JSON.parse(answer) as string | string[];
  return Array.isArray(versions) ? (versions.at(-1) ?? '') : versions;
}

/** Each user package's version at one end; the Temporal SDK's packages all at the client's version. */
function versionsAt(end: End): Record<string, string> {
  const sdk =
    end === 'lowest'
      ? lowest(peers['@temporalio/client'] ?? '')
      : newest('@temporalio/client', peers['@temporalio/client'] ?? '');
  return Object.fromEntries(
    userPackages.map((name) => {
      const range = peers[name] ?? '';
      if (name.startsWith('@temporalio/')) return [name, sdk];
      return [name, end === 'lowest' ? lowest(range) : newest(name, range)];
    }),
  );
}

/** Every installed copy of `name` in the project's tree, with its version. */
function copiesOf(project: string, name: string): string[] {
  const found: string[] = [];
  const visit = (modules: string) => {
    if (!fs.existsSync(modules)) return;
    const manifest = path.join(modules, name, 'package.json');
    if (fs.existsSync(manifest)) {
      const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
      found.push(`${path.relative(project, path.dirname(manifest))}@${version}`);
    }
    for (const entry of fs.readdirSync(modules)) {
      const folders = entry.startsWith('@')
        ? fs.readdirSync(path.join(modules, entry)).map((inner) => path.join(modules, entry, inner))
        : [path.join(modules, entry)];
      for (const folder of folders) visit(path.join(folder, 'node_modules'));
    }
  };
  visit(path.join(project, 'node_modules'));
  return found;
}

/** The user's strict TypeScript set-up for a Node project: ES modules, `module: nodenext`. */
const tsconfig = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node', 'jest'],
  },
  include: ['doc-examples', '*.ts'],
};

/** A workflow of the user's own, beside Cadre's in one worker, from the project's `@temporalio/workflow`. */
const workflowsFile = `import { proxyActivities, workflowInfo } from '@temporalio/workflow';

export * from 'cadre/workflows';

const { shout } = proxyActivities<{ shout(text: string): Promise<string> }>({ startToCloseTimeout: '30 seconds' });

export async function greeting(name: string): Promise<string> {
  return \`\${await shout(\`hello, \${name}\`)} from \${workflowInfo().workflowType}\`;
}
`;

/**
 * One run as a user writes it: their own Client and NativeConnection, an approval inside a
 * subagent, and their own workflow on the same worker.
 */
const runFile = `import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from 'cadre';
import { AgentClient } from 'cadre/client';
import { createAgentWorker } from 'cadre/worker';
import { approveAll, callTool, scriptedModel } from 'cadre/testing';

const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
const taskQueue = process.env.CADRE_TASK_QUEUE ?? 'matrix';
let removed = 0;

const helper = defineAgent({
  name: 'helper',
  instructions: 'Removes the files you are asked to.',
  model: scriptedModel([callTool('remove', { path: 'notes/old.txt' }), 'Removed notes/old.txt.']),
  tools: {
    remove: tool({
      description: 'Removes a file.',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        removed += 1;
        return \`removed \${path}\`;
      },
    }),
  },
  toolApproval: { remove: 'user-approval' },
});

const lead = defineAgent({
  name: 'lead',
  instructions: 'Hand clean-ups to the helper.',
  model: scriptedModel([callTool('cleanup', { task: 'Remove notes/old.txt' }), 'The helper removed it.']),
  subagents: { cleanup: { agent: 'helper', description: 'Cleans up files.' } },
});

const connection = await NativeConnection.connect({ address });
const client = new Client({ connection: await Connection.connect({ address }), namespace });
const store = process.env.CADRE_STORE_URL;
const worker = await createAgentWorker({
  agents: [lead, helper],
  connection,
  client,
  namespace,
  taskQueue,
  store,
  workerOptions: {
    workflowsPath: fileURLToPath(new URL('./workflows.ts', import.meta.url)),
    activities: { shout: async (text: string) => text.toUpperCase() },
  },
});
const agents = AgentClient.fromClient(client, { taskQueue, store });
await worker.runUntil(async () => {
  const run = await agents.start('lead', { prompt: 'Tidy up my notes' });
  const approved = await approveAll(run, { by: 'matrix' });
  const { text } = await run.result();
  const own = await client.workflow.execute('greeting', { args: ['Ada'], taskQueue, workflowId: \`greeting-\${run.workflowId}\` });
  console.log(JSON.stringify({ text, approved: approved.map((request) => request.toolName), removed, own }));
});
await connection.close();
await client.connection.close();
`;

const ends = (['lowest', 'newest'] as const).filter(
  (end) => !process.env.CADRE_MATRIX || process.env.CADRE_MATRIX === end,
);

describe.each(ends)('Cadre in a project at the %s versions of its peer ranges', (end) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `cadre-matrix-${end}-`));
  const project = path.join(folder, 'project');
  let versions: Record<string, string> = {};

  beforeAll(() => {
    const startedAt = Date.now();
    execFileSync(npm, ['pack', '--pack-destination', folder], { cwd: root, stdio: 'ignore' });
    const tarball = fs.readdirSync(folder).find((name) => name.endsWith('.tgz')) ?? '';
    versions = versionsAt(end);
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'mine', private: true, type: 'module' }),
    );
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    fs.writeFileSync(path.join(project, 'workflows.ts'), workflowsFile);
    fs.writeFileSync(path.join(project, 'run.ts'), runFile);
    for (const [file, block] of typescriptExamples(path.join(project, 'doc-examples'))) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, `${block.code}\n`);
    }
    const wanted = Object.entries(versions).map(([name, version]) => `${name}@${version}`);
    execFileSync(
      npm,
      ['install', path.join(folder, tarball), ...wanted, ...tools, '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: project, stdio: 'ignore' },
    );
    process.stdout.write(
      `[cadre test] ${end} project (${wanted.join(' ')}) installed in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`,
    );
  }, 300_000);

  afterAll(() => {
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('holds one copy of ai, zod and each Temporal SDK package, at the versions the project asked for', () => {
    const copies = Object.fromEntries(single.map((name) => [name, copiesOf(project, name)]));
    const expected = Object.fromEntries(
      single.map((name) => {
        const version = versions[name] ?? copiesOf(project, name)[0]?.split('@').at(-1);
        return [name, [`node_modules/${name}@${version}`]];
      }),
    );
    expect(copies).toEqual(expected);
  });

  it('compiles every TypeScript example of the README and docs/, and a run written against the packages, with tsc --strict', () => {
    const tsc = spawnSync(
      process.execPath,
      [path.join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      {
        cwd: project,
        encoding: 'utf8',
      },
    );
    expect({ status: tsc.status, errors: tsc.stdout + tsc.stderr }).toEqual({ status: 0, errors: '' });
  }, 120_000);

  it("runs an approval inside a subagent from the project's own Client and NativeConnection, beside its own workflow on one worker", () => {
    const startedAt = Date.now();
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'run.ts'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 180_000,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        TEMPORAL_ADDRESS: testAddress(),
        TEMPORAL_NAMESPACE: testNamespace(),
        CADRE_TASK_QUEUE: `matrix-${end}-${randomUUID()}`,
        CADRE_STORE_URL: `sqlite:${path.join(folder, 'cadre.db')}`,
      },
    });
    process.stdout.write(`[cadre test] ${end} run: ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`);
    expect({ status: run.status, stderr: run.status === 0 ? '' : run.stderr }).toEqual({ status: 0, stderr: '' });
    const lastLine = run.stdout.trim().split('\n').at(-1) ?? '';
    expect(JSON.parse(lastLine)).toEqual({
      text: 'The helper removed it.',
      approved: ['remove'],
      removed: 1,
      own: 'HELLO, ADA from greeting',
    });
  }, 200_000);

  describe('with a package missing or at another version', () => {
    const cadre = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      spawnSync(process.execPath, [path.join(project, 'node_modules', '.bin', 'cadre'), ...args], {
        cwd: project,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          TEMPORAL_ADDRESS: testAddress(),
          TEMPORAL_NAMESPACE: testNamespace(),
          ...env,
        },
      });

    it("refuses to start a worker whose agent's provider package is not installed, with the command to install it", () => {
      fs.writeFileSync(
        path.join(project, 'claude.ts'),
        "import { defineAgent } from 'cadre';\n\nexport const agents = [defineAgent({ name: 'claude', model: 'anthropic:claude-sonnet-4-5' })];\n",
      );
      const range = peers['@ai-sdk/anthropic'];
      const withKey = cadre(['worker', '--agents', './claude.ts'], {
        ANTHROPIC_API_KEY: 'sk-test',
        CADRE_TASK_QUEUE: `matrix-${randomUUID()}`,
      });
      expect({ status: withKey.status, stdout: withKey.stdout }).toEqual({ status: 1, stdout: '' });
      expect(withKey.stderr).toContain(
        `Agent 'claude': The 'anthropic:' model route needs '@ai-sdk/anthropic' ${range}, which is not installed. ` +
          `Install it in your project: npm install "@ai-sdk/anthropic@${range}"`,
      );
      const withoutKey = cadre(['worker', '--agents', './claude.ts'], { ANTHROPIC_API_KEY: '' });
      expect(withoutKey.status).toBe(1);
      expect(withoutKey.stderr).toContain(
        "Model route 'anthropic:claude-sonnet-4-5' needs the anthropic provider: set ANTHROPIC_API_KEY on the worker, " +
          `and install @ai-sdk/anthropic in the project: npm install "@ai-sdk/anthropic@${range}"`,
      );
    }, 120_000);

    it('says at the first import and before the CLI starts anything which Temporal package is at another version, and how to fix it', () => {
      const other =
        end === 'lowest'
          ? newest('@temporalio/envconfig', peers['@temporalio/envconfig'] ?? '')
          : lowest(peers['@temporalio/envconfig'] ?? '');
      execFileSync(npm, ['install', `@temporalio/envconfig@${other}`, '--prefer-offline', '--no-audit', '--no-fund'], {
        cwd: project,
        stdio: 'ignore',
      });
      const sdk = versions['@temporalio/client'];
      const message =
        "Cadre runs on one version of the Temporal SDK, your @temporalio/client's: it needs " +
        `'@temporalio/envconfig' ${sdk}, but ${other} is installed. Install it in your project: npm install "@temporalio/envconfig@${sdk}"`;
      const imported = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('cadre/client')"], {
        cwd: project,
        encoding: 'utf8',
      });
      expect(imported.status).toBe(1);
      expect(imported.stderr).toContain(`PeerPackageError: ${message}`);
      const dev = cadre(['dev', '--agents', './claude.ts']);
      expect({ status: dev.status, stdout: dev.stdout, stderr: dev.stderr }).toEqual({
        status: 1,
        stdout: '',
        stderr: `${message}\nNothing was started.\n`,
      });
    }, 120_000);

    it('names a required package that is missing', () => {
      fs.rmSync(path.join(project, 'node_modules', 'zod'), { recursive: true, force: true });
      const worker = cadre(['worker', '--agents', './claude.ts']);
      expect({ status: worker.status, stderr: worker.stderr }).toEqual({
        status: 1,
        stderr: `Cadre needs 'zod' ${peers.zod}, which is not installed. Install it in your project: npm install "zod@${peers.zod}"\nNothing was started.\n`,
      });
    });
  });
});
