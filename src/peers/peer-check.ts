import { PeerPackageError } from '../errors';
import { installedPackage, type PeerPackage, peerPackage, peerPackages } from './peer-packages';
import { satisfiesRange } from './version-range';

/** What is wrong with one peer in the user's project: missing, or installed outside its range. */
export interface PeerProblem {
  peer: PeerPackage;
  /** The version installed, when one is. */
  found?: string;
}

/** The problem with `peer` in the project (or in the `node_modules` folders of `searchPaths`), if any. */
export function peerProblem(peer: PeerPackage, searchPaths?: readonly string[]): PeerProblem | undefined {
  const installed = installedPackage(peer.name, searchPaths);
  if (!installed) return { peer };
  return satisfiesRange(installed.version, peer.range) ? undefined : { peer, found: installed.version };
}

/**
 * Throws `PeerPackageError` naming every required peer (`ai`, `zod`, the Temporal SDK's packages)
 * that is missing or outside its range, with the one npm command that fixes them all. Each public
 * entry point and the CLI run it before anything else loads.
 */
export function assertRequiredPeers(): void {
  const problems = [...peerPackages().values()]
    .filter((peer) => !peer.optional)
    .flatMap((peer) => peerProblem(peer) ?? []);
  if (problems.length > 0) throw new PeerPackageError(problems, 'Cadre');
  const mismatched = temporalVersionProblems();
  if (mismatched.length > 0) {
    throw new PeerPackageError(
      mismatched,
      "Cadre runs on one version of the Temporal SDK, your @temporalio/client's: it",
    );
  }
}

/**
 * The `@temporalio/*` peers installed at another version than `@temporalio/client`. The SDK's
 * packages depend on each other at exact versions, so one at another version (npm installs a
 * peer the project did not name at its newest) brings a second copy of the SDK under it.
 */
export function temporalVersionProblems(searchPaths?: readonly string[]): PeerProblem[] {
  const sdk = installedPackage('@temporalio/client', searchPaths)?.version;
  if (!sdk) return [];
  return [...peerPackages().values()]
    .filter((peer) => peer.name.startsWith('@temporalio/'))
    .flatMap((peer) => {
      const found = installedPackage(peer.name, searchPaths)?.version;
      return found && found !== sdk ? [{ peer: { ...peer, range: sdk }, found }] : [];
    });
}

/**
 * Loads the optional peer `name` (or its `subpath`, e.g. `/mcp-stdio`) for `feature`, a sentence's
 * subject such as "The 'anthropic:' model route"; when the package is missing or outside its range,
 * throws `PeerPackageError` with the command to install it.
 */
export function requireOptionalPeer<T>(name: string, feature: string, subpath = ''): T {
  assertOptionalPeers([name], feature);
  return require(`${name}${subpath}`) as T;
}

/** Optional peers found installed in range: a package does not move under a running process, so each is read once. */
const checkedPeers = new Set<string>();

/** Throws one `PeerPackageError` for every package of `names` that `feature` needs and is missing or out of range. */
export function assertOptionalPeers(names: readonly string[], feature: string): void {
  const problems = names
    .filter((name) => !checkedPeers.has(name))
    .flatMap((name) => peerProblem(peerPackage(name)) ?? []);
  if (problems.length > 0) throw new PeerPackageError(problems, feature);
  for (const name of names) checkedPeers.add(name);
}
