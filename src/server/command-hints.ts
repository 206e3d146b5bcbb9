import path from 'node:path';
import { findProjectRoot, findUserProjectRoot } from './package-roots';

/** Whether Cadre runs in a checkout of its own repository or installed in a user's project. */
export type CommandContext = 'checkout' | 'project';

/** `checkout` when the working directory's project is the Cadre package itself, else `project`. */
export function commandContext(): CommandContext {
  const project = findUserProjectRoot();
  return project && path.resolve(project) === path.resolve(findProjectRoot(__dirname)) ? 'checkout' : 'project';
}

/** The npm scripts of a checkout that stand for a `cadre` command of the same name. */
const checkoutScripts: Record<string, string> = { setup: 'npm run setup', dev: 'npm run dev', start: 'npm start' };

/**
 * `cadre <args>` as a person types it here: `npx cadre dev --agents x` in a project,
 * `npm run dev -- --agents x` or `npm run cadre -- run ...` in a checkout of Cadre.
 */
export function cadreCommand(args: string, context: CommandContext = commandContext()): string {
  if (context === 'project') return `npx cadre ${args}`;
  const [name = '', ...rest] = args.split(' ');
  const script = checkoutScripts[name];
  if (script) return rest.length > 0 ? `${script} -- ${rest.join(' ')}` : script;
  return `npm run cadre -- ${args}`;
}
