import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cadrePathCandidates, cadrePaths, findTestServer, findUserProjectRoot } from '../../src/server/paths';

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
    const wrapper = cadrePaths(root).testServer;
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

  it("takes the user's project's .cadre first, then the one next to the package", () => {
    const user = project(true);
    const nested = path.join(user, 'test', 'unit');
    fs.mkdirSync(nested, { recursive: true });
    expect(findUserProjectRoot(nested)).toBe(user);
    const candidates = cadrePathCandidates(user);
    expect(candidates.map((paths) => paths.root)).toEqual([user, cadrePaths().root]);
    expect(findTestServer(candidates)).toBe(cadrePaths(user).testServer);
  });

  it('takes CADRE_TEST_SERVER over every folder, and says when it is not an executable', () => {
    const elsewhere = project(true);
    process.env.CADRE_TEST_SERVER = cadrePaths(elsewhere).testServer;
    expect(findTestServer(cadrePathCandidates(project(true)))).toBe(cadrePaths(elsewhere).testServer);
    process.env.CADRE_TEST_SERVER = path.join(elsewhere, 'missing');
    expect(() => findTestServer()).toThrow(
      `CADRE_TEST_SERVER=${path.join(elsewhere, 'missing')} is not an executable file`,
    );
  });

  it('names every place it looked and the command that provisions it when it is missing', () => {
    const empty = project(false);
    const elsewhere = project(false);
    expect(() => findTestServer([cadrePaths(empty), cadrePaths(elsewhere)])).toThrow(
      `The Temporal time-skipping test server is missing (looked at $CADRE_TEST_SERVER, ${cadrePaths(empty).testServer} and ` +
        `${cadrePaths(elsewhere).testServer}). Run \`npm run setup\` to fetch it (needs Java 8+ and Maven`,
    );
  });
});
