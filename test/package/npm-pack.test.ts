import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testAddress, testNamespace } from '../helpers/temporal';
import { waitFor } from '../helpers/wait';

const root = path.join(__dirname, '..', '..');

/** A 20-line agent file, as a user writes it in their own project. */
const agentFile = `import { tool } from 'ai';
import { z } from 'zod';
import { defineAgent } from 'cadre';

export const greeter = defineAgent({
  name: 'greeter',
  instructions: 'Greet the person by name using the greet tool.',
  tools: {
    greet: tool({
      description: 'Greets someone by name.',
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => \`Hello, \${name}!\`,
    }),
  },
});

export const agents = [greeter];
`;

/** A kit test of that agent file, as a user writes it: node's own test runner, through tsx. */
const kitTestFile = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTool, createAgentTestEnvironment, lastToolResult, scriptedModels, toolCalls } from 'cadre/testing';
import { greeter } from './agents';

test('greets Ada with the greet tool', async () => {
  const models = scriptedModels({ greeter: [callTool('greet', { name: 'Ada' }), (call) => lastToolResult(call)] });
  await using kit = await createAgentTestEnvironment({ agents: [greeter], models });
  const run = await kit.client.start('greeter', { prompt: 'Say hello to Ada' });
  assert.equal((await run.result()).text, 'Hello, Ada!');
  assert.deepEqual((await toolCalls(run)).map((call) => call.toolName), ['greet']);
});
`;

describe('the package installed from npm pack into another project', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-pack-'));
  const project = path.join(folder, 'project');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  let worker: ChildProcess | undefined;
  const env = () => ({
    ...process.env,
    NODE_OPTIONS: '',
    TEMPORAL_ADDRESS: testAddress(),
    TEMPORAL_NAMESPACE: testNamespace(),
    CADRE_TASK_QUEUE: `pack-${randomUUID()}`,
    CADRE_STORE_URL: `sqlite:${path.join(folder, 'cadre.db')}`,
    CADRE_MODEL: 'demo:scripted',
  });
  let shared: NodeJS.ProcessEnv;

  beforeAll(() => {
    shared = env();
    execFileSync(npm, ['pack', '--pack-destination', folder], { cwd: root, stdio: 'ignore' });
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'mine', private: true }));
    fs.writeFileSync(path.join(project, 'agents.ts'), agentFile);
    fs.writeFileSync(path.join(project, 'kit.test.ts'), kitTestFile);
    const tarball = fs.readdirSync(folder).find((name) => name.endsWith('.tgz'));
    // Nothing but the tarball: cadre/testing's @temporalio/testing comes with it.
    execFileSync(npm, ['install', path.join(folder, tarball ?? ''), '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: project,
      stdio: 'ignore',
    });
  }, 240_000);

  afterAll(() => {
    worker?.kill('SIGTERM');
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('loads cadre/client without the worker or its native code', () => {
    const loaded = execFileSync(
      process.execPath,
      [
        '-e',
        "require('cadre/client'); console.log(Object.keys(require.cache).filter((file) => file.includes('@temporalio/worker')).length)",
      ],
      { cwd: project, encoding: 'utf8' },
    );
    expect(loaded.trim()).toBe('0');
  });

  it('serves an agent file that imports cadre, and runs it on the dev server with the installed CLI', async () => {
    const cli = path.join(project, 'node_modules', '.bin', 'cadre');
    let log = '';
    worker = spawn(process.execPath, [cli, 'worker', '--agents', './agents.ts'], { cwd: project, env: shared });
    worker.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    worker.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    await waitFor(() => log.includes('worker serving: greeter'), `the worker to start; its output: ${log}`, 120_000);
    const run = execFileSync(process.execPath, [cli, 'run', 'greeter', 'Say hello to Ada'], {
      cwd: project,
      env: shared,
      encoding: 'utf8',
    });
    expect(run).toContain('-> greet(');
    expect(run).toMatch(/<- greet: Hello, .*!/);
    expect(run).toContain('Final answer (2 steps, completed):');
  }, 180_000);

  describe('a kit test in that project', () => {
    const runKitTest = () =>
      spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', 'kit.test.ts'], {
        cwd: project,
        env: { ...process.env, NODE_OPTIONS: '', CADRE_TEST_SERVER: '', CADRE_ROOT: '' },
        encoding: 'utf8',
        timeout: 100_000,
      });

    it('says how to provision the test server when it is missing', () => {
      const { status, stdout, stderr } = runKitTest();
      expect(status).not.toBe(0);
      expect(stdout + stderr).toContain(
        'The Temporal time-skipping test server is missing (looked at $CADRE_TEST_SERVER, ' +
          `${path.join(project, '.cadre', 'test-server', 'temporal-test-server')} and ` +
          `${path.join(project, 'node_modules', 'cadre', '.cadre', 'test-server', 'temporal-test-server')}). ` +
          'Run `npx cadre setup` to fetch it',
      );
    });

    it('passes with the test server that setup provisions next to the installed package', () => {
      // What `npx cadre setup` leaves behind, borrowed from this checkout.
      const cadreDir = path.join(project, 'node_modules', 'cadre', '.cadre');
      fs.mkdirSync(cadreDir, { recursive: true });
      fs.symlinkSync(path.join(root, '.cadre', 'test-server'), path.join(cadreDir, 'test-server'));
      const startedAt = Date.now();
      const { status, stdout, stderr } = runKitTest();
      process.stdout.write(
        `[cadre test] kit test outside the repo: ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`,
      );
      expect({ status, output: stdout + stderr }).toMatchObject({ status: 0 });
      expect(stdout).toContain('# pass 1');
      expect(stderr).not.toContain('Temporal Server 1.16.0 or newer is required');
    }, 120_000);
  });
});
