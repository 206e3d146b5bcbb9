import path from 'node:path';
import ts from 'typescript';
import packageJson from '../../package.json';

const root = path.join(__dirname, '..', '..');

/** Each entry point of the package (`cadre`, `cadre/client`, ...) and its source module. */
export function entryPoints(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [subpath, target] of Object.entries(packageJson.exports)) {
    if (typeof target !== 'object') continue;
    const source = target.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts');
    entries.set(subpath === '.' ? 'cadre' : `cadre/${subpath.slice(2)}`, path.join(root, source));
  }
  return entries;
}

/** Every name each entry point exports, values and types alike, sorted: what its users can import. */
export function publicNames(): Record<string, string[]> {
  const entries = entryPoints();
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  const program = ts.createProgram([...entries.values()], config?.options ?? {});
  const checker = program.getTypeChecker();
  const names: Record<string, string[]> = {};
  for (const [entry, file] of entries) {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    names[entry] = symbol
      ? checker
          .getExportsOfModule(symbol)
          .map((each) => each.name)
          .sort()
      : [];
  }
  return names;
}
