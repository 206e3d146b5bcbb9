import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
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
    const tarball = fs.readdirSync(folder).find((name) => name.endsWith('.tgz'));
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
});
