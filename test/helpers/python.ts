import fs from 'node:fs';
import path from 'node:path';

/** The Python of `.cadre/python`, which setup makes with the examples' packages (scripts/setup/python-client.cjs). */
export function cadrePython(): string {
  const python = path.join(__dirname, '..', '..', '.cadre', 'python', 'bin', 'python');
  if (!fs.existsSync(python)) {
    throw new Error(
      `${python} is missing: run \`node scripts/setup.cjs --only python\` (it needs python3 with its venv module).`,
    );
  }
  return python;
}
