import fs from 'node:fs';
import path from 'node:path';

/** A package Cadre takes from its user's project, with the range its package.json declares. */
export interface PeerPackage {
  name: string;
  range: string;
  /** False for the peers every entry point needs; true for those loaded only by the feature that uses them. */
  optional: boolean;
}

interface CadrePackageJson {
  name: string;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

let cached: Map<string, PeerPackage> | undefined;

/** Cadre's peer packages, read from its own package.json (the one source of their ranges). */
export function peerPackages(): ReadonlyMap<string, PeerPackage> {
  if (cached) return cached;
  const manifest = cadrePackageJson();
  const meta = manifest.peerDependenciesMeta ?? {};
  cached = new Map(
    Object.entries(manifest.peerDependencies ?? {}).map(([name, range]) => [
      name,
      { name, range, optional: meta[name]?.optional === true },
    ]),
  );
  return cached;
}

/** The peer `name`; a name Cadre does not declare is a bug in Cadre, not in the user's project. */
export function peerPackage(name: string): PeerPackage {
  const peer = peerPackages().get(name);
  if (!peer) throw new Error(`'${name}' is not one of Cadre's peer dependencies; declare it in package.json.`);
  return peer;
}

/** Cadre's package.json: the nearest one named `cadre` above this file, in a checkout and in `dist/`. */
function cadrePackageJson(): CadrePackageJson {
  for (let folder = __dirname; ; folder = path.dirname(folder)) {
    const file = path.join(folder, 'package.json');
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as CadrePackageJson;
      if (manifest.name === 'cadre') return manifest;
    }
    if (path.dirname(folder) === folder) throw new Error(`Cadre's package.json was not found above ${__dirname}.`);
  }
}

/**
 * The version of `name` that Node would load from Cadre's own modules (or from the `node_modules`
 * folders of `searchPaths`, in order), and where; undefined when none is installed.
 */
export function installedPackage(
  name: string,
  searchPaths: readonly string[] = require.resolve.paths(name) ?? [],
): { version: string; folder: string } | undefined {
  for (const modules of searchPaths) {
    const folder = path.join(modules, name);
    const file = path.join(folder, 'package.json');
    if (!fs.existsSync(file)) continue;
    const { version } = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string };
    return { version: version ?? '0.0.0', folder };
  }
  return undefined;
}
