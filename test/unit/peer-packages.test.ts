import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import packageJson from '../../package.json';
import { PeerPackageError } from '../../src/errors';
import {
  assertOptionalPeers,
  assertRequiredPeers,
  peerProblem,
  temporalVersionProblems,
} from '../../src/peers/peer-check';
import { peerPackage, peerPackages } from '../../src/peers/peer-packages';
import { satisfiesRange } from '../../src/peers/version-range';

describe("Cadre's peer packages", () => {
  it('are the ones package.json declares, the optional ones marked as such', () => {
    const peers = [...peerPackages().values()];
    expect(peers.map((peer) => peer.name).sort()).toEqual(Object.keys(packageJson.peerDependencies).sort());
    expect(peers.filter((peer) => !peer.optional).map((peer) => peer.name)).toEqual(
      expect.arrayContaining(['ai', 'zod', '@temporalio/client', '@temporalio/worker', '@temporalio/workflow']),
    );
    expect(peerPackage('pg')).toEqual({ name: 'pg', range: packageJson.peerDependencies.pg, optional: true });
  });

  it("are each named in the README's install command and its table of ranges", () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    const install = /npm install \/path\/to\/cadre-0\.1\.0\.tgz ([^`]*?)\nnpx cadre setup/.exec(readme)?.[1] ?? '';
    const named = install
      .split(/[\s\\]+/)
      .filter(Boolean)
      .sort();
    const required = [...peerPackages().values()].filter((peer) => !peer.optional);
    expect(named).toEqual(required.map((peer) => peer.name).sort());
    for (const peer of required) expect(readme).toContain(peer.range);
  });

  it("are each installed in this checkout at a version inside the range Cadre declares, so Cadre's own tests run inside them", () => {
    expect(() => assertRequiredPeers()).not.toThrow();
    for (const peer of peerPackages().values())
      expect({ peer: peer.name, problem: peerProblem(peer) }).toEqual({ peer: peer.name, problem: undefined });
  });

  it('reports a peer outside its range with the version found, and a missing one, with one command that fixes both', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-peers-'));
    const modules = path.join(folder, 'node_modules');
    fs.mkdirSync(path.join(modules, 'ai'), { recursive: true });
    fs.writeFileSync(path.join(modules, 'ai', 'package.json'), JSON.stringify({ name: 'ai', version: '6.0.9' }));
    const problems = ['ai', 'zod'].flatMap((name) => peerProblem(peerPackage(name), [modules]) ?? []);
    const error = new PeerPackageError(problems, 'Cadre');
    const { ai, zod } = packageJson.peerDependencies;
    expect(error.packages).toEqual([
      { name: 'ai', range: ai, found: '6.0.9' },
      { name: 'zod', range: zod },
    ]);
    expect(error.message).toBe(
      `Cadre needs 'ai' ${ai}, but 6.0.9 is installed; 'zod' ${zod}, which is not installed. ` +
        `Install them in your project: npm install "ai@${ai}" "zod@${zod}"`,
    );
    expect(error).toMatchObject({ type: 'ConfigurationError', name: 'PeerPackageError', retryable: false });
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("names each @temporalio package at another version than the project's @temporalio/client, with the client's version to install", () => {
    const modules = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cadre-sdk-')), 'node_modules');
    const install = (name: string, version: string) => {
      fs.mkdirSync(path.join(modules, name), { recursive: true });
      fs.writeFileSync(path.join(modules, name, 'package.json'), JSON.stringify({ name, version }));
    };
    install('@temporalio/client', '1.23.0');
    install('@temporalio/worker', '1.23.0');
    install('@temporalio/envconfig', '1.24.0');
    const problems = temporalVersionProblems([modules]);
    expect(problems.map(({ peer, found }) => [peer.name, peer.range, found])).toEqual([
      ['@temporalio/envconfig', '1.23.0', '1.24.0'],
    ]);
    expect(new PeerPackageError(problems, 'It').fix).toBe('npm install "@temporalio/envconfig@1.23.0"');
    expect(temporalVersionProblems([path.join(modules, 'nowhere')])).toEqual([]);
    fs.rmSync(path.dirname(modules), { recursive: true, force: true });
  });

  it('refuses a name that is not one of the peers, as a bug in Cadre', () => {
    expect(() => assertOptionalPeers(['left-pad'], 'Padding')).toThrow(
      "'left-pad' is not one of Cadre's peer dependencies; declare it in package.json.",
    );
  });
});

describe('a version range as package.json writes it', () => {
  it.each([
    ['7.0.173', '^7.0.173', true],
    ['7.9.0', '^7.0.173', true],
    ['7.0.172', '^7.0.173', false],
    ['8.0.0', '^7.0.173', false],
    ['8.0.0-beta.1', '^7.0.173', false],
    ['0.57.9', '^0.57.2', true],
    ['0.58.0', '^0.57.2', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['3.25.76', '^3.25.76 || ^4.1.8', true],
    ['4.0.0', '^3.25.76 || ^4.1.8', false],
    ['1.5.0', '>=1.2.0 <2.0.0', true],
    ['2.0.0', '>=1.2.0 <2.0.0', false],
    ['7.1.0-canary.3', '>=7.1.0-canary.1', true],
    ['not a version', '^1.0.0', false],
  ])('%s satisfies %s: %s', (version, range, expected) => {
    expect(satisfiesRange(version, range)).toBe(expected);
  });

  it('names a comparator it cannot read', () => {
    expect(() => satisfiesRange('1.0.0', '1.x')).toThrow("Unsupported version range comparator '1.x'.");
  });
});
