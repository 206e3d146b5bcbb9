import path from 'node:path';
import ts from 'typescript';
import { entryPoints } from '../helpers/public-api';

const root = path.join(__dirname, '..', '..');

/** Each field of every public settings, options and definition interface, with its JSDoc. */
function settingsFields(): Array<{ field: string; doc: string | undefined }> {
  const entries = entryPoints();
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  const program = ts.createProgram([...entries.values()], config?.options ?? {});
  const checker = program.getTypeChecker();
  const fields = new Map<string, string | undefined>();
  for (const file of entries.values()) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile);
    for (const exported of module ? checker.getExportsOfModule(module) : []) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!/(Options|Settings|Definition)$/.test(symbol.name)) continue;
      for (const declaration of symbol.declarations ?? []) {
        if (!ts.isInterfaceDeclaration(declaration)) continue;
        if (!declaration.getSourceFile().fileName.startsWith(path.join(root, 'src'))) continue;
        for (const member of declaration.members) {
          if (!member.name) continue;
          const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
          fields.set(`${symbol.name}.${member.name.getText()}`, docs.map((doc) => doc.getText()).join('\n') || undefined);
        }
      }
    }
  }
  return [...fields].map(([field, doc]) => ({ field, doc }));
}

describe("the public settings and options, as an AI SDK user reads them in an editor's hover", () => {
  const fields = settingsFields();

  it('are found: every settings, options and definition interface the entry points export', () => {
    expect(fields.length).toBeGreaterThan(200);
  });

  it('document every field', () => {
    expect(fields.filter(({ doc }) => doc === undefined).map(({ field }) => field)).toEqual([]);
  });

  it('give a default as an @default tag, not in the prose', () => {
    const inProse = fields.filter(
      ({ doc }) => doc && /(^|[.;:,] |\* |\()[Dd]efaults?\b(?! ([a-z]+ )?(settings|policy|route|queue)\b)/m.test(doc) && !doc.includes('@default'),
    );
    expect(inProse.map(({ field }) => field)).toEqual([]);
  });
});
