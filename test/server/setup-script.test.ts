import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');
const setupScript = path.join(root, 'scripts', 'setup.cjs');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** A Cadre home whose Temporal CLI is already built (a stand-in binary with setup's version stamp). */
function homeWithTemporalCli(home: string): string {
  fs.mkdirSync(path.join(home, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(home, 'bin', 'temporal'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(home, 'bin', 'temporal.version'), 'v1.5.1\n');
  return home;
}

function temporary(prefix: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** Runs setup as a person would, with no Temporal CLI on PATH and no server address. */
function runSetup(args: string[], options: { cwd: string; home?: string }) {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: path.dirname(process.execPath) };
  delete env.TEMPORAL_ADDRESS;
  delete env.CADRE_HOME;
  if (options.home) env.CADRE_HOME = options.home;
  return spawnSync(process.execPath, [setupScript, ...args], { cwd: options.cwd, env, encoding: 'utf8' });
}

describe('scripts/setup.cjs', () => {
  it('runs for npm start and npm run dev with --only temporal-cli, and for npm test with everything', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.prestart).toBe('node scripts/setup.cjs --if-missing --only temporal-cli');
    expect(scripts.dev).toMatch(/^node scripts\/setup\.cjs --if-missing --only temporal-cli && /);
    expect(scripts.pretest).toBe('node scripts/setup.cjs --if-missing');
  });

  it('with --only temporal-cli looks at the Temporal CLI alone, in CADRE_HOME', () => {
    const home = homeWithTemporalCli(temporary('cadre-setup-home-'));
    const { status, stdout, stderr } = runSetup(['--if-missing', '--only', 'temporal-cli'], {
      cwd: root,
      home,
    });
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    // The path is shown relative to the working directory when it is close by, whole otherwise.
    const shown = /^\[cadre setup\] Temporal CLI v1\.5\.1 present: (.+); nothing to do\n$/.exec(stdout)?.[1];
    expect(shown && path.resolve(root, shown)).toBe(path.join(home, 'bin', 'temporal'));
  });

  it("provisions into the .cadre of the project in the working directory, not the package's folder", () => {
    const project = temporary('cadre-setup-project-');
    fs.writeFileSync(path.join(project, 'package.json'), '{}');
    homeWithTemporalCli(path.join(project, '.cadre'));
    const nested = path.join(project, 'src');
    fs.mkdirSync(nested);
    const { status, stdout } = runSetup(['--if-missing', '--only=temporal-cli'], { cwd: nested });
    expect(status).toBe(0);
    expect(stdout).toContain(
      `Temporal CLI v1.5.1 present: ${path.join('..', '.cadre', 'bin', 'temporal')}; nothing to do`,
    );
  });

  it('refuses a piece it does not know, naming the ones it does', () => {
    const { status, stderr } = runSetup(['--only', 'temporal-cli,browser'], { cwd: root });
    expect(status).toBe(2);
    expect(stderr).toContain(
      '[cadre setup] --only takes temporal-cli, test-server, chromium, jaeger, python (comma-separated); got temporal-cli,browser. ' +
        'Usage: node scripts/setup.cjs [--if-missing] [--only temporal-cli,test-server,chromium,jaeger,python]',
    );
  });
});
