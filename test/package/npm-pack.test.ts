import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { chromium } from 'playwright-core';
import { findFreePort } from '../../src/server/free-port';
import { testAddress, testNamespace } from '../helpers/temporal';
import { poll } from '../../src/testing/wait-for';
import { requiredPeers } from './required-peers';

const root = path.join(__dirname, '..', '..');
const { chromiumPath } = require('../../scripts/setup/chromium.cjs') as { chromiumPath(): string | undefined };

interface PackageJson {
  engines: { node: string };
}

const devVersions: Record<string, string> = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies;

/**
 * A Node older than the package needs: the machine's own (Node 20 here) when it is older, else
 * this Node made to report 22.0.0 before the CLI loads.
 */
function oldNode(): { command: string; args: string[]; version: string } {
  const system = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
  const version = system.status === 0 ? system.stdout.trim() : '';
  const [major = 99, minor = 0] = version.slice(1).split('.').map(Number);
  if (version && (major < 24 || (major === 24 && minor < 9))) return { command: '/usr/bin/node', args: [], version };
  const pretend =
    "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '22.0.0' } });" +
    "Object.defineProperty(process, 'version', { value: 'v22.0.0' });";
  return {
    command: process.execPath,
    args: ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`],
    version: 'v22.0.0',
  };
}

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

/**
 * Waits until `output()` matches `ready`; fails with the output as it is then, at once when the
 * process exits first. A start takes about 6 s here; the CLI's own waits for its server (60 s)
 * and search attributes (30 s) end well inside the 3 minutes, so a start that fails says why.
 */
async function untilOutput(child: ChildProcess, output: () => string, ready: RegExp, what: string): Promise<void> {
  await poll(
    async () => {
      if (ready.test(output())) return { done: true, value: undefined };
      const ended = child.exitCode !== null || child.signalCode !== null;
      const state = ended ? `it exited (${child.exitCode ?? child.signalCode})` : 'it is still running';
      return { done: false, seen: `${state}; its output:\n${output()}`, final: ended };
    },
    what,
    { timeoutMs: 180_000 },
  );
}

describe('the package installed from npm pack into another project', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-pack-'));
  const project = path.join(folder, 'project');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  let worker: ChildProcess | undefined;
  let devProcess: ChildProcess | undefined;
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
    // The tarball and what the README says to install beside it, at this checkout's versions.
    const beside = [...requiredPeers, '@temporalio/testing'].map((name) => `${name}@${devVersions[name]}`);
    execFileSync(
      npm,
      ['install', path.join(folder, tarball ?? ''), ...beside, '--prefer-offline', '--no-audit', '--no-fund'],
      {
        cwd: project,
        stdio: 'ignore',
      },
    );
  }, 240_000);

  afterAll(async () => {
    worker?.kill('SIGTERM');
    // A `cadre dev` a failed test left running stops its own Temporal server on SIGINT.
    if (devProcess && devProcess.exitCode === null) {
      const exited = new Promise((resolve) => devProcess?.once('exit', resolve));
      devProcess.kill('SIGINT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    }
    fs.rmSync(folder, { recursive: true, force: true });
  }, 30_000);

  it('ships what a user needs and nothing of the checkout, and is publishable', () => {
    const tarball = fs.readdirSync(folder).find((name) => name.endsWith('.tgz')) ?? '';
    const files = execFileSync('tar', ['-tzf', path.join(folder, tarball)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((file) => file.replace(/^package\//, ''));
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'bin/cadre.cjs',
        'dist/src/index.js',
        'dist/src/index.d.ts',
        'dist/src/workflows/index.js',
        'dist/chat-ui/index.html',
        'scripts/setup.cjs',
      ]),
    );
    const outside = files.filter(
      (file) => !/^(package\.json|README\.md|bin\/|dist\/(src|examples|chat-ui)\/|scripts\/setup)/.test(file),
    );
    expect({ outside, maps: files.filter((file) => file.endsWith('.map')) }).toEqual({ outside: [], maps: [] });
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { private?: boolean };
    expect(manifest.private).toBeUndefined();
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
    await untilOutput(worker, () => log, /worker serving: greeter/, 'the worker to start');
    const run = execFileSync(process.execPath, [cli, 'run', 'greeter', 'Say hello to Ada'], {
      cwd: project,
      env: shared,
      encoding: 'utf8',
    });
    expect(run).toContain('-> greet(');
    expect(run).toMatch(/<- greet: Hello, .*!/);
    expect(run).toContain('Final answer (2 steps, completed):');
  }, 240_000);

  describe('a kit test in that project', () => {
    const runKitTest = () =>
      spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', 'kit.test.ts'], {
        cwd: project,
        env: { ...process.env, NODE_OPTIONS: '', CADRE_TEST_SERVER: '', CADRE_HOME: '' },
        encoding: 'utf8',
        timeout: 100_000,
      });

    it('says how to provision the test server when it is missing', () => {
      const { status, stdout, stderr } = runKitTest();
      expect(status).not.toBe(0);
      expect(stdout + stderr).toContain(
        'The Temporal time-skipping test server is missing (looked at $CADRE_TEST_SERVER and ' +
          `${path.join(project, '.cadre', 'test-server', 'temporal-test-server')}). ` +
          'Run `npx cadre setup` to fetch it',
      );
    });

    it("passes with the test server that setup provisions in the project's .cadre", () => {
      // What `npx cadre setup` leaves behind, borrowed from this checkout.
      const cadreDir = path.join(project, '.cadre');
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
  describe("the project's own .cadre", () => {
    const cli = () => path.join(project, 'node_modules', '.bin', 'cadre');
    const home = path.join(project, '.cadre');
    /** The environment of a person in that project: nothing pointing at this checkout or the suite's server. */
    const own = (): NodeJS.ProcessEnv => {
      const base: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', CADRE_MODEL: 'demo:scripted' };
      for (const name of [
        'TEMPORAL_ADDRESS',
        'TEMPORAL_NAMESPACE',
        'CADRE_STORE_URL',
        'CADRE_HOME',
        'CADRE_TASK_QUEUE',
      ]) {
        delete base[name];
      }
      return base;
    };
    let workflowId = '';
    let reinstalledDev: Awaited<ReturnType<typeof startDev>> | undefined;

    /** `cadre dev` on free ports, resolved once its chat page line is out, with its output so far. */
    async function startDev(): Promise<{ dev: ChildProcess; output: () => string; address: string; chatUrl: string }> {
      const chatPort = await findFreePort();
      let log = '';
      const dev = spawn(process.execPath, [cli(), 'dev', '--agents', './agents.ts', '--port', '0'], {
        cwd: project,
        env: { ...own(), CADRE_CHAT_PORT: String(chatPort) },
      });
      devProcess = dev;
      dev.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      dev.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      const startedAt = Date.now();
      await untilOutput(dev, () => log, /chat page( not served)?:.*\n/, 'cadre dev to be ready');
      process.stdout.write(`[cadre test] cadre dev ready: ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`);
      const address = /Temporal server: (\S+)/.exec(log)?.[1] ?? '';
      return { dev, output: () => log, address, chatUrl: `http://127.0.0.1:${chatPort}/` };
    }

    async function stopDev(dev: ChildProcess): Promise<void> {
      if (dev.exitCode !== null) return;
      const exited = new Promise((resolve) => dev.once('exit', resolve));
      dev.kill('SIGINT');
      await exited;
    }

    it('refuses a Node older than the package needs before any server starts, naming the version to install', () => {
      const needed = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson).engines.node;
      expect(needed).toBe('>=24.9.0');
      const { command, args, version } = oldNode();
      const startedAt = Date.now();
      const result = spawnSync(command, [...args, cli(), 'dev', '--agents', './agents.ts'], {
        cwd: project,
        env: own(),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`Cadre needs Node.js 24.9.0 or later`);
      expect(result.stderr).toContain(`this is ${version}`);
      expect(result.stderr).toContain('Install Node.js 24.9.0 or later');
      expect(result.stdout).toBe('');
      expect(fs.existsSync(path.join(home, 'data'))).toBe(false);
      expect(Date.now() - startedAt).toBeLessThan(5_000);
    });

    it("keeps the servers setup builds, the runs and the conversations in the project's .cadre, never under node_modules", async () => {
      const setup = spawnSync(process.execPath, [cli(), 'setup'], {
        cwd: project,
        env: own(),
        encoding: 'utf8',
        timeout: 300_000,
      });
      expect({ status: setup.status, output: setup.stdout + setup.stderr }).toMatchObject({ status: 0 });
      expect(setup.stdout).toContain('Temporal CLI ready: .cadre/bin/temporal');
      expect(setup.stdout).not.toContain('chromium');
      expect(fs.statSync(path.join(home, 'bin', 'temporal')).isFile()).toBe(true);
      expect(fs.readFileSync(path.join(home, '.gitignore'), 'utf8')).toContain('\n*\n');

      const { dev, output, address } = await startDev();
      try {
        expect(output()).toContain('[cadre] starting the embedded Temporal dev server (data in .cadre/data)...');
        expect(output()).toContain(`[cadre] try: TEMPORAL_ADDRESS=${address} npx cadre run greeter "`);
        expect(output()).toContain('[cadre] your own agents: npx cadre dev --agents ./my-agents.ts');
        expect(output()).not.toContain('npm run');
        const run = spawnSync(process.execPath, [cli(), 'run', 'greeter', 'Say hello to Ada'], {
          cwd: project,
          env: { ...own(), TEMPORAL_ADDRESS: address },
          encoding: 'utf8',
          timeout: 120_000,
        });
        expect({ status: run.status, output: run.stdout + run.stderr }).toMatchObject({ status: 0 });
        expect(run.stdout).toContain('Final answer (2 steps, completed):');
        expect(run.stdout).not.toContain('npm run');
        workflowId = /\[cadre\] workflow (\S+)/.exec(run.stdout)?.[1] ?? '';
        expect(workflowId).toMatch(/^greeter-/);
      } finally {
        await stopDev(dev);
      }
      for (const file of ['temporal.db', 'cadre.db']) expect(fs.existsSync(path.join(home, 'data', file))).toBe(true);
      expect(fs.existsSync(path.join(project, 'node_modules', 'cadre', '.cadre'))).toBe(false);
    }, 540_000);

    it('keeps the run and its transcript through rm -rf node_modules && npm install', async () => {
      expect(workflowId).not.toBe('');
      fs.rmSync(path.join(project, 'node_modules'), { recursive: true, force: true });
      const startedAt = Date.now();
      execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project, stdio: 'ignore' });
      process.stdout.write(`[cadre test] npm install again: ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`);
      const transcript = spawnSync(process.execPath, [cli(), 'transcript', workflowId], {
        cwd: project,
        env: own(),
        encoding: 'utf8',
      });
      expect({ status: transcript.status, output: transcript.stdout + transcript.stderr }).toMatchObject({ status: 0 });
      expect(transcript.stdout).toContain('Say hello to Ada');
      expect(transcript.stdout).toMatch(/Hello, .*!/);

      // Kept running for the chat page's test below, which then checks the reinstalled package.
      reinstalledDev = await startDev();
      const connection = await Connection.connect({ address: reinstalledDev.address });
      try {
        const description = await new Client({ connection }).workflow.getHandle(workflowId).describe();
        expect(description.status.name).toBe('COMPLETED');
      } finally {
        await connection.close();
      }
    }, 300_000);

    it('serves the chat page that ships in the installed package, and it renders in Chromium', async () => {
      const installed = path.join(project, 'node_modules', 'cadre');
      expect(fs.existsSync(path.join(installed, 'dist', 'chat-ui', 'index.html'))).toBe(true);
      expect(fs.existsSync(path.join(installed, 'web'))).toBe(false);
      const executablePath = chromiumPath();
      if (!executablePath) throw new Error('No Chromium: run `node scripts/setup.cjs` as root, or set CADRE_CHROMIUM.');
      const { dev, output, chatUrl } = reinstalledDev ?? (await startDev());
      const browser = await chromium.launch({
        executablePath,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu'],
      });
      try {
        expect(output()).toContain(`[cadre] chat page:       ${chatUrl}`);
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        await page.goto(`${chatUrl}?agent=greeter&chat=greeter-pack-${randomUUID().slice(0, 8)}`);
        await page.getByTestId('chat-input').waitFor({ timeout: 30_000 });
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
        await stopDev(dev);
      }
    }, 180_000);
  });
});
