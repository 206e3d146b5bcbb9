import { PeerPackageError } from '../errors';
import { installedPackage, type PeerPackage, peerPackage, peerPackages } from './peer-packages';
import { satisfiesRange } from './version-range';

/** What is wrong with one peer in the user's project: missing, or installed outside its range. */
export interface PeerProblem {
  peer: PeerPackage;
  /** The version installed, when one is. */
  found?: string;
}

/** The problem with `peer` in the project, if any. */
export function peerProblem(peer: PeerPackage): PeerProblem | undefined {
  const installed = installedPackage(peer.name);
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

/** Throws one `PeerPackageError` for every package of `names` that `feature` needs and is missing or out of range. */
export function assertOptionalPeers(names: readonly string[], feature: string): void {
  const problems = names.flatMap((name) => peerProblem(peerPackage(name)) ?? []);
  if (problems.length > 0) throw new PeerPackageError(problems, feature);
}
