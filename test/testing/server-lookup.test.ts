import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cadreCommand, commandContext } from '../../src/server/command-hints';
import {
  cadreHome,
  cadrePathCandidates,
  cadrePaths,
  findTestServer,
  findUserProjectRoot,
} from '../../src/server/paths';

const checkout = path.join(__dirname, '..', '..');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** A folder with a package.json and, if asked, an executable test server wrapper in its `.cadre/`. */
function project(withTestServer: boolean): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-lookup-'));
  folders.push(root);
  fs.writeFileSync(path.join(root, 'package.json'), '{}');
  if (withTestServer) {
    const wrapper = cadrePaths(path.join(root, '.cadre')).testServer;
    fs.mkdirSync(path.dirname(wrapper), { recursive: true });
    fs.writeFileSync(wrapper, '#!/bin/sh\n', { mode: 0o755 });
  }
  return root;
}

describe('finding the time-skipping test server', () => {
  const saved = process.env.CADRE_TEST_SERVER;
  beforeEach(() => {
    delete process.env.CADRE_TEST_SERVER;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.CADRE_TEST_SERVER;
    else process.env.CADRE_TEST_SERVER = saved;
  });

  it('takes the Cadre home first, then the .cadre of the Cadre checkout it runs from', () => {
    const user = project(true);
    const nested = path.join(user, 'test', 'unit');
    fs.mkdirSync(nested, { recursive: true });
    expect(findUserProjectRoot(nested)).toBe(user);
    const home = cadreHome(nested);
    expect(home).toBe(path.join(user, '.cadre'));
    const candidates = cadrePathCandidates(home);
    expect(candidates.map((paths) => paths.cadreDir)).toEqual([home, path.join(checkout, '.cadre')]);
    expect(findTestServer(candidates)).toBe(cadrePaths(home).testServer);
    expect(cadrePathCandidates(path.join(checkout, '.cadre'))).toHaveLength(1);
  });

  it('takes CADRE_TEST_SERVER over every folder, and says when it is not an executable', () => {
    const elsewhere = project(true);
    const elsewhereServer = cadrePaths(path.join(elsewhere, '.cadre')).testServer;
    process.env.CADRE_TEST_SERVER = elsewhereServer;
    expect(findTestServer(cadrePathCandidates(cadreHome(project(true))))).toBe(elsewhereServer);
    process.env.CADRE_TEST_SERVER = path.join(elsewhere, 'missing');
    expect(() => findTestServer()).toThrow(
      `CADRE_TEST_SERVER=${path.join(elsewhere, 'missing')} is not an executable file`,
    );
  });

  it('names every place it looked and the command that provisions it when it is missing', () => {
    const empty = cadrePaths(cadreHome(project(false)));
    const elsewhere = cadrePaths(cadreHome(project(false)));
    expect(() => findTestServer([empty, elsewhere])).toThrow(
      `The Temporal time-skipping test server is missing (looked at $CADRE_TEST_SERVER, ${empty.testServer} and ` +
        `${elsewhere.testServer}). Run \`npm run setup\` to fetch it (needs Java 8+ and Maven`,
    );
    expect(() => findTestServer([empty])).toThrow(
      `(looked at $CADRE_TEST_SERVER and ${empty.testServer}). Run \`npm run setup\``,
    );
  });
});

describe('the Cadre home', () => {
  const saved = process.env.CADRE_HOME;
  afterEach(() => {
    if (saved === undefined) delete process.env.CADRE_HOME;
    else process.env.CADRE_HOME = saved;
  });

  it('is the .cadre of the project around the working directory, or of the folder itself outside any project', () => {
    delete process.env.CADRE_HOME;
    expect(cadreHome()).toBe(path.join(checkout, '.cadre'));
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-bare-'));
    folders.push(bare);
    expect(cadreHome(bare)).toBe(path.join(bare, '.cadre'));
  });

  it('is CADRE_HOME when set, with the data, the Temporal CLI and the test server inside it', () => {
    process.env.CADRE_HOME = path.join(os.tmpdir(), 'some-home');
    expect(cadreHome()).toBe(path.join(os.tmpdir(), 'some-home'));
    expect(cadrePaths()).toEqual({
      cadreDir: path.join(os.tmpdir(), 'some-home'),
      temporalCli: path.join(os.tmpdir(), 'some-home', 'bin', 'temporal'),
      testServer: path.join(os.tmpdir(), 'some-home', 'test-server', 'temporal-test-server'),
      dataDir: path.join(os.tmpdir(), 'some-home', 'data'),
      defaultDbFile: path.join(os.tmpdir(), 'some-home', 'data', 'temporal.db'),
    });
  });
});

describe('the commands that hints name', () => {
  it('are npm scripts in a checkout of Cadre, which this working directory is', () => {
    expect(commandContext()).toBe('checkout');
    expect(cadreCommand('setup')).toBe('npm run setup');
    expect(cadreCommand('dev --agents ./my-agents.ts')).toBe('npm run dev -- --agents ./my-agents.ts');
    expect(cadreCommand('start')).toBe('npm start');
    expect(cadreCommand('run helper "Hi"')).toBe('npm run cadre -- run helper "Hi"');
  });

  it("are npx cadre in a user's project", () => {
    expect(cadreCommand('setup', 'project')).toBe('npx cadre setup');
    expect(cadreCommand('dev --agents ./my-agents.ts', 'project')).toBe('npx cadre dev --agents ./my-agents.ts');
    expect(cadreCommand('approvals x-1', 'project')).toBe('npx cadre approvals x-1');
  });
});
