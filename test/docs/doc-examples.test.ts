import path from 'node:path';
import ts from 'typescript';
import packageJson from '../../package.json';
import { type CodeBlock, codeBlocks, fragmentMarker, root, typescriptExamples } from './markdown-pages';

/**
 * The package's public entry points as a user imports them (`cadre`, `cadre/client`, ...), mapped
 * from package.json's "exports" to the sources they are built from.
 */
function entryPointPaths(): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(packageJson.exports)) {
    if (typeof target === 'string') continue;
    const source = target.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts');
    paths[subpath === '.' ? 'cadre' : `cadre/${subpath.slice(2)}`] = [path.join(root, source)];
  }
  return paths;
}

describe('the TypeScript examples of the README and docs/', () => {
  it('are read from the page with their line, a block under the fragment marker flagged', () => {
    const page = [
      '# A page',
      '',
      '```ts',
      'const a = 1;',
      '```',
      '',
      fragmentMarker,
      '',
      '```ts',
      'a.b.c;',
      '```',
    ].join('\n');
    expect(codeBlocks('a-page.md', page)).toEqual([
      { page: 'a-page.md', language: 'ts', line: 4, code: 'const a = 1;', fragment: false },
      { page: 'a-page.md', language: 'ts', line: 10, code: 'a.b.c;', fragment: true },
    ]);
  });

  it('compile against the public entry points, except blocks marked as fragments', () => {
    const files = typescriptExamples(path.join(root, '.doc-examples'));
    expect(files.size).toBeGreaterThan(10);
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      moduleDetection: ts.ModuleDetectionKind.Force,
      strict: true,
      noUncheckedIndexedAccess: true,
      esModuleInterop: true,
      skipLibCheck: true,
      resolveJsonModule: true,
      noEmit: true,
      types: ['node', 'jest'],
      typeRoots: [path.join(root, 'node_modules', '@types')],
      baseUrl: root,
      paths: entryPointPaths(),
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile, directoryExists } = host;
    const folders = new Set([...files.keys()].map((file) => path.dirname(file)));
    host.directoryExists = (folder) => folders.has(folder) || (directoryExists?.call(host, folder) ?? true);
    host.fileExists = (file) => files.has(file) || fileExists.call(host, file);
    host.readFile = (file) => files.get(file)?.code ?? readFile.call(host, file);
    host.getSourceFile = (file, languageVersion, ...rest) => {
      const block = files.get(file);
      return block
        ? ts.createSourceFile(file, block.code, languageVersion, true)
        : getSourceFile.call(host, file, languageVersion, ...rest);
    };
    // One program for every block: the library and the package's sources are read once.
    const program = ts.createProgram([...files.keys()], options, host);
    const errors = [...files.keys()].flatMap((file) => {
      const block = files.get(file) as CodeBlock;
      return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => {
        const line = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line ?? 0;
        return `${block.page}:${block.line + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      });
    });
    if (errors.length > 0) {
      throw new Error(
        `${errors.length} type errors in the docs' examples (a block meant as a fragment has the line ${fragmentMarker} above it):\n${errors.join('\n')}`,
      );
    }
  });
});
