import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../errors';

/**
 * The Cadre package root: the nearest folder above this module with a package.json. In a user's
 * project that is `node_modules/cadre`, where nothing is written; it is only read (scripts, page).
 */
export function findProjectRoot(start: string = __dirname): string {
  let directory = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(directory, 'package.json'))) return directory;
    const parent = path.dirname(directory);
    if (parent === directory) {
      throw new ConfigurationError(
        `Cannot find Cadre's package root: no package.json above ${start}. Reinstall Cadre.`,
      );
    }
    directory = parent;
  }
}

/**
 * The user's project: the nearest folder at or above `start` (default: the working directory) with
 * a package.json, or undefined. In a checkout of Cadre it is the checkout itself.
 */
export function findUserProjectRoot(start: string = process.cwd()): string | undefined {
  let directory = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(directory, 'package.json'))) return directory;
    const parent = path.dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}
